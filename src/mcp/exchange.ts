import {
  classifyInboundRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageClassification,
  PerRequestHTTPServerTransport,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
  type Transport,
} from '@modelcontextprotocol/server';
import {
  DEFAULT_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './protocol.js';
import { ReplyCache } from './reply-cache.js';
import type { CallContext, McpCatalog } from './server.js';

/*
 * Long-lived SDK servers for the frequent exchanges.
 *
 * The SDK's stateless HTTP serving builds a server, connects it to a single-exchange transport, answers
 * through fetch `Request`/`Response` objects and tears it all down again, for every POST: measured, that
 * machinery is several times the cost of the tool call it carries (BENCHMARKS.md, "MCP tool calls";
 * docs/upstream/mcp-sdk-per-exchange-cost.md). Here one SDK `Server` per era, built once per app by the
 * same catalogue, stays connected to a transport of ours (the SDK's documented `Transport` extension
 * point) and serves the exchanges one after another and side by side:
 *
 * - the message fastify parsed goes to the server through `onmessage`, exactly as the SDK's transports
 *   deliver it, under an id unique within the server (clients of different HTTP requests may well use
 *   the same JSON-RPC id); the answer the server `send`s for that id is the HTTP reply, with the
 *   client's id put back (serialised with reply-cache.ts when it carries a cached look-up's shared tool
 *   result: the same bytes, without serialising the same result again);
 * - the caller of each exchange (account, key, request id, idempotency key, revision) is kept beside
 *   that internal id, which the SDK hands the handler as `ctx.mcpReq.id`: the handler reads it there;
 * - everything between is the SDK's protocol layer, unchanged: the JSON-RPC request validation, the
 *   era's method table and `_meta` envelope checks, the handlers' params and result validation
 *   (`tools/call` results against the era's schema), the result encoding (2026-07-28 cache hints and
 *   server identity) and the error answers.
 *
 * The 2026-07-28 server is connected to a subclass of the SDK's `PerRequestHTTPServerTransport`
 * classified `2026-07-28`: connecting it is how the SDK binds a server to that revision (what
 * `createMcpHandler` does for each fresh instance), with no private API. The 2025-era server is never
 * sent an `initialize`, so, like each fresh server of the SDK's stateless transport, it has negotiated
 * nothing and speaks the 2025 wire format whatever the revision of the request; the revision reaches the
 * tool through the caller.
 *
 * Only requests that the SDK's own HTTP entry would hand to its server unchanged take this path (see
 * `PersistentExchanges.serve`): the frequent methods below, in one JSON object (no batch), from a
 * request whose revision and standard headers the SDK's entry would accept as they are. Everything else
 * (initialize, notifications, batches, `server/discover`, any header or envelope the SDK would refuse or
 * that needs its decoding) returns null, and the route serves it through the SDK's stateless HTTP
 * handling as before, which answers it with its own statuses and messages.
 */

/** The methods answered by the long-lived servers: the frequent ones, all answered by a handler of ours or the SDK's ping. */
const PERSISTENT_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'ping',
]);

/**
 * The HTTP status `PerRequestHTTPServerTransport` gives a JSON-RPC error sent while the message is being
 * dispatched, before any handler ran (the SDK's `LADDER_ERROR_HTTP_STATUS`, which it does not export);
 * an error from a handler is answered 200, except a missing client capability. -32020 is the SDK's
 * header-mismatch code.
 */
const LADDER_STATUS: Readonly<Record<number, number>> = {
  [ProtocolErrorCode.ParseError]: 400,
  [ProtocolErrorCode.InvalidRequest]: 400,
  [ProtocolErrorCode.MethodNotFound]: 404,
  [ProtocolErrorCode.UnsupportedProtocolVersion]: 400,
  [ProtocolErrorCode.MissingRequiredClientCapability]: 400,
  [-32020]: 400,
};

type RequestId = string | number;

/** What to write back: the status and the JSON-RPC response as the SDK would have serialised it. */
export interface ExchangeAnswer {
  status: number;
  /** As text, or as bytes when assembled from a repeated result's kept bytes (reply-cache.ts). */
  body: string | Buffer;
  /** Answered by the 2025-era server, whose resource-not-found code the route rewrites. */
  legacy: boolean;
}

interface Pending {
  clientId: RequestId;
  call: CallContext;
  /** The shared tool result (tools.ts) the handler returned for this exchange, if it returned one. */
  shared: object | undefined;
  /** True while `onmessage` runs: an error sent then is the SDK refusing the message, not a handler's. */
  dispatching: boolean;
  resolve: (answer: ExchangeAnswer) => void;
  reject: (err: Error) => void;
}

/** The exchanges in flight on one long-lived server, under ids unique within it. */
class Exchanges {
  private next = 0;
  private readonly pending = new Map<number, Pending>();
  private readonly replies = new ReplyCache();

  constructor(private readonly modern: boolean) {}

  /** Delivers `message` to the server through `deliver` and resolves with the answer sent for it. */
  serve(
    message: JSONRPCRequest,
    call: CallContext,
    deliver: (message: JSONRPCRequest) => void,
  ): Promise<ExchangeAnswer> {
    this.next = this.next >= Number.MAX_SAFE_INTEGER ? 1 : this.next + 1;
    const id = this.next;
    return new Promise<ExchangeAnswer>((resolve, reject) => {
      const pending: Pending = {
        clientId: message.id,
        call,
        shared: undefined,
        dispatching: true,
        resolve,
        reject,
      };
      this.pending.set(id, pending);
      // The message is the route's own parse of this request's body, read by nothing else: it travels
      // under the internal id in place, without a copy.
      (message as { id: RequestId }).id = id;
      try {
        deliver(message);
      } catch (err) {
        this.pending.delete(id);
        reject(err instanceof Error ? err : new Error(String(err)));
      } finally {
        pending.dispatching = false;
      }
    });
  }

  callOf(id: RequestId): CallContext {
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!pending) throw new Error(`MCP request ${String(id)} without a caller`);
    return pending.call;
  }

  /** Notes the shared tool result the handler of exchange `id` returned, whose answer's bytes may be reused. */
  sharedResult(id: RequestId, result: object): void {
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (pending) pending.shared = result;
  }

  /** Settles the exchange a response belongs to; false for a message that is not one (dropped, as in JSON mode). */
  settle(message: JSONRPCMessage): boolean {
    if (!('id' in message) || !('result' in message || 'error' in message)) return false;
    const id = message.id;
    const pending = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (!pending) return false;
    this.pending.delete(id as number);
    let status = 200;
    if ('error' in message) {
      const { code } = message.error;
      if (
        pending.dispatching ||
        (this.modern && code === ProtocolErrorCode.MissingRequiredClientCapability)
      ) {
        status = (this.modern ? LADDER_STATUS[code] : undefined) ?? 200;
      }
    }
    // The client's id goes back in place of ours; the key order, and so the bytes, stay the SDK's.
    (message as { id: RequestId }).id = pending.clientId;
    const body =
      pending.shared !== undefined && 'result' in message
        ? this.replies.serialise(message, pending.shared)
        : JSON.stringify(message);
    pending.resolve({ status, body, legacy: !this.modern });
    return true;
  }

  closeAll(): void {
    for (const pending of this.pending.values()) pending.reject(new Error('the MCP server closed'));
    this.pending.clear();
  }
}

const MODERN_CLASSIFICATION: MessageClassification = { era: 'modern', revision: MODERN_PROTOCOL_VERSION };

/**
 * The 2026-07-28 server's transport. It is the SDK's per-request transport class only so that `connect`
 * binds the server to the classified revision; every exchange goes through `serve`, never through the
 * base class's single-use `handleMessage`.
 */
class ModernTransport extends PerRequestHTTPServerTransport {
  readonly exchanges = new Exchanges(true);

  constructor() {
    super({ classification: MODERN_CLASSIFICATION, responseMode: 'json' });
  }

  override async start(): Promise<void> {}

  /** What `onmessage` is given beside each message: the same for every exchange. */
  private readonly extra = { classification: MODERN_CLASSIFICATION };
  private readonly deliver = (m: JSONRPCRequest) => this.onmessage?.(m, this.extra);

  serve(message: JSONRPCRequest, call: CallContext): Promise<ExchangeAnswer> {
    return this.exchanges.serve(message, call, this.deliver);
  }

  override async send(message: JSONRPCMessage): Promise<void> {
    this.exchanges.settle(message);
  }

  override async close(): Promise<void> {
    this.exchanges.closeAll();
    this.onclose?.();
  }
}

/** The 2025-era server's transport: messages are delivered as the SDK's Streamable HTTP transport delivers them. */
class LegacyTransport implements Transport {
  readonly exchanges = new Exchanges(false);
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  async start(): Promise<void> {}

  private readonly deliver = (m: JSONRPCRequest) => this.onmessage?.(m);

  serve(message: JSONRPCRequest, call: CallContext): Promise<ExchangeAnswer> {
    return this.exchanges.serve(message, call, this.deliver);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.exchanges.settle(message) && 'id' in message) {
      this.onerror?.(new Error(`a response for an unknown request id: ${String(message.id)}`));
    }
  }

  async close(): Promise<void> {
    this.exchanges.closeAll();
    this.onclose?.();
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The headers the route reads, as fastify gives them. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** Where `Mcp-Name` must repeat the body: the SDK's name sources for the methods served here. */
function nameSource(message: JSONRPCRequest): unknown {
  const params = message.params as Record<string, unknown> | undefined;
  if (message.method === 'tools/call' || message.method === 'prompts/get') return params?.name;
  if (message.method === 'resources/read') return params?.uri;
  return undefined;
}

/**
 * Whether the SDK's standard-header check (SEP-2243) passes a modern request as it is: both required
 * headers present, and `Mcp-Name` absent where the body has nothing for it to repeat, or equal to the
 * body's value as plain text. Anything else (a Base64-encoded or padded `Mcp-Name`, which the SDK
 * decodes, or a mismatch, which it refuses) is left to the SDK's path.
 */
function plainStandardHeaders(headers: RequestHeaders, message: JSONRPCRequest): boolean {
  if (header(headers['mcp-protocol-version']) === undefined || header(headers['mcp-method']) === undefined) {
    return false;
  }
  const name = headers['mcp-name'];
  const source = nameSource(message);
  if (source === undefined) return name === undefined;
  return typeof source === 'string' && name === source && !name.startsWith('=?');
}

/** The 2025-era revision a request's header names (none: the transport spec's default), or undefined. */
function legacyVersionOf(headers: RequestHeaders): ProtocolVersion | undefined {
  const value = headers['mcp-protocol-version'];
  const version = value === undefined ? DEFAULT_PROTOCOL_VERSION : header(value);
  return (LEGACY_PROTOCOL_VERSIONS as readonly (string | undefined)[]).includes(version)
    ? (version as ProtocolVersion)
    : undefined;
}

/**
 * Whether the SDK's classification routes this body, sent with a 2025-era revision header (or none), to
 * the 2025 era as a plain JSON-RPC request (`legacy`, `no-claim`): what the SDK's Streamable HTTP
 * transport then delivers as it is.
 *
 * Asked of the SDK's classifier in its batch form, a one-element array. For a batch it first refuses any
 * element that carries a 2026-07-28 envelope claim (well-formed or not), then checks each element's
 * JSON-RPC shape with the request schema first. For a single body it checks the two response schemas
 * first, and both fail on every request: each failing zod parse builds its issues, which V8 keeps
 * through the scavenges until a major collection (docs/upstream/mcp-sdk-per-exchange-cost.md), so that
 * order made every 2025-era request promote about half of what it left in the old generation. Both
 * forms run the SDK's own schemas; they decide the same thing for a body with an `id` and one of the
 * methods served here (never `initialize`) under a header that names no modern revision: one element
 * with an `id` key that passes a batch's shape check can only be a request (the notification and
 * response schemas are strict and refuse `id` or `method`), and without an envelope claim and without a
 * modern header the single-body classification answers `no-claim`. Anything else answers false, and the
 * caller classifies the body as one message, as before.
 */
export function routedAsLegacyRequest(
  request: Omit<Parameters<typeof classifyInboundRequest>[0], 'body'>,
  body: object,
): boolean {
  if (!('id' in body)) return false;
  const outcome = classifyInboundRequest({ ...request, body: [body] });
  return outcome.kind === 'legacy' && outcome.reason === 'batch';
}

/** One long-lived server per era, built by the catalogue, and the exchanges that reach them. */
export class PersistentExchanges {
  private readonly modern = new ModernTransport();
  private readonly legacy = new LegacyTransport();
  private readonly servers: Server[];

  private constructor(modern: Server, legacy: Server) {
    this.servers = [modern, legacy];
  }

  static async connect(catalog: McpCatalog, onerror: (err: Error) => void): Promise<PersistentExchanges> {
    let exchanges: PersistentExchanges | undefined;
    const callerOf = (transport: 'modern' | 'legacy') => (ctx: ServerContext) =>
      exchanges![transport].exchanges.callOf(ctx.mcpReq.id);
    const sharedResult = (transport: 'modern' | 'legacy') => (ctx: ServerContext, result: object) =>
      exchanges![transport].exchanges.sharedResult(ctx.mcpReq.id, result);
    const modern = catalog.server(callerOf('modern'), sharedResult('modern'));
    const legacy = catalog.server(callerOf('legacy'), sharedResult('legacy'));
    exchanges = new PersistentExchanges(modern, legacy);
    for (const server of exchanges.servers) server.onerror = onerror;
    await modern.connect(exchanges.modern);
    await legacy.connect(exchanges.legacy);
    return exchanges;
  }

  /**
   * Answers a POST whose body is `body` (already parsed) on a long-lived server, or returns null when the
   * request is not one these serve (the route then uses the SDK's stateless path). `callFor` builds the
   * caller for the revision the request speaks.
   */
  serve(
    headers: RequestHeaders,
    body: unknown,
    callFor: (version: ProtocolVersion) => CallContext,
  ): Promise<ExchangeAnswer> | null {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
    const method = (body as { method?: unknown }).method;
    if (typeof method !== 'string' || !PERSISTENT_METHODS.has(method)) return null;
    const request = {
      httpMethod: 'POST',
      protocolVersionHeader: header(headers['mcp-protocol-version']),
      mcpMethodHeader: header(headers['mcp-method']),
      mcpNameHeader: header(headers['mcp-name']),
    };
    const legacyVersion = legacyVersionOf(headers);
    if (legacyVersion !== undefined && routedAsLegacyRequest(request, body)) {
      return this.legacy.serve(body as JSONRPCRequest, callFor(legacyVersion));
    }
    const outcome = classifyInboundRequest({ ...request, body });
    if (outcome.kind === 'modern') {
      // What createMcpHandler checks before it hands a modern request to a server: a served revision,
      // the standard headers, and the client capabilities a method requires (none of the methods here).
      if (outcome.messageKind !== 'request' || outcome.classification.revision !== MODERN_PROTOCOL_VERSION) {
        return null;
      }
      if (!plainStandardHeaders(headers, outcome.message)) return null;
      return this.modern.serve(outcome.message, callFor(MODERN_PROTOCOL_VERSION));
    }
    // The batch form above answers every 2025-era request served here; this is the single-body
    // classification's answer for the same, kept so that the route does not depend on that proof.
    if (outcome.kind !== 'legacy' || outcome.reason !== 'no-claim' || legacyVersion === undefined)
      return null;
    return this.legacy.serve(body as JSONRPCRequest, callFor(legacyVersion));
  }

  async close(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.close().catch(() => {})));
  }
}
