export { type ApiCall, type ApiResult, apiOverTransport, type HeatsourceApi, type Transport } from './api.js';
export {
  closeDiagnosticSession,
  createClient,
  getDiagnosticSessionSummary,
  respondToDiagnosticSession,
  startDiagnosticSession,
} from './client.js';
export { ENDPOINTS, type Endpoint, type EndpointName, fillPath, pathParams } from './endpoints.js';
export {
  type FieldError,
  HeatsourceError,
  HeatsourceNetworkError,
  HeatsourceTimeoutError,
  isProblem,
} from './errors.js';
export { type ClientOptions, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './http.js';
export { type BackoffOptions, DEFAULT_BACKOFF, parseRetryAfter, randomKey } from './retry.js';
export * as schemas from './schemas.js';
export * from './types.js';
