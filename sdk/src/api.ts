import type { OperationName } from './contract/operations.js';
import {
  ENDPOINTS,
  type Endpoint,
  type EndpointName,
  type InputOf,
  type MethodName,
  type OutputOf,
  pathParams,
} from './endpoints.js';
import type { OfflinePackFile, RequestOptions, SessionResponseInput, Snapshot } from './types.js';

/** One call as a transport sees it: which endpoint, its path parameters, query and body. */
export interface ApiCall {
  name: EndpointName;
  endpoint: Endpoint;
  params: Record<string, string | number>;
  query: Record<string, string | number | boolean | undefined>;
  body?: Record<string, unknown>;
}

/** What a transport answers for a success; failures are thrown (HeatsourceError for problems). */
export interface ApiResult {
  status: number;
  body: unknown;
  /** Set for image endpoints. */
  snapshot?: Snapshot;
  /** Set for file endpoints (the offline pack). */
  file?: OfflinePackFile;
}

/** Carries a call to the service: over HTTP (createClient), or in-process for an embedded engine. */
export type Transport = (call: ApiCall, options: RequestOptions) => Promise<ApiResult>;

/** One method per endpoint of the heatsource API. Every method rejects with HeatsourceError on a problem. */
export interface HeatsourceApi {
  /** POST /v1/diagnostic: what a code means for a model, with a verbatim excerpt and its page. */
  diagnose(input: InputOf<'diagnose'>, options?: RequestOptions): Promise<OutputOf<'diagnose'>>;
  /** POST /v1/diagnostic/turn: one turn of a guided conversation (always sent with an Idempotency-Key). */
  diagnoseTurn(
    input: InputOf<'diagnose_guided'>,
    options?: RequestOptions,
  ): Promise<OutputOf<'diagnose_guided'>>;
  /** GET /v1/search: free-text search over the manuals; page with `cursor` = `next_cursor`. */
  search(input: InputOf<'search'>, options?: RequestOptions): Promise<OutputOf<'search'>>;
  /** GET /v1/procedure/{chunk_id}: a passage of a manual in full. */
  getProcedure(input: InputOf<'get_procedure'>, options?: RequestOptions): Promise<OutputOf<'get_procedure'>>;
  /** GET /v1/error-codes/{brand}/{code}: every manual of a brand documenting a code. */
  getErrorCode(
    input: InputOf<'get_error_code'>,
    options?: RequestOptions,
  ): Promise<OutputOf<'get_error_code'>>;
  /** GET /v1/products/{brand}/{model}: a model, how its name matched, and its manuals. */
  getProduct(input: InputOf<'get_product'>, options?: RequestOptions): Promise<OutputOf<'get_product'>>;
  /** GET /v1/pdf-snapshot/{document_id}/{page}: the page image (WebP unless `format: 'png'`). */
  getPdfSnapshot(input: InputOf<'get_pdf_snapshot'>, options?: RequestOptions): Promise<Snapshot>;
  /**
   * GET /v1/offline-pack: the manuals of some brands (`brands: 'A,B'`) or models as one SQLite file, to
   * answer from offline with the same engine (see the app at /app). Not billable.
   */
  exportOfflinePack(
    input: InputOf<'export_offline_pack'>,
    options?: RequestOptions,
  ): Promise<OfflinePackFile>;
  /** GET /v1/registry: brands, models, manuals and totals; page with `cursor` = `next_cursor`. */
  getRegistry(input?: InputOf<'get_registry'>, options?: RequestOptions): Promise<OutputOf<'get_registry'>>;
  /** GET /v1/me: the account, the key, the quota of the month and the rate limit. */
  me(options?: RequestOptions): Promise<OutputOf<'whoami'>>;
  /** POST /v2/diagnostic: answered only from approved manuals listing the exact model. */
  diagnoseStrict(
    input: InputOf<'diagnose_strict'>,
    options?: RequestOptions,
  ): Promise<OutputOf<'diagnose_strict'>>;
  /** POST /v2/models/resolve: exact name or alias only; a range name stays unresolved. */
  resolveModel(input: InputOf<'resolve_model'>, options?: RequestOptions): Promise<OutputOf<'resolve_model'>>;
  /** GET /v2/models/{model_id}/coverage: the manuals of a model and which are exact sources. */
  getModelCoverage(
    input: InputOf<'get_model_coverage'>,
    options?: RequestOptions,
  ): Promise<OutputOf<'get_model_coverage'>>;
  /** GET /v1/openapi.json: the OpenAPI 3.1 document of the server (needs no key). */
  openapi(options?: RequestOptions): Promise<Record<string, unknown>>;
  /** POST /v2/diagnostic-sessions: starts a guided troubleshooting session (billable). */
  startDiagnosticSession(
    input: InputOf<'start_diagnostic_session'>,
    options?: RequestOptions,
  ): Promise<OutputOf<'start_diagnostic_session'>>;
  /** GET /v2/diagnostic-sessions/{id}: the session as it stands. */
  getDiagnosticSession(
    sessionId: string,
    options?: RequestOptions,
  ): Promise<OutputOf<'get_diagnostic_session'>>;
  /** POST /v2/diagnostic-sessions/{id}/responses: answers the pending `next_action`. */
  respondToDiagnosticSession(
    sessionId: string,
    response: SessionResponseInput,
    options?: RequestOptions,
  ): Promise<OutputOf<'respond_to_diagnostic_session'>>;
  /** POST /v2/diagnostic-sessions/{id}/undo: takes back the last response. */
  undoDiagnosticSession(
    sessionId: string,
    options?: RequestOptions,
  ): Promise<OutputOf<'undo_diagnostic_session'>>;
  /** POST /v2/diagnostic-sessions/{id}/close: closes the session; later responses are refused (409). */
  closeDiagnosticSession(
    sessionId: string,
    options?: RequestOptions,
  ): Promise<OutputOf<'close_diagnostic_session'>>;
  /** GET /v2/diagnostic-sessions/{id}/summary: the path taken, the outcome and every citation. */
  getDiagnosticSessionSummary(
    sessionId: string,
    options?: RequestOptions,
  ): Promise<OutputOf<'get_diagnostic_session_summary'>>;
}

/**
 * One method per operation of the contract: an operation added to the server without its method here
 * fails this check when the SDK is built, and a method whose operation is gone fails it as well.
 */
type MissingMethods = Exclude<MethodName<OperationName>, keyof HeatsourceApi>;
type StrayMethods = Exclude<keyof HeatsourceApi, EndpointName>;
const everyOperationHasAMethod: [MissingMethods, StrayMethods] extends [never, never] ? true : never = true;
void everyOperationHasAMethod;

type Input = Record<string, unknown>;

/** Splits an object input into the endpoint's path parameters and the rest (query for GET, body for POST). */
function callOf(name: EndpointName, input: Input = {}): ApiCall {
  const endpoint: Endpoint = ENDPOINTS[name];
  const names = pathParams(endpoint.path);
  const params: ApiCall['params'] = {};
  const rest: Input = {};
  for (const [key, value] of Object.entries(input)) {
    if (names.includes(key)) params[key] = value as string | number;
    else rest[key] = value;
  }
  for (const key of names) {
    const v = params[key];
    if (v === undefined || v === null || v === '') throw new TypeError(`${name}: "${key}" is required`);
  }
  if (endpoint.method === 'GET') return { name, endpoint, params, query: rest as ApiCall['query'] };
  return { name, endpoint, params, query: {}, body: rest };
}

function sessionCall(name: EndpointName, sessionId: string, body?: Input): ApiCall {
  if (typeof sessionId !== 'string' || sessionId === '')
    throw new TypeError(`${name}: a session id is required`);
  const call = callOf(name, { session_id: sessionId });
  return body === undefined ? call : { ...call, body };
}

/** The API over a transport: the methods are the same whatever carries the calls. */
export function apiOverTransport(transport: Transport): HeatsourceApi {
  const json = async <T>(call: ApiCall, options: RequestOptions = {}): Promise<T> =>
    (await transport(call, options)).body as T;
  return {
    diagnose: (input, o) => json(callOf('diagnose', input), o),
    diagnoseTurn: (input, o) => json(callOf('diagnoseTurn', input), o),
    search: (input, o) => json(callOf('search', input), o),
    getProcedure: (input, o) => json(callOf('getProcedure', input), o),
    getErrorCode: (input, o) => json(callOf('getErrorCode', input), o),
    getProduct: (input, o) => json(callOf('getProduct', input), o),
    async getPdfSnapshot(input, o = {}) {
      const result = await transport(callOf('getPdfSnapshot', input), o);
      if (!result.snapshot) throw new TypeError('getPdfSnapshot: the transport answered no image');
      return result.snapshot;
    },
    async exportOfflinePack(input, o = {}) {
      const result = await transport(callOf('exportOfflinePack', input), o);
      if (!result.file) throw new TypeError('exportOfflinePack: the transport answered no file');
      return result.file;
    },
    getRegistry: (input, o) => json(callOf('getRegistry', input ?? {}), o),
    me: (o) => json(callOf('me'), o),
    diagnoseStrict: (input, o) => json(callOf('diagnoseStrict', input), o),
    resolveModel: (input, o) => json(callOf('resolveModel', input), o),
    getModelCoverage: (input, o) => json(callOf('getModelCoverage', input), o),
    openapi: (o) => json(callOf('openapi'), o),
    startDiagnosticSession: (input, o) => json(callOf('startDiagnosticSession', input), o),
    getDiagnosticSession: (id, o) => json(sessionCall('getDiagnosticSession', id), o),
    respondToDiagnosticSession: (id, response, o) =>
      json(sessionCall('respondToDiagnosticSession', id, response), o),
    undoDiagnosticSession: (id, o) => json(sessionCall('undoDiagnosticSession', id, {}), o),
    closeDiagnosticSession: (id, o) => json(sessionCall('closeDiagnosticSession', id, {}), o),
    getDiagnosticSessionSummary: (id, o) => json(sessionCall('getDiagnosticSessionSummary', id), o),
  };
}
