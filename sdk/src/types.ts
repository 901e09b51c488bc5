/**
 * Request and response types of every endpoint, inferred from the server's own zod contract. Inputs use
 * the schema's input side (defaults optional), outputs its output side (what the server sends).
 */
import type { z } from 'zod';
import type { EmptyRequest } from './contract/account.js';
import type {
  ErrorCodeRequest,
  ProcedureRequest,
  ProductRequest,
  RegistryRequest,
  SnapshotRequest,
} from './contract/catalog.js';
import type { DiagnosticRequest, DiagnosticTurnRequest } from './contract/diagnostic.js';
import type {
  ModelCoverageRequest,
  ResolveModelRequest,
  StrictDiagnosticRequest,
} from './contract/models.js';
import type { SearchQuery } from './contract/search.js';
import type { SessionRespondRequest } from './contract/session-requests.js';
import type { CreateSessionRequest } from './contract/sessions.js';

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

export type DiagnoseInput = z.input<typeof DiagnosticRequest>;
export type DiagnoseTurnInput = z.input<typeof DiagnosticTurnRequest>;
export type SearchInput = z.input<typeof SearchQuery>;
export type ProcedureInput = z.input<typeof ProcedureRequest>;
export type ErrorCodeInput = z.input<typeof ErrorCodeRequest>;
export type ProductInput = z.input<typeof ProductRequest>;
export type SnapshotInput = z.input<typeof SnapshotRequest>;
export type RegistryInput = z.input<typeof RegistryRequest>;
export type MeInput = z.input<typeof EmptyRequest>;
export type StrictDiagnoseInput = z.input<typeof StrictDiagnosticRequest>;
export type ResolveModelInput = z.input<typeof ResolveModelRequest>;
export type ModelCoverageInput = z.input<typeof ModelCoverageRequest>;
export type StartSessionInput = z.input<typeof CreateSessionRequest>;
/**
 * An answer to the pending action: `{ action_id, value }`, or `{ action_id, unknown: true }` when it cannot
 * be observed or measured (the session id travels in the path).
 */
export type SessionResponseInput = Omit<z.input<typeof SessionRespondRequest>, 'session_id'>;

/** A page image as served: the bytes and what they are. */
export interface Snapshot {
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
