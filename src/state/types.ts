import type { HolderStore } from './holders.js';

/**
 * The state store: accounts, API keys, the usage ledger with per-period quota, and idempotency records.
 * Every method is asynchronous so that a networked store (PostgreSQL) can implement the same interface as
 * the embedded SQLite one.
 */

import type { RateLimiter } from './rate-limit.js';

export type KeyMode = 'live' | 'test';

import type { Account } from './account.js';

export type { Account };

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
}

/** The session was written by someone else since it was read (or its id is taken): read it again. */
export class SessionConflictError extends Error {
  constructor(readonly sessionId: string) {
    super(`session ${sessionId} changed since it was read`);
    this.name = 'SessionConflictError';
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

export interface StateStore {
  /** The account holders of the web console: invitations, passwords, console sessions, sign-in failures. */
  readonly accountHolders: HolderStore;
  /** Fails when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;

  createAccount(input: CreateAccountInput): Promise<Account>;
  account(id: string): Promise<Account | undefined>;
  accountByName(name: string): Promise<Account | undefined>;
  accounts(): Promise<Account[]>;
  updateAccount(
    id: string,
    changes: { quota_limit?: number | null; rate_limit_per_minute?: number | null },
  ): Promise<Account>;

  createKey(accountId: string, mode: KeyMode, label?: string | null): Promise<CreatedKey>;
  /** The principal of a key given as presented by a client, or why it is refused. */
  authenticate(
    secret: string,
  ): Promise<{ ok: true; principal: Principal } | { ok: false; reason: 'invalid' | 'revoked' }>;
  keys(accountId?: string): Promise<ApiKey[]>;
  /** Revokes a key by id or by its full prefix; returns the revoked key, or undefined when none matches. */
  revokeKey(idOrPrefix: string): Promise<ApiKey | undefined>;

  quota(accountId: string): Promise<QuotaStatus>;
  ledger(options?: { account_id?: string; period?: string; limit?: number }): Promise<LedgerEntry[]>;
  usage(accountId: string, period?: string): Promise<UsageSummary>;

  beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin>;
  /**
   * Finishes a request in one transaction: charges one unit when `charge` is given (refusing when the
   * quota is spent, however many processes charge the account at once) and stores the response for
   * replay when `idempotency` is given. The record must still be in flight: when another request
   * completed it meanwhile, nothing is written and IdempotencyCompletedError is thrown.
   */
  complete(input: {
    charge?: ChargeInput;
    idempotency?: IdempotencyRef & { status: number; body: string };
    /**
     * A session written in the same transaction, only when the charge (if any) is accepted. A version
     * that no longer matches rejects the whole completion with SessionConflictError.
     */
    session?: SessionWrite;
  }): Promise<CompleteOutcome>;
  /** Forgets an in-flight record so that the request can be retried with the same key. */
  abandonIdempotent(ref: IdempotencyRef): Promise<void>;
  purgeExpiredIdempotency(): Promise<number>;
  /** Deletes the guided sessions not written to for SESSION_TTL_MS; returns how many. */
  purgeExpiredSessions(): Promise<number>;
  /**
   * Releases the in-flight Idempotency-Keys held by server processes that no longer run (killed mid-request),
   * so that a retry after a restart is served at once instead of answered `idempotency_key_in_use` until
   * the lease expires. Returns how many were released. A store that cannot tell (owners on other machines)
   * leaves them to the lease.
   */
  reclaimAbandonedIdempotency(): Promise<number>;

  session(id: string): Promise<SessionRecord | undefined>;
  /** An account's sessions, most recently changed first, without their models. */
  sessions(accountId: string, options?: { limit?: number }): Promise<Omit<SessionRecord, 'model'>[]>;

  /** Per-key request counters kept in the store, so that every process sharing it counts together. */
  rateLimiter(): RateLimiter;
}
