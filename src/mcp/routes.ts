import {
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../edge/auth.js';
import { hostName, isLoopbackHost } from '../edge/loopback.js';
import type { HttpMetrics } from '../edge/metrics.js';
import { OriginPolicy } from '../edge/origin.js';
import { sendServiceError } from '../edge/problem.js';
import { packageVersion } from '../edge/version.js';
import { ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';
import { PersistentExchanges } from './exchange.js';
import { reservedKeyPath, withLegacyErrorCodes } from './param-errors.js';
import {
  allowsBatches,
  DEFAULT_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './protocol.js';
import { type CallContext, McpCatalog } from './server.js';
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

type RequestId = string | number;

const JSON_TYPE = 'application/json; charset=utf-8';
const RPC = { invalidRequest: -32600, internalError: -32603 } as const;

function rpcError(id: RequestId | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}

function sendRpcError(
  reply: FastifyReply,
  status: number,
  id: RequestId | null,
  code: number,
  message: string,
): FastifyReply {
  return reply
    .code(status)
    .type(JSON_TYPE)
    .send(rpcError(id, code, message));
}

function parseBody(text: string): unknown {
  try {
    return text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
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
 * The fetch-API request the SDK reads, from the Fastify request. A body this route has already parsed
 * goes to the SDK as `parsedBody` beside a request without one (`body` null): the SDK then neither
 * streams nor parses it again. A body that did not parse travels as it came, so that the SDK answers its
 * parse error itself.
 */
function webRequest(req: FastifyRequest, body: string | null): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The service document asks a client for `Content-Type: application/json` only; the SDK's 2025
  // transport also wants it to accept an event stream. This endpoint answers every POST with JSON and
  // never streams, so a client that accepts JSON alone, or says nothing, is served the same.
  headers.set('accept', 'application/json, text/event-stream');
  if (body === null) headers.delete('content-length');
  const url = `${req.protocol}://${req.headers.host ?? '127.0.0.1'}${req.url}`;
  return new Request(url, { method: req.method, headers, body });
}

/**
 * Writes the SDK's answer. JSON-RPC errors the SDK raises before it reads the message (an unsupported
 * protocol version, a malformed envelope) carry `id: null`; when the request's id could be read, the
 * answer echoes it, as JSON-RPC asks.
 */
async function sendResponse(reply: FastifyReply, response: Response, id: RequestId | null, legacy = false) {
  reply.code(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'connection') reply.header(name, value);
  });
  // A success is passed on as the bytes the SDK wrote, without decoding them to a string and back.
  if (response.status < 400) {
    const bytes = Buffer.from(await response.arrayBuffer());
    // JSON-RPC errors come with status 200 too: the 2025 revisions' resource-not-found code is set here.
    if (legacy && bytes.includes('-32602')) return reply.send(withLegacyErrorCodes(bytes.toString('utf8')));
    return reply.send(bytes.length > 0 ? bytes : undefined);
  }
  let text = await response.text();
  if (legacy) text = withLegacyErrorCodes(text);
  if (id !== null && response.status >= 400 && text.startsWith('{')) {
    const message = parseBody(text) as { id?: unknown; error?: unknown } | undefined;
    if (message?.error !== undefined && message.id === null) text = JSON.stringify({ ...message, id });
  }
  return reply.send(text.length > 0 ? text : undefined);
}

/** The 2025-era revision a request speaks: its MCP-Protocol-Version header, 2025-06-18 without one. */
function legacyVersionOf(req: FastifyRequest): ProtocolVersion | null {
  const header = req.headers['mcp-protocol-version'];
  if (header === undefined) return DEFAULT_PROTOCOL_VERSION;
  const value = Array.isArray(header) ? undefined : header.trim();
  return (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(value ?? '')
    ? (value as ProtocolVersion)
    : null;
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
  const catalog = new McpCatalog(options.services, {
    serverVersion: options.serverVersion ?? packageVersion(),
    resourcePageSize: options.resourcePageSize ?? 100,
  });
  const { auth, metrics } = options;

  const countToolCall = (name: string, outcome: ToolOutcome) => {
    const result = outcome.service;
    if (!metrics || !result) return;
    if (result.billable && !result.replayed) metrics.billable.inc({ operation: name });
    const op = options.services.operation(name);
    const body = result.body as { state?: unknown; status?: unknown } | null;
    const state = body?.state ?? body?.status;
    if (op && op.billing !== 'none' && typeof state === 'string') {
      metrics.diagnostics.inc({ operation: name, state });
    }
  };

  // The SDK builds one server per exchange from a factory; the caller of each exchange travels with its
  // Request object, which the factory receives back.
  const calls = new WeakMap<Request, CallContext>();
  const serverFor = (ctx: McpRequestContext) => {
    const call = ctx.requestInfo && calls.get(ctx.requestInfo);
    if (!call) throw new Error('MCP request without a caller');
    return catalog.server(() => call);
  };
  const modern = quietly(() =>
    createMcpHandler(serverFor, {
      legacy: 'reject',
      responseMode: 'json',
      // Refused requests are answered with their JSON-RPC error; the log says why, for whoever debugs a client.
      onerror: (err) => app.log.debug({ err }, 'MCP request refused'),
    }),
  );
  // The frequent exchanges are answered by long-lived servers (exchange.ts); the rest as below.
  const persistent = await PersistentExchanges.connect(catalog, (err) =>
    app.log.debug({ err }, 'MCP exchange error'),
  );
  app.addHook('onClose', async () => {
    await persistent.close();
    await modern.close();
  });

  /** A 2025-era exchange: a fresh server on a stateless Streamable HTTP transport answering JSON. */
  const serveLegacy = async (request: Request, body: unknown, call: CallContext): Promise<Response> => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = catalog.server(() => call);
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, body === undefined ? {} : { parsedBody: body });
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  };

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

      const answer = persistent.serve(req.headers, body, call);
      if (answer) {
        const { status, body: json, legacy } = await answer;
        reply.code(status).header('content-type', 'application/json');
        // As bytes, like the SDK's answers below, so that the content type stays without a charset. An
        // answer already in bytes is a result, never an error whose code the 2025 revisions name otherwise.
        if (typeof json !== 'string') return reply.send(json);
        return reply.send(Buffer.from(legacy && json.includes('-32602') ? withLegacyErrorCodes(json) : json));
      }

      const request = webRequest(req, body === undefined ? text : null);
      if (!(await isLegacyRequest(request, body))) {
        calls.set(request, call(MODERN_PROTOCOL_VERSION));
        return sendResponse(reply, await modern.fetch(request, { parsedBody: body }), id);
      }
      // An unknown revision is left to the transport, which refuses it with the list it speaks.
      const version = legacyVersionOf(req) ?? DEFAULT_PROTOCOL_VERSION;
      if (Array.isArray(body)) {
        // A batch without the header comes from a 2025-03-26 client (later ones send the header and no
        // batches); a batch naming a later revision is refused.
        const batchVersion = req.headers['mcp-protocol-version'] === undefined ? '2025-03-26' : version;
        if (!allowsBatches(batchVersion)) {
          return sendRpcError(
            reply,
            400,
            null,
            RPC.invalidRequest,
            `batches were removed after protocol revision 2025-03-26; send one JSON-RPC message per POST`,
          );
        }
        return sendResponse(reply, await serveLegacy(request, body, call(batchVersion)), null, true);
      }
      return sendResponse(reply, await serveLegacy(request, body, call(version)), id, true);
    });
  });
}

/**
 * Builds the modern handler without the SDK's console notice about JSON mode dropping mid-call
 * notifications: this server sends none (every answer is one result), so the notice would only mislead
 * whoever reads the server's output.
 */
function quietly<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}
