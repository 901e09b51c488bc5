import type { HolderStore } from './holders.js';
import type { RateLimiter } from './rate-limit.js';
import type {
  Account,
  ApiKey,
  ChargeInput,
  CompleteOutcome,
  CreateAccountInput,
  CreatedKey,
  IdempotencyBegin,
  IdempotencyRef,
  KeyMode,
  LedgerEntry,
  Principal,
  QuotaStatus,
  SessionRecord,
  SessionWrite,
  UsageSummary,
} from './records.js';

export * from './records.js';

/**
 * The state store: accounts, API keys, the usage ledger with per-period quota, idempotency records,
 * guided sessions and the console's account holders. One interface per aggregate, each implemented once
 * per dialect (src/state/sqlite/, src/state/pg/) and composed by the store of that dialect
 * (sqlite-store.ts, pg-store.ts). Every method is asynchronous so that a networked store (PostgreSQL)
 * can implement the same interface as the embedded SQLite one.
 */

/** Accounts and their API keys. */
export interface AccountStore {
  createAccount(input: CreateAccountInput): Promise<Account>;
  account(id: string): Promise<Account | undefined>;
  accountByName(name: string): Promise<Account | undefined>;
  accounts(): Promise<Account[]>;
  updateAccount(
    id: string,
    changes: { quota_limit?: number | null; rate_limit_per_minute?: number | null },
  ): Promise<Account>;

  createKey(accountId: string, mode: KeyMode, label?: string | null): Promise<CreatedKey>;
  /**
   * The principal of a key given as presented by a client, or why it is refused. `connection` (the
   * client's socket) lets a key presented again over the same connection be recognised without hashing.
   */
  authenticate(
    secret: string,
    connection?: object,
  ): Promise<{ ok: true; principal: Principal } | { ok: false; reason: 'invalid' | 'revoked' }>;
  keys(accountId?: string): Promise<ApiKey[]>;
  /** Revokes a key by id or by its full prefix; returns the revoked key, or undefined when none matches. */
  revokeKey(idOrPrefix: string): Promise<ApiKey | undefined>;
}

/** The usage ledger and the quota it counts against (charges are written by StateStore.complete). */
export interface UsageStore {
  quota(accountId: string): Promise<QuotaStatus>;
  ledger(options?: { account_id?: string; period?: string; limit?: number }): Promise<LedgerEntry[]>;
  usage(accountId: string, period?: string): Promise<UsageSummary>;
}

/** Idempotency records (completed by StateStore.complete). */
export interface IdempotencyStore {
  beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin>;
  /** Forgets an in-flight record so that the request can be retried with the same key. */
  abandonIdempotent(ref: IdempotencyRef): Promise<void>;
  purgeExpiredIdempotency(): Promise<number>;
  /**
   * Releases the in-flight Idempotency-Keys held by server processes that no longer run (killed mid-request),
   * so that a retry after a restart is served at once instead of answered `idempotency_key_in_use` until
   * the lease expires. Returns how many were released. A store that cannot tell (owners on other machines)
   * leaves them to the lease.
   */
  reclaimAbandonedIdempotency(): Promise<number>;
}

/** Guided troubleshooting sessions (written by StateStore.complete). */
export interface SessionStore {
  session(id: string): Promise<SessionRecord | undefined>;
  /** An account's sessions, most recently changed first, without their models. */
  sessions(accountId: string, options?: { limit?: number }): Promise<Omit<SessionRecord, 'model'>[]>;
  /** Deletes the guided sessions not written to for SESSION_TTL_MS; returns how many. */
  purgeExpiredSessions(): Promise<number>;
}

/** What one request writes when it finishes, in one transaction. */
export interface CompleteInput {
  charge?: ChargeInput;
  idempotency?: IdempotencyRef & { status: number; body: string };
  /**
   * A session written in the same transaction, only when the charge (if any) is accepted. A version
   * that no longer matches rejects the whole completion with SessionConflictError.
   */
  session?: SessionWrite;
}

export interface StateStore extends AccountStore, UsageStore, IdempotencyStore, SessionStore {
  /** The account holders of the web console: invitations, passwords, console sessions, sign-in failures. */
  readonly accountHolders: HolderStore;
  /** Fails when the store cannot be reached. */
  ping(): Promise<void>;
  close(): Promise<void>;

  /**
   * Finishes a request in one transaction: charges one unit when `charge` is given (refusing when the
   * quota is spent, however many processes charge the account at once) and stores the response for
   * replay when `idempotency` is given. The record must still be in flight: when another request
   * completed it meanwhile, nothing is written and IdempotencyCompletedError is thrown.
   */
  complete(input: CompleteInput): Promise<CompleteOutcome>;

  /** Per-key request counters kept in the store, so that every process sharing it counts together. */
  rateLimiter(): RateLimiter;
}
