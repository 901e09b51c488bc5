/**
 * JSON-RPC 2.0 as MCP carries it over HTTP POST: one message per request body, classified here before
 * anything is dispatched.
 */

/** Protocol revisions this server speaks, oldest first; the last one is offered to clients asking for another. */
export const PROTOCOL_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';
/** What a request without an MCP-Protocol-Version header is taken to speak (the transport spec's default). */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-06-18';

export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return typeof value === 'string' && (PROTOCOL_VERSIONS as readonly string[]).includes(value);
}

/** The revision a client asks for in `initialize`, when we speak it; otherwise our latest. */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isProtocolVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** JSON-RPC error codes; MCP's `-32002` is its resource-not-found code. */
export const RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  resourceNotFound: -32002,
} as const;

export type RequestId = string | number;

/** A failure answered as a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export interface RpcRequest {
  kind: 'request';
  id: RequestId;
  method: string;
  params: Record<string, unknown>;
}

/** A message that needs no answer: a notification, or a response to a request we never send. */
export interface RpcNoReply {
  kind: 'no_reply';
}

/** A message that is not valid JSON-RPC: answered with `error`, echoing the request id when it could be read. */
export interface RpcInvalid {
  kind: 'invalid';
  id: RequestId | null;
  error: RpcError;
}

export type RpcMessage = RpcRequest | RpcNoReply | RpcInvalid;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRequestId(v: unknown): v is RequestId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** Reads one parsed JSON body as a JSON-RPC message; a batch (an array) is refused, as MCP no longer has them. */
export function classify(body: unknown): RpcMessage {
  if (Array.isArray(body)) {
    return {
      kind: 'invalid',
      id: null,
      error: new RpcError(
        RPC.invalidRequest,
        'batches are not supported: send one JSON-RPC message per POST',
      ),
    };
  }
  if (!isObject(body)) {
    return {
      kind: 'invalid',
      id: null,
      error: new RpcError(RPC.invalidRequest, 'the body must be a JSON-RPC 2.0 message (a JSON object)'),
    };
  }
  const id = isRequestId(body.id) ? body.id : null;
  const invalid = (message: string): RpcInvalid => ({
    kind: 'invalid',
    id,
    error: new RpcError(RPC.invalidRequest, message),
  });
  if (body.jsonrpc !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if (!('method' in body)) {
    // A response (to a server-to-client request): this server never sends one, so there is nothing to match.
    if (('result' in body || 'error' in body) && 'id' in body) return { kind: 'no_reply' };
    return invalid('a JSON-RPC message needs a "method"');
  }
  if (typeof body.method !== 'string' || body.method.length === 0)
    return invalid('"method" must be a string');
  if (body.params !== undefined && !isObject(body.params)) {
    return {
      kind: 'invalid',
      id,
      error: new RpcError(RPC.invalidParams, '"params" must be an object'),
    };
  }
  if (!('id' in body)) return { kind: 'no_reply' };
  if (!isRequestId(body.id)) return invalid('"id" must be a string or a number');
  return { kind: 'request', id: body.id, method: body.method, params: body.params ?? {} };
}

export function resultMessage(id: RequestId, result: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result });
}

export function errorMessage(id: RequestId | null, error: RpcError): string {
  const body: { code: number; message: string; data?: unknown } = {
    code: error.code,
    message: error.message,
  };
  if (error.data !== undefined) body.data = error.data;
  return JSON.stringify({ jsonrpc: '2.0', id, error: body });
}
