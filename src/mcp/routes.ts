import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticator } from '../edge/auth.js';
import { hostName, isLoopbackHost } from '../edge/loopback.js';
import type { HttpMetrics } from '../edge/metrics.js';
import { OriginPolicy } from '../edge/origin.js';
import { sendServiceError } from '../edge/problem.js';
import { stateOf } from '../engine/context.js';
import { ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';
import type { McpEndpoint } from './endpoint.js';
import type { ProtocolVersion } from './protocol.js';
import { reservedKeyPath } from './reserved-keys.js';
import { JSON_TYPE, parseBody, type RequestId, RPC, rpcError, sendRpcError } from './rpc-reply.js';
import type { CallContext } from './server.js';
import type { ToolOutcome } from './tools.js';

export interface McpRoutesOptions {
  /** The service layer the REST routes use: every tool call goes through `services.invoke`. */
  services: Services;
  /** The REST authenticator: same keys, same rate limit, same 401 problem documents. */
  auth: Authenticator;
  /** Where the endpoint listens. */
  path?: string;
  /**
   * Browser origins allowed besides loopback ones (a request carrying any other Origin is refused with
   * 403), or '*'. Pass the CORS origins of the app.
   */
  allowedOrigins?: string[] | '*';
  /**
   * Refuse requests whose Host header is not a loopback name: DNS-rebinding protection for a server
   * running without keys (which `serve` only allows on loopback).
   */
  requireLoopbackHost?: boolean;
  /** Billable units and diagnostic results are counted as for REST. */
  metrics?: HttpMetrics;
  /** Reported to clients; the package version by default. */
  serverVersion?: string;
  /** Page resources per resources/list answer. */
  resourcePageSize?: number;
}

/** The id of a request message, when the body is one whose id can be read: errors echo it. */
function requestIdOf(body: unknown): RequestId | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { id } = body as { id?: unknown };
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return true;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** Why a request is refused before anything else is read: a foreign origin or host, or a body that is not JSON. */
function refusal(
  req: FastifyRequest,
  origins: OriginPolicy,
  requireLoopbackHost: boolean,
): { status: number; message: string } | null {
  const origin = req.headers.origin;
  if (!origins.allows(origin)) return { status: 403, message: `origin not allowed: ${origin}` };
  if (requireLoopbackHost && !isLoopbackHost(hostName(req.headers.host ?? ''))) {
    return { status: 403, message: 'this server answers only requests addressed to a loopback host' };
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return { status: 415, message: 'the body must be a JSON-RPC message sent as application/json' };
  }
  return null;
}

/**
 * The MCP endpoint, on the official SDK. The frequent requests (tool calls, lists, reads, prompts, ping)
 * are answered by one long-lived SDK server per era (exchange.ts). Everything else is served as the SDK
 * serves a stateless endpoint: the 2026-07-28 revision natively (`createMcpHandler`, JSON responses), and
 * the 2025 revisions on the same address through the SDK's Streamable HTTP transport in JSON mode, one
 * fresh server per request. All are built by the same catalogue, so the paths and eras cannot drift apart.
 * GET, DELETE and the rest answer 405: no stream and no session is ever offered.
 * Registered in a scope of its own so that its body parsing and errors do not touch REST.
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const path = options.path ?? '/mcp';
  const origins = new OriginPolicy(options.allowedOrigins ?? []);
  const { auth, metrics } = options;

  const countToolCall = (name: string, outcome: ToolOutcome) => {
    const result = outcome.service;
    if (!metrics || !result) return;
    if (result.billable && !result.replayed) metrics.billable.inc({ operation: name });
    const op = options.services.operation(name);
    const state = stateOf(result);
    if (op && op.billing !== 'none' && state !== undefined) {
      metrics.diagnostics.inc({ operation: name, state });
    }
  };

  // The SDK side of the endpoint (the SDK itself, the catalogue, the long-lived servers) is loaded and
  // built by the first POST, not before the server listens: loading the SDK is about a tenth of a second
  // of every start, and most servers answer REST long before, if ever, an MCP client calls. A failure to
  // build it answers that POST with the usual internal error, and the next POST tries again.
  let endpoint: Promise<McpEndpoint> | undefined;
  const endpointOf = (): Promise<McpEndpoint> => {
    endpoint ??= import('./endpoint.js')
      .then(({ startMcpEndpoint }) => startMcpEndpoint(app, options))
      .catch((err: unknown) => {
        endpoint = undefined;
        throw err;
      });
    return endpoint;
  };
  app.addHook('onClose', async () => {
    const built = await endpoint?.catch(() => undefined);
    await built?.close();
  });

  await app.register(async (scope) => {
    // The body is read as text and handed to the SDK as it came, which parses and answers parse errors.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err instanceof ServiceError) return sendServiceError(req, reply, err);
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendRpcError(reply, 413, null, RPC.invalidRequest, 'the body is too large');
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return sendRpcError(reply, 400, null, RPC.invalidRequest, 'the request could not be read');
      }
      req.log.error({ err }, 'MCP request failed');
      return sendRpcError(
        reply,
        500,
        null,
        RPC.internalError,
        `internal error; quote request id ${req.id} when reporting it`,
      );
    });

    scope.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url: path,
      handler: async (_req, reply) => {
        reply.header('Allow', 'POST');
        return sendRpcError(
          reply,
          405,
          null,
          RPC.invalidRequest,
          'method not allowed: POST one JSON-RPC message per request; this server offers no stream and no session',
        );
      },
    });

    scope.post(path, async (req, reply) => {
      const text = typeof req.body === 'string' ? req.body : '';
      const body = parseBody(text);
      const id = requestIdOf(body);
      const refused = refusal(req, origins, options.requireLoopbackHost === true);
      if (refused) return sendRpcError(reply, refused.status, id, RPC.invalidRequest, refused.message);

      const caller = await auth(req, reply);
      const reserved = text.includes('"__proto__"') ? reservedKeyPath(body) : null;
      if (reserved) {
        return reply
          .code(200)
          .type(JSON_TYPE)
          .send(
            rpcError(id, -32602, `invalid params: ${reserved} is a reserved name, not a field`, {
              errors: [
                { field: reserved.replace(/^params\./, ''), message: 'is a reserved name, not a field' },
              ],
            }),
          );
      }
      const idempotencyKey = req.headers['idempotency-key'];
      const call = (version: ProtocolVersion): CallContext => ({
        service: {
          account: caller.account,
          key: caller.key,
          requestId: req.id,
          idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
        },
        version,
        onInternalError: (err) => req.log.error({ err }, 'tool call failed'),
        onToolCall: countToolCall,
      });

      return (await endpointOf()).answer(req, reply, { text, body, id, call });
    });
  });
}
