/**
 * Every endpoint the client calls, once: method, path template (`:name` for a path parameter), and
 * whether a POST takes an Idempotency-Key (so that the client can generate one and retry safely).
 */
export interface Endpoint {
  method: 'GET' | 'POST';
  path: string;
  /** POST only: the server stores the response under the Idempotency-Key, so a retry is never applied twice. */
  idempotent: boolean;
  response: 'json' | 'image';
  /** false for the few open endpoints (the OpenAPI document). */
  auth: boolean;
}

const get = (path: string, response: 'json' | 'image' = 'json'): Endpoint => ({
  method: 'GET',
  path,
  idempotent: false,
  response,
  auth: true,
});
const post = (path: string): Endpoint => ({
  method: 'POST',
  path,
  idempotent: true,
  response: 'json',
  auth: true,
});

export const ENDPOINTS = {
  diagnose: post('/v1/diagnostic'),
  diagnoseTurn: post('/v1/diagnostic/turn'),
  search: get('/v1/search'),
  getProcedure: get('/v1/procedure/:chunk_id'),
  getErrorCode: get('/v1/error-codes/:brand/:code'),
  getProduct: get('/v1/products/:brand/:model'),
  getPdfSnapshot: get('/v1/pdf-snapshot/:document_id/:page', 'image'),
  getRegistry: get('/v1/registry'),
  me: get('/v1/me'),
  diagnoseStrict: post('/v2/diagnostic'),
  resolveModel: post('/v2/models/resolve'),
  getModelCoverage: get('/v2/models/:model_id/coverage'),
  openapi: { ...get('/v1/openapi.json'), auth: false },
  startDiagnosticSession: post('/v2/diagnostic-sessions'),
  getDiagnosticSession: get('/v2/diagnostic-sessions/:session_id'),
  respondToDiagnosticSession: post('/v2/diagnostic-sessions/:session_id/responses'),
  undoDiagnosticSession: post('/v2/diagnostic-sessions/:session_id/undo'),
  closeDiagnosticSession: post('/v2/diagnostic-sessions/:session_id/close'),
  getDiagnosticSessionSummary: get('/v2/diagnostic-sessions/:session_id/summary'),
} as const satisfies Record<string, Endpoint>;

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
