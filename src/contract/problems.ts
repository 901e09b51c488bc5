/**
 * Every stable problem code the API answers with, its HTTP status and its title. Clients branch on
 * `code`; `title` is the same for every occurrence of a code, `detail` explains the occurrence.
 */
export const PROBLEMS = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  malformed_json: { status: 400, title: 'The body is not valid JSON' },
  malformed_request: { status: 400, title: 'The HTTP request could not be read' },
  idempotency_key_required: { status: 400, title: 'This operation needs an Idempotency-Key header' },
  idempotency_key_invalid: { status: 400, title: 'The Idempotency-Key header is not valid' },
  authentication_required: { status: 401, title: 'An API key is required' },
  invalid_api_key: { status: 401, title: 'The API key is not valid' },
  api_key_revoked: { status: 401, title: 'The API key has been revoked' },
  host_not_allowed: { status: 403, title: 'Without API keys this server answers only loopback hosts' },
  not_found: { status: 404, title: 'No such resource' },
  brand_not_found: { status: 404, title: 'The corpus has no manual of this brand' },
  model_not_found: { status: 404, title: 'The corpus has no such model' },
  range_name: { status: 404, title: 'This is a range name, not a model' },
  error_code_not_found: { status: 404, title: 'No manual of this brand documents this code' },
  chunk_not_found: { status: 404, title: 'No such chunk' },
  document_not_found: { status: 404, title: 'No such document' },
  page_not_found: { status: 404, title: 'The document has no such page' },
  snapshot_not_available: { status: 404, title: 'The bundle holds no snapshot of this page' },
  session_not_found: { status: 404, title: 'No such diagnostic session' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'No acceptable representation' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is still in progress' },
  session_closed: { status: 409, title: 'The session is closed' },
  session_finished: { status: 409, title: 'The session has concluded or escalated: no action is pending' },
  action_mismatch: { status: 409, title: 'The response does not answer the pending action' },
  nothing_to_undo: { status: 409, title: 'The session has no answer to undo' },
  session_conflict: { status: 409, title: 'The session changed meanwhile: read it again' },
  too_many_open_sessions: { status: 409, title: 'This API key has as many open sessions as allowed' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  unsupported_media_type: { status: 415, title: 'The body must be application/json' },
  headers_too_large: { status: 431, title: 'The request headers are too large' },
  idempotency_key_reused: { status: 422, title: 'This Idempotency-Key was used with a different request' },
  invalid_response: { status: 422, title: "The value does not fit the action's expected response" },
  offline_pack_too_large: {
    status: 422,
    title: 'The offline pack of this selection is larger than the server builds',
  },
  unsupported_equipment: { status: 422, title: 'This operation does not serve this kind of equipment' },
  quota_exceeded: { status: 429, title: 'The quota of this period is spent' },
  rate_limited: { status: 429, title: 'Too many requests' },
  internal_error: { status: 500, title: 'Internal error' },
  not_implemented: { status: 501, title: 'Not implemented yet' },
  service_unavailable: { status: 503, title: 'The service is not available' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;

export function problemType(code: string): string {
  return `urn:heatsource:problem:${code}`;
}
