import type { z } from 'zod';
import { EmptyRequest, MeResponse } from './account.js';
import {
  ErrorCodeRequest,
  ErrorCodeResponse,
  ProcedureRequest,
  ProcedureResponse,
  ProductRequest,
  ProductResponse,
  RegistryRequest,
  RegistryResponse,
  SnapshotMeta,
  SnapshotRequest,
} from './catalog.js';
import {
  DiagnosticRequest,
  DiagnosticResponse,
  DiagnosticTurnRequest,
  DiagnosticTurnResponse,
} from './diagnostic.js';
import {
  ModelCoverageRequest,
  ModelCoverageResponse,
  ResolveModelRequest,
  ResolveModelResponse,
  StrictDiagnosticRequest,
  StrictDiagnosticResponse,
} from './models.js';
import { OfflinePackMeta, OfflinePackRequest } from './offline-pack.js';
import type { ProblemCode } from './problems.js';
import { SearchQuery, SearchResponse } from './search.js';
import { SessionRef, SessionRespondRequest } from './session-requests.js';
import { CreateSessionRequest, Session, SessionSummary } from './sessions.js';

/**
 * One capability of the service, described once: REST routes, MCP tools and the OpenAPI document are
 * all generated from this list, and the same `input` schema validates a REST request and a tool call.
 * For GET the input is the path parameters plus the query string; for POST, the JSON body plus the
 * path parameters.
 */
export interface OperationSpec {
  /** The MCP tool name; also the OpenAPI operationId. */
  name: string;
  method: 'GET' | 'POST';
  /** Fastify-style path: `/v1/procedure/:chunk_id`. */
  path: string;
  summary: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  /**
   * Over HTTP the body is JSON, an image, or a file (an offline pack); for the last two the output schema
   * describes the bytes' metadata, which is what MCP returns.
   */
  response: 'json' | 'image' | 'file';
  /** `per_result`: charged when the result says it is billable; `always`: charged on success. */
  billing: 'none' | 'per_result' | 'always';
  idempotency: 'none' | 'optional' | 'required';
  /** Problem codes this operation answers beyond the ones every authenticated operation can. */
  errors: readonly ProblemCode[];
  /** Status of a success; 200 unless stated. */
  successStatus?: number;
}

/** Problems any authenticated operation can answer. */
export const COMMON_ERRORS: ProblemCode[] = [
  'validation_failed',
  'authentication_required',
  'invalid_api_key',
  'api_key_revoked',
  'rate_limited',
  // While draining, or while the bundle cannot be read (written to in place, damaged).
  'service_unavailable',
  'internal_error',
];

const IDEMPOTENT_POST: ProblemCode[] = [
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'idempotency_key_invalid',
  'idempotency_key_in_use',
  'idempotency_key_reused',
];

/** What answering a session's pending action can run into. */
const SESSION_RESPONSE_ERRORS: ProblemCode[] = [
  'session_not_found',
  'session_closed',
  'session_finished',
  'action_mismatch',
  'invalid_response',
  'session_conflict',
];

/**
 * Keeps each operation's literal name and its schemas' own types (not widened to OperationSpec), so that
 * clients derive their method names, inputs and outputs from this one list (the SDK does).
 */
function defineOperations<const T extends readonly OperationSpec[]>(operations: T): T {
  return operations;
}

export const TYPED_OPERATIONS = defineOperations([
  {
    name: 'diagnose',
    method: 'POST',
    path: '/v1/diagnostic',
    summary: 'Look up an error code for a brand and model',
    description:
      'Answers what an error code means for a heat pump, from the manufacturer manual: a verbatim excerpt, ' +
      'remedy steps and the page citation. States: answer (sourced), ambiguous (the code is documented for ' +
      'other models, or the model is missing: see alternatives and follow_up_questions), unknown_code, ' +
      'out_of_coverage. Model names match exactly, by alias, or by one close name (reported, lower confidence). ' +
      'Billable only when the state is answer.',
    input: DiagnosticRequest,
    output: DiagnosticResponse,
    response: 'json',
    billing: 'per_result',
    idempotency: 'optional',
    errors: [...IDEMPOTENT_POST, 'quota_exceeded'],
  },
  {
    name: 'diagnose_guided',
    method: 'POST',
    path: '/v1/diagnostic/turn',
    summary: 'One turn of a guided troubleshooting conversation',
    description:
      'Guided troubleshooting for Air/Water heat pumps, one turn at a time. Requires an Idempotency-Key. ' +
      'The first turn names brand, model, and the error_code and/or a message describing the symptom; it answers ' +
      'a conversation_id and the next action to carry out. Each later turn sends conversation_id and ' +
      'response {action_id, value} (value null when it cannot be measured) until status is concluded or ' +
      'escalated. The first turn of a conversation is billable; later turns are free.',
    input: DiagnosticTurnRequest,
    output: DiagnosticTurnResponse,
    response: 'json',
    billing: 'per_result',
    idempotency: 'required',
    errors: [
      ...IDEMPOTENT_POST,
      'idempotency_key_required',
      'quota_exceeded',
      ...SESSION_RESPONSE_ERRORS,
      'unsupported_equipment',
      'too_many_open_sessions',
    ],
  },
  {
    name: 'search',
    method: 'GET',
    path: '/v1/search',
    summary: 'Search the manuals in free text',
    description:
      'Full-text search over every manual, with filters by brand, model and language. Each result gives the ' +
      'page where the matched text stands and its citation. Paginated with next_cursor.',
    input: SearchQuery,
    output: SearchResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['service_unavailable'],
  },
  {
    name: 'get_procedure',
    method: 'GET',
    path: '/v1/procedure/:chunk_id',
    summary: 'Read a passage of a manual in full',
    description:
      "Returns a chunk of a manual (usually an error code's detailed procedure, as cited by a diagnostic) " +
      'with its section path, pages and citation.',
    input: ProcedureRequest,
    output: ProcedureResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['chunk_not_found'],
  },
  {
    name: 'get_error_code',
    method: 'GET',
    path: '/v1/error-codes/:brand/:code',
    summary: 'Every manual of a brand that documents a code',
    description:
      'Lists, for one brand, each manual documenting the code: meaning, causes, steps, verbatim excerpt, ' +
      'models the manual covers and citations. Use it to compare models; use diagnose for one model.',
    input: ErrorCodeRequest,
    output: ErrorCodeResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['brand_not_found', 'error_code_not_found'],
  },
  {
    name: 'get_product',
    method: 'GET',
    path: '/v1/products/:brand/:model',
    summary: 'A model and its manuals',
    description:
      'Resolves a model (exact name, alias, or one close name) and lists the manuals that cover it.',
    input: ProductRequest,
    output: ProductResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['brand_not_found', 'model_not_found', 'range_name'],
  },
  {
    name: 'get_pdf_snapshot',
    method: 'GET',
    path: '/v1/pdf-snapshot/:document_id/:page',
    summary: 'Image of a manual page',
    description:
      'The rendered page a citation points to: image/webp, or image/png when asked (Accept header or format). ' +
      '`width` narrows it (100 to 2000 pixels). Immutable: cache it.',
    input: SnapshotRequest,
    output: SnapshotMeta,
    response: 'image',
    billing: 'none',
    idempotency: 'none',
    errors: ['document_not_found', 'page_not_found', 'snapshot_not_available', 'not_acceptable'],
  },
  {
    name: 'export_offline_pack',
    method: 'GET',
    path: '/v1/offline-pack',
    summary: 'The manuals of some brands or models, as one file to keep offline',
    description:
      'A SQLite file in the bundle format holding the chosen manuals: their catalogue (brands, models, ' +
      'aliases), error codes, excerpts, chunks, search index and page images, cut from the bundle served ' +
      'now (its corpus hash and date are in the file and in the metadata). Clients answer from it with the ' +
      'same engine as the server, with no network. Not billable: answers read from a pack are not metered. ' +
      'A pack is at most 256 MiB (offline_pack_too_large beyond). Send the ETag as If-None-Match to update: ' +
      '304 while the bundle has not changed. Over MCP the tool returns the metadata only.',
    input: OfflinePackRequest,
    output: OfflinePackMeta,
    response: 'file',
    billing: 'none',
    idempotency: 'none',
    errors: ['brand_not_found', 'model_not_found', 'offline_pack_too_large'],
  },
  {
    name: 'get_registry',
    method: 'GET',
    path: '/v1/registry',
    summary: 'What the corpus covers',
    description:
      'Brands with their aliases, models, manuals and number of documented codes, plus totals and the ' +
      'bundle version. Paginated by brand with next_cursor.',
    input: RegistryRequest,
    output: RegistryResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: [],
  },
  {
    name: 'whoami',
    method: 'GET',
    path: '/v1/me',
    summary: 'The calling account, key and quota',
    description:
      'Account, key prefix and mode, quota used and remaining in the current period, and rate limit.',
    input: EmptyRequest,
    output: MeResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: [],
  },
  {
    name: 'diagnose_strict',
    method: 'POST',
    path: '/v2/diagnostic',
    summary: 'Look up an error code from the exact model manual only',
    description:
      'Answers only from approved manuals that list the exact model (or an alias): status exact_source with ' +
      'the diagnostic; no_exact_source when no such manual exists (diagnostic null, not billable); ' +
      'code_not_in_source when the exact manual does not document the code (not billable). Never fuzzy.',
    input: StrictDiagnosticRequest,
    output: StrictDiagnosticResponse,
    response: 'json',
    billing: 'per_result',
    idempotency: 'optional',
    errors: [...IDEMPOTENT_POST, 'quota_exceeded'],
  },
  {
    name: 'resolve_model',
    method: 'POST',
    path: '/v2/models/resolve',
    summary: 'Resolve a model name strictly',
    description:
      'Exact name or alias only (case, spaces and hyphens ignored). A range name does not resolve: the answer ' +
      'is unresolved with reason range_name and the range models as candidates. brand is optional: without ' +
      'it, a name that one model of the corpus has resolves, and one that several models use is unresolved ' +
      'with reason ambiguous_model and those models as candidates.',
    input: ResolveModelRequest,
    output: ResolveModelResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'optional',
    errors: IDEMPOTENT_POST,
  },
  {
    name: 'get_model_coverage',
    method: 'GET',
    path: '/v2/models/:model_id/coverage',
    summary: 'What the corpus holds for one model',
    description:
      'The manuals covering a model (model_id from resolve_model), which are exact sources for strict ' +
      'answers, and how many codes they document.',
    input: ModelCoverageRequest,
    output: ModelCoverageResponse,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['model_not_found'],
  },
  {
    name: 'start_diagnostic_session',
    method: 'POST',
    path: '/v2/diagnostic-sessions',
    summary: 'Start a guided troubleshooting session',
    description:
      'Starts a session for a heat pump (brand, model; equipment air_water or air_air is taken from the ' +
      'model, and needed only for a model the corpus lacks) with an error_code and/or a symptom ' +
      'description, and readings already taken. The session keeps hypotheses with ' +
      "probabilities (the manual's causes for the code carry their page citations) and asks one cheap, " +
      'discriminating action at a time: next_action says what to do and the answer it expects (boolean, ' +
      'number with unit and nominal range, or a choice). One billable unit; every later call on the ' +
      'session is free. Beta.',
    input: CreateSessionRequest,
    output: Session,
    response: 'json',
    billing: 'always',
    idempotency: 'optional',
    errors: [...IDEMPOTENT_POST, 'quota_exceeded', 'invalid_response', 'too_many_open_sessions'],
    successStatus: 201,
  },
  {
    name: 'get_diagnostic_session',
    method: 'GET',
    path: '/v2/diagnostic-sessions/:session_id',
    summary: 'Read a guided troubleshooting session',
    description:
      'The session as it stands: status (active, concluded, escalated, closed), hypotheses, next_action, ' +
      'history and outcome. Only the account that started it can read it.',
    input: SessionRef,
    output: Session,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['session_not_found'],
  },
  {
    name: 'respond_to_diagnostic_session',
    method: 'POST',
    path: '/v2/diagnostic-sessions/:session_id/responses',
    summary: 'Answer the pending action of a session',
    description:
      'Records the answer to next_action: {action_id, value} with the value typed as next_action.expected ' +
      'says (a choice is answered by its id), or {action_id, unknown: true} when it cannot be observed or ' +
      'measured, which is not taken as evidence. Answers the updated session. Free. A closed session ' +
      'refuses answers (409 session_closed), as does a concluded one (session_finished); another action ' +
      'id is 409 action_mismatch, a value of the wrong type 422 invalid_response.',
    input: SessionRespondRequest,
    output: Session,
    response: 'json',
    billing: 'none',
    idempotency: 'optional',
    errors: [...IDEMPOTENT_POST, ...SESSION_RESPONSE_ERRORS],
  },
  {
    name: 'undo_diagnostic_session',
    method: 'POST',
    path: '/v2/diagnostic-sessions/:session_id/undo',
    summary: 'Take back the last answer of a session',
    description:
      'Removes the last answer and replays the session without it; a concluded or escalated session ' +
      'becomes active again. Free.',
    input: SessionRef,
    output: Session,
    response: 'json',
    billing: 'none',
    idempotency: 'optional',
    errors: [
      ...IDEMPOTENT_POST,
      'session_not_found',
      'session_closed',
      'nothing_to_undo',
      'session_conflict',
    ],
  },
  {
    name: 'close_diagnostic_session',
    method: 'POST',
    path: '/v2/diagnostic-sessions/:session_id/close',
    summary: 'Close a guided troubleshooting session',
    description:
      'Closes the session: it takes no more answers. An active session gets the outcome its beliefs support ' +
      '(the remaining repairs by probability over cost). Closing a closed session changes nothing. Free.',
    input: SessionRef,
    output: Session,
    response: 'json',
    billing: 'none',
    idempotency: 'optional',
    errors: [...IDEMPOTENT_POST, 'session_not_found', 'session_conflict'],
  },
  {
    name: 'get_diagnostic_session_summary',
    method: 'GET',
    path: '/v2/diagnostic-sessions/:session_id/summary',
    summary: 'The path, outcome and citations of a session',
    description:
      'For the report of an intervention: every action taken with its answer and the leading hypothesis ' +
      'after it, the outcome, and every manual page cited along the way.',
    input: SessionRef,
    output: SessionSummary,
    response: 'json',
    billing: 'none',
    idempotency: 'none',
    errors: ['session_not_found'],
  },
]);

/** Every operation, as adapters iterate them. */
export const OPERATIONS: OperationSpec[] = [...TYPED_OPERATIONS];

export function operation(name: string): OperationSpec {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
}

/** The operations, one type per operation, with its literal name and its schemas. */
export type Operation = (typeof TYPED_OPERATIONS)[number];
/** An operation's name. */
export type OperationName = Operation['name'];
/** The operation of a name, as a type. */
export type OperationNamed<N extends OperationName> = Extract<Operation, { name: N }>;
