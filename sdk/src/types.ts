/**
 * Request and response types of every endpoint, inferred from the server's own zod contract through its
 * list of operations. Inputs use the schema's input side (defaults optional), outputs its output side
 * (what the server sends).
 */
import type { InputOf } from './endpoints.js';

export type { MeResponse } from './contract/account.js';
export type {
  ErrorCodeEntry,
  ErrorCodeResponse,
  ProcedureResponse,
  ProductResponse,
  RegistryResponse,
  SnapshotMeta,
} from './contract/catalog.js';
export type { Citation, Problem } from './contract/common.js';
export type {
  Alternative,
  Confidence,
  DiagnosticResponse,
  DiagnosticState,
  DiagnosticTurnResponse,
  Excerpt,
  FollowUpQuestion,
  Part,
  Step,
} from './contract/diagnostic.js';
export type { DocumentSummary, MatchKind, ModelMatch, ModelSummary } from './contract/documents.js';
export type {
  ModelCoverageResponse,
  ResolveModelResponse,
  StrictDiagnosticResponse,
  StrictModelMatch,
  StrictStatus,
  UnresolvedReason,
} from './contract/models.js';
export type { ProblemCode } from './contract/problems.js';
export type { SearchResponse, SearchResult } from './contract/search.js';
export type {
  ExpectedResponse,
  NextAction,
  ResponseValue,
  Session,
  SessionEquipment,
  SessionHistoryEntry,
  SessionHypothesis,
  SessionOutcome,
  SessionStatus,
  SessionSummary,
} from './contract/sessions.js';

export type DiagnoseInput = InputOf<'diagnose'>;
export type DiagnoseTurnInput = InputOf<'diagnose_guided'>;
export type SearchInput = InputOf<'search'>;
export type ProcedureInput = InputOf<'get_procedure'>;
export type ErrorCodeInput = InputOf<'get_error_code'>;
export type ProductInput = InputOf<'get_product'>;
export type SnapshotInput = InputOf<'get_pdf_snapshot'>;
export type OfflinePackInput = InputOf<'export_offline_pack'>;
export type RegistryInput = InputOf<'get_registry'>;
export type MeInput = InputOf<'whoami'>;
export type StrictDiagnoseInput = InputOf<'diagnose_strict'>;
export type ResolveModelInput = InputOf<'resolve_model'>;
export type ModelCoverageInput = InputOf<'get_model_coverage'>;
export type StartSessionInput = InputOf<'start_diagnostic_session'>;
/**
 * An answer to the pending action: `{ action_id, value }`, or `{ action_id, unknown: true }` when it cannot
 * be observed or measured (the session id travels in the path).
 */
export type SessionResponseInput = Omit<InputOf<'respond_to_diagnostic_session'>, 'session_id'>;

/** A page image as served: the bytes and what they are. */
export interface Snapshot {
  data: Uint8Array;
  contentType: string;
  etag: string | null;
}

/** An offline pack as served: a SQLite file of the chosen manuals, and its ETag for updates. */
export interface OfflinePackFile {
  data: Uint8Array;
  contentType: string;
  etag: string | null;
}

/** Per-call options. */
export interface RequestOptions {
  /** Aborts the call, retries and waits included; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** For POSTs: the key under which the server stores the result; generated when omitted. */
  idempotencyKey?: string;
  /** Overrides the client's timeout for each attempt of this call. */
  timeoutMs?: number;
  /** Overrides the client's number of retries for this call. */
  retries?: number;
}
