import type { FastifyReply } from 'fastify';

export type RequestId = string | number;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const RPC = { invalidRequest: -32600, internalError: -32603 } as const;

export function rpcError(id: RequestId | null, code: number, message: string, data?: unknown): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code, message, ...(data === undefined ? {} : { data }) },
  });
}

export function sendRpcError(
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

export function parseBody(text: string): unknown {
  try {
    return text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
