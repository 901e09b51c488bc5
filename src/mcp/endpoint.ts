import {
  createMcpHandler,
  isLegacyRequest,
  type McpRequestContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { packageVersion } from '../edge/version.js';
import type { Services } from '../engine/services.js';
import { PersistentExchanges } from './exchange.js';
import { withLegacyErrorCodes } from './param-errors.js';
import {
  allowsBatches,
  DEFAULT_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './protocol.js';
import { parseBody, type RequestId, RPC, sendRpcError } from './rpc-reply.js';
import { type CallContext, McpCatalog } from './server.js';

/** What the SDK side of the endpoint is built from (see McpRoutesOptions). */
export interface McpEndpointOptions {
  services: Services;
  serverVersion?: string;
  resourcePageSize?: number;
}

/** A POST the route has read, checked and authenticated, for the SDK to answer. */
export interface McpMessage {
  /** The body as it came, and as parsed (undefined when it is not JSON). */
  text: string;
  body: unknown;
  /** The request's id when it could be read, echoed by errors. */
  id: RequestId | null;
  /** The caller and protocol revision a tool call runs with. */
  call: (version: ProtocolVersion) => CallContext;
}

/** The part of the endpoint that runs on the official SDK: built once, by the first POST. */
export interface McpEndpoint {
  answer(req: FastifyRequest, reply: FastifyReply, message: McpMessage): Promise<FastifyReply>;
  close(): Promise<void>;
}

/**
 * Builds the SDK side of the endpoint: the catalogue (tool table and schemas), the long-lived servers of
 * the frequent exchanges (exchange.ts) and the stateless handlers of the rest.
 */
export async function startMcpEndpoint(
  app: FastifyInstance,
  options: McpEndpointOptions,
): Promise<McpEndpoint> {
  const catalog = new McpCatalog(options.services, {
    serverVersion: options.serverVersion ?? packageVersion(),
    resourcePageSize: options.resourcePageSize ?? 100,
  });
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

  const answerMessage = async (
    req: FastifyRequest,
    reply: FastifyReply,
    { text, body, id, call }: McpMessage,
  ): Promise<FastifyReply> => {
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
  };
  return {
    answer: answerMessage,
    close: async () => {
      await persistent.close();
      await modern.close();
    },
  };
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
