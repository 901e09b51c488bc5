import type { z } from 'zod';
import {
  type Operation,
  type OperationName,
  type OperationNamed,
  type OperationSpec,
  TYPED_OPERATIONS,
} from './contract/operations.js';

/**
 * Every endpoint the client calls, derived from the server's list of operations (copied with the
 * contract): method, path template (`:name` for a path parameter), and whether a POST takes an
 * Idempotency-Key (so that the client can generate one and retry safely).
 */
export interface Endpoint {
  /** The server's operation (also its MCP tool name); null for the OpenAPI document, which is no operation. */
  operation: OperationName | null;
  method: 'GET' | 'POST';
  path: string;
  /** POST only: the server stores the response under the Idempotency-Key, so a retry is never applied twice. */
  idempotent: boolean;
  response: 'json' | 'image' | 'file';
  /** false for the few open endpoints (the OpenAPI document). */
  auth: boolean;
}

/** `get_error_code` -> `getErrorCode`. */
type Camel<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/**
 * Method names that are not the camel case of their operation's name: kept as the client has always
 * called them.
 */
const RENAMED = { diagnose_guided: 'diagnoseTurn', whoami: 'me' } as const;
type Renamed = typeof RENAMED;

/** The client method of an operation. */
export type MethodName<N extends OperationName> = N extends keyof Renamed ? Renamed[N] : Camel<N>;

/** What a method sends: the operation's input (path parameters, plus query or body), as the schema takes it. */
export type InputOf<N extends OperationName> = z.input<OperationNamed<N>['input']>;
/** What a method answers: the operation's output, as the server sends it. */
export type OutputOf<N extends OperationName> = z.output<OperationNamed<N>['output']>;

export function methodName<N extends OperationName>(name: N): MethodName<N> {
  const renamed = (RENAMED as Record<string, string>)[name];
  return (renamed ?? name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())) as MethodName<N>;
}

type OperationEndpoints = { [O in Operation as MethodName<O['name']>]: Endpoint };

function endpointOf(op: OperationSpec & { name: OperationName }): Endpoint {
  return {
    operation: op.name,
    method: op.method,
    path: op.path,
    idempotent: op.method === 'POST' && op.idempotency !== 'none',
    response: op.response,
    auth: true,
  };
}

export const ENDPOINTS: OperationEndpoints & { openapi: Endpoint } = {
  ...(Object.fromEntries(
    TYPED_OPERATIONS.map((op) => [methodName(op.name), endpointOf(op)]),
  ) as OperationEndpoints),
  openapi: {
    operation: null,
    method: 'GET',
    path: '/v1/openapi.json',
    idempotent: false,
    response: 'json',
    auth: false,
  },
};

export type EndpointName = keyof typeof ENDPOINTS;

/** The names of a path template's parameters, in order: `/v1/products/:brand/:model` -> brand, model. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
}

/** Fills a path template; each value is percent-encoded as one path segment. */
export function fillPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new TypeError(`missing path parameter "${name}"`);
    return encodeURIComponent(String(value));
  });
}
