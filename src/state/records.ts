/**
 * The records the state layer stores and returns, and the errors its writes raise: plain data, importing
 * only account.ts, so that every file of the layer can name them without an import cycle.
 */
import type { Account } from './account.js';

export type KeyMode = 'live' | 'test';

export type { Account } from './account.js';

export interface ApiKey {
  id: string;
  account_id: string;
  /** The first characters of the key, safe to show: `ak_live_Xy12ab`. */
  prefix: string;
  mode: KeyMode;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** A key together with its account, as authentication yields it. */
export interface Principal {
  account: Account;
  key: ApiKey;
}

export interface QuotaStatus {
  limit: number | null;
  used: number;
  remaining: number | null;
  period: string;
  period_start: string;
  resets_at: string;
}

export interface LedgerEntry {
  id: number;
  account_id: string;
  key_id: string | null;
  operation: string;
  units: number;
  period: string;
  request_id: string;
  idempotency_key: string | null;
  created_at: string;
}

export interface UsageSummary {
  account: Account;
  quota: QuotaStatus;
  by_operation: { operation: string; units: number }[];
}

/** What starting an idempotent request found. */
export type IdempotencyBegin =
  | { kind: 'started' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' };

export interface IdempotencyRef {
  /** The API key (or, without keys, the account) the Idempotency-Key belongs to. */
  scope: string;
  key: string;
}

export interface ChargeInput {
  account_id: string;
  key_id: string | null;
  operation: string;
  request_id: string;
  idempotency_key: string | null;
}

/** Success, or the quota that refused the charge. */
export type CompleteOutcome = { ok: true } | { ok: false; quota: QuotaStatus };

export interface CreateAccountInput {
  name: string;
  quota_limit?: number | null;
  rate_limit_per_minute?: number | null;
}

export interface CreatedKey {
  key: ApiKey;
  /** The full key: shown once, never stored. */
  secret: string;
}

/** A guided troubleshooting session as stored: the engine's state as JSON, owned by one account. */
export interface SessionRecord {
  id: string;
  account_id: string;
  status: string;
  equipment: string;
  /** Starts at 1; each write adds one. */
  version: number;
  /** JSON of the part of the session fixed at creation (its compiled model). */
  model: string;
  /** JSON of the rest: answers, beliefs, next action, outcome. */
  state: string;
  created_at: string;
  updated_at: string;
}

/** A session to insert (`expected_version` null, `model` given) or to update from the version read. */
export interface SessionWrite {
  id: string;
  account_id: string;
  status: string;
  equipment: string;
  expected_version: number | null;
  model?: string;
  state: string;
  /** The API key starting the session (insert only); null or absent without keys. */
  key_id?: string | null;
  /** At most this many open (not closed) sessions per key, the new one included (insert only). */
  open_limit?: number;
  /**
   * Sessions whose models share a label (the knowledge version they were compiled from) store one copy
   * of a model under it and each only what differs (insert only; without it the full model is stored).
   */
  model_label?: string;
}

/** The session was written by someone else since it was read (or its id is taken): read it again. */
export class SessionConflictError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} changed since it was read`);
    this.name = 'SessionConflictError';
  }
}

/** Starting one more session would take its key past the open sessions allowed: close one first. */
export class OpenSessionLimitError extends Error {
  constructor(readonly limit: number) {
    super(`this API key has ${limit} open sessions, the most allowed`);
    this.name = 'OpenSessionLimitError';
  }
}

/**
 * The idempotency record was completed meanwhile by another request that took over its lease: the charge
 * of this one was rolled back, and the stored response is the one to return.
 */
export class IdempotencyCompletedError extends Error {
  constructor(readonly ref: IdempotencyRef) {
    super(`the request with Idempotency-Key ${ref.key} was completed by another request`);
    this.name = 'IdempotencyCompletedError';
  }
}
