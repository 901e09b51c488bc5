import crypto from 'node:crypto';
import { createRequire } from 'node:module';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { BundleReader } from '../bundle/reader.js';
import { type Authenticator, createAuthenticator } from '../edge/auth.js';
import { hostName, isLoopbackHost } from '../edge/loopback.js';
import { HttpMetrics } from '../edge/metrics.js';
import { clientErrorHandler, frameworkError, installProblemHandlers, sendCode } from '../edge/problem.js';
import { packageVersion } from '../edge/version.js';
import { Services } from '../engine/services.js';
import { snapshotConversions } from '../engine/snapshot.js';
import { restRoutes } from '../http/index.js';
import { type McpRoutesOptions, mcpRoutes } from '../mcp/index.js';
import { localAccount } from '../state/local-key.js';
import type { RateLimiter } from '../state/rate-limit.js';
import type { StateStore } from '../state/types.js';
import { landingRoutes } from './landing.js';

/** What the app is made of, for routes added later (MCP) that must authenticate and call services alike. */
export interface HeatsourceApp {
  services: Services;
  authenticate: Authenticator;
  metrics: HttpMetrics;
  /** The bundle served when the app was built; `services.reader` is the one served now (SIGHUP reopens it). */
  reader: BundleReader;
  state: StateStore;
  /** Set while shutting down: /readyz answers 503 so that balancers stop sending requests. */
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    heatsource: HeatsourceApp;
  }
}

export interface BuildAppOptions {
  /** An open reader, or the path of a bundle to open read-only. */
  bundle: BundleReader | string;
  state: StateStore;
  /** false: no keys, every call runs as the local account. Only `serve` on loopback may do this. */
  auth?: boolean;
  /** Origins allowed to call from a browser: a list, or '*'. Off by default. */
  cors?: string[] | '*' | false;
  /** Largest request body in bytes. */
  bodyLimit?: number;
  logger?: FastifyServerOptions['logger'];
  /** Include process metrics (CPU, memory, event loop) in /metrics. */
  processMetrics?: boolean;
  /** Default: the state store's own counters, shared by every process using the store. */
  rateLimiter?: RateLimiter;
  services?: Services;
  /** Open guided sessions one API key may hold (default DEFAULT_MAX_OPEN_SESSIONS); ignored with `services`. */
  maxOpenSessions?: number;
  /** The MCP endpoint (on by default at /mcp); false leaves it out. */
  mcp?: Partial<Omit<McpRoutesOptions, 'services' | 'auth'>> | false;
  /** Connection time limits; the defaults suit a server reachable by anyone. */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * Addresses (or CIDR ranges) of reverse proxies whose X-Forwarded-For is believed: requests from them
   * are attributed to the client the proxy names (console sign-in throttling, logs). Empty: none.
   */
  trustProxy?: string[];
  /** Adds routes or hooks once the API is registered. */
  extend?: (app: FastifyInstance, hs: HeatsourceApp) => void | Promise<void>;
}

export const DEFAULT_BODY_LIMIT = 64 * 1024;

/**
 * How long a connection may take, so that a client that stalls (headers or body never finished, an idle
 * socket) cannot hold it open: past `headersMs` or `requestMs` the client gets `408 request_timeout` and
 * the connection is closed; an idle keep-alive connection is closed after `keepAliveMs`, any socket with
 * no traffic at all after `idleMs`. Node checks the first two every `checkEveryMs`.
 */
export interface ServerTimeouts {
  headersMs: number;
  requestMs: number;
  keepAliveMs: number;
  idleMs: number;
  checkEveryMs: number;
}

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  // Longer than the idle timeout of common load balancers (60 s), so that they close first.
  keepAliveMs: 72_000,
  idleMs: 120_000,
  checkEveryMs: 2_000,
};

/**
 * The router refuses longer path parameters before any schema sees them. It is set above every path
 * parameter's schema maximum so that the operation's schema decides, and REST answers an identifier
 * exactly as the MCP tool taking the same argument does.
 */
export const MAX_PARAM_LENGTH = 1024;

/**
 * Fastify's JSON-schema compilers (ajv and fast-json-stringify), loaded when a route first declares a
 * schema instead of when the server is built. Every request here is validated by zod in the handlers
 * and no route gives Fastify a schema, so a server never loads them; Fastify would otherwise require
 * both at construction, a good part of the time `serve` takes before it listens. A route that declares
 * a schema gets the very compilers Fastify would have used (the ones it depends on, resolved from it).
 */
const fromFastify = createRequire(createRequire(import.meta.url).resolve('fastify'));
type CompilerFactory = (...args: unknown[]) => unknown;
let validatorFactory: CompilerFactory | undefined;
let serializerFactory: CompilerFactory | undefined;
const lazyCompilers = {
  buildValidator: (...args: unknown[]) => {
    validatorFactory ??= (fromFastify('@fastify/ajv-compiler') as () => CompilerFactory)();
    return validatorFactory(...args);
  },
  buildSerializer: (...args: unknown[]) => {
    serializerFactory ??= (fromFastify('@fastify/fast-json-stringify-compiler') as () => CompilerFactory)();
    return serializerFactory(...args);
  },
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The composition root of the server: the shared edge (request ids, hooks, problem documents, health and
 * metrics), then each adapter mounted on it (REST, MCP), over one bundle and one state store. The adapters
 * never import each other; what they share lives in src/edge.
 */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const reader = typeof options.bundle === 'string' ? new BundleReader(options.bundle) : options.bundle;
  const state = options.state;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const app = Fastify({
    logger: options.logger ?? false,
    http: {
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkEveryMs,
      // Node answers a missing Host with an empty 400 of its own; the onRequest hook below answers it.
      requireHostHeader: false,
    },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleMs,
    clientErrorHandler,
    frameworkErrors: frameworkError,
    // One line per request is written by the onResponse hook below, with the route and no headers.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // A `__proto__` or `constructor` key is valid JSON: it stays an own property of the parsed body (as
    // JSON.parse leaves it), and the operation's schema refuses it by name like any field it does not
    // take (`validation_failed`), instead of Fastify calling the body "not valid JSON". Every body is
    // validated by zod before any handler reads it, and zod builds its output afresh from the schema.
    onProtoPoisoning: 'ignore',
    onConstructorPoisoning: 'ignore',
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    // Requests arriving while draining get a problem document from the onRequest hook below.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Only the proxies named are believed: a header from anyone else could name any address.
    trustProxy: options.trustProxy && options.trustProxy.length > 0 ? options.trustProxy : false,
    schemaController: { compilersFactory: lazyCompilers },
  });
  const services =
    options.services ??
    new Services(
      reader,
      state,
      options.maxOpenSessions === undefined ? {} : { sessions: { maxOpenSessions: options.maxOpenSessions } },
    );
  const metrics = new HttpMetrics({ processMetrics: options.processMetrics, snapshotConversions });
  const authenticate = createAuthenticator({
    state,
    rateLimiter: options.rateLimiter ?? state.rateLimiter(),
    localAccount: options.auth === false ? () => localAccount(state) : undefined,
  });
  const hs: HeatsourceApp = { services, authenticate, metrics, reader, state, draining: false };
  app.decorate('heatsource', hs);

  installProblemHandlers(app);
  if (options.cors) {
    await app.register(cors, {
      origin: options.cors === '*' ? true : options.cors,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'MCP-Protocol-Version',
        'X-Request-Id',
      ],
      exposedHeaders: [
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
        'X-Request-Id',
        'ETag',
        'Idempotency-Replayed',
        'WWW-Authenticate',
      ],
      maxAge: 600,
    });
  }

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
    if (req.headers.host === undefined && req.raw.httpVersion === '1.1') {
      reply.header('Connection', 'close');
      return sendCode(req, reply, 'malformed_request', 'an HTTP/1.1 request needs a Host header');
    }
    // Without keys the API trusts whoever can reach it, which must be this machine only: a page on
    // another site that rebinds its DNS name to 127.0.0.1 still sends its own name as Host.
    if (
      options.auth === false &&
      /^\/v[12]\//.test(req.url) &&
      !isLoopbackHost(hostName(req.headers.host ?? ''))
    ) {
      return sendCode(
        req,
        reply,
        'host_not_allowed',
        `requests addressed to ${req.headers.host ?? '(no host)'} are refused`,
      );
    }
    if (hs.draining) {
      reply.header('Connection', 'close');
      return sendCode(
        req,
        reply,
        'service_unavailable',
        'the server is shutting down; retry on another instance',
      );
    }
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    // While draining, each connection closes after its response, so that shutdown need not wait for
    // keep-alive connections to time out.
    if (hs.draining) reply.header('Connection', 'close');
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ method: req.method, route, status: reply.statusCode });
    metrics.duration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    req.log.info(
      { method: req.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
      'request',
    );
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (req, reply) => {
    if (hs.draining) return sendCode(req, reply, 'service_unavailable', 'shutting down');
    try {
      await state.ping();
      hs.services.reader.ping();
    } catch (err) {
      req.log.error({ err }, 'not ready');
      return sendCode(req, reply, 'service_unavailable', 'the state store or the bundle is not reachable');
    }
    const current = hs.services.reader;
    return { status: 'ready', bundle: { version: current.formatVersion, built_at: current.builtAt } };
  });
  app.get('/metrics', async (_req, reply) => {
    reply.type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  restRoutes(app, { services, authenticate, metrics, version: packageVersion() });
  if (options.mcp !== false) {
    await mcpRoutes(app, {
      services,
      auth: authenticate,
      metrics,
      allowedOrigins: options.cors === '*' ? '*' : options.cors || [],
      // Without keys the server is loopback-only; refusing other Host headers stops DNS rebinding.
      requireLoopbackHost: options.auth === false,
      ...options.mcp,
    });
  }
  landingRoutes(app, { version: packageVersion() });
  if (options.extend) await options.extend(app, hs);
  return app;
}
