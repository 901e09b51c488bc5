import type { HolderStore } from './holders.js';
import type { RateLimiter } from './rate-limit.js';
import type {
  Account,
  ApiKey,
  CompleteOutcome,
  CreateAccountInput,
  CreatedKey,
  IdempotencyBegin,
  IdempotencyRef,
  KeyMode,
  LedgerEntry,
  QuotaStatus,
  SessionRecord,
  UsageSummary,
} from './records.js';
import type {
  AccountStore,
  CompleteInput,
  IdempotencyStore,
  SessionStore,
  StateStore,
  UsageStore,
} from './types.js';

/**
 * What both stores share: StateStore answered by its aggregates, one part per aggregate and dialect
 * (src/state/sqlite/, src/state/pg/). A store opens its database, builds the parts over it, and adds
 * only what depends on the dialect: ping, close, the batched completions and the rate-limit windows.
 */
export abstract class ComposedStateStore implements StateStore {
  protected abstract readonly accountKeys: AccountStore;
  protected abstract readonly usageLedger: UsageStore;
  protected abstract readonly idempotency: IdempotencyStore;
  protected abstract readonly diagnosticSessions: SessionStore;

  abstract readonly accountHolders: HolderStore;
  abstract ping(): Promise<void>;
  abstract close(): Promise<void>;
  abstract complete(input: CompleteInput): Promise<CompleteOutcome>;
  abstract rateLimiter(): RateLimiter;

  createAccount(input: CreateAccountInput): Promise<Account> {
    return this.accountKeys.createAccount(input);
  }
  account(id: string): Promise<Account | undefined> {
    return this.accountKeys.account(id);
  }
  accountByName(name: string): Promise<Account | undefined> {
    return this.accountKeys.accountByName(name);
  }
  accounts(): Promise<Account[]> {
    return this.accountKeys.accounts();
  }
  updateAccount(
    id: string,
    changes: { quota_limit?: number | null; rate_limit_per_minute?: number | null },
  ): Promise<Account> {
    return this.accountKeys.updateAccount(id, changes);
  }
  createKey(accountId: string, mode: KeyMode, label: string | null = null): Promise<CreatedKey> {
    return this.accountKeys.createKey(accountId, mode, label);
  }
  authenticate(secret: string, connection?: object): ReturnType<AccountStore['authenticate']> {
    return this.accountKeys.authenticate(secret, connection);
  }
  keys(accountId?: string): Promise<ApiKey[]> {
    return this.accountKeys.keys(accountId);
  }
  revokeKey(idOrPrefix: string): Promise<ApiKey | undefined> {
    return this.accountKeys.revokeKey(idOrPrefix);
  }

  quota(accountId: string): Promise<QuotaStatus> {
    return this.usageLedger.quota(accountId);
  }
  ledger(options?: { account_id?: string; period?: string; limit?: number }): Promise<LedgerEntry[]> {
    return this.usageLedger.ledger(options);
  }
  usage(accountId: string, period?: string): Promise<UsageSummary> {
    return this.usageLedger.usage(accountId, period);
  }

  beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin> {
    return this.idempotency.beginIdempotent(ref, fingerprint);
  }
  abandonIdempotent(ref: IdempotencyRef): Promise<void> {
    return this.idempotency.abandonIdempotent(ref);
  }
  reclaimAbandonedIdempotency(): Promise<number> {
    return this.idempotency.reclaimAbandonedIdempotency();
  }
  purgeExpiredIdempotency(): Promise<number> {
    return this.idempotency.purgeExpiredIdempotency();
  }

  session(id: string): Promise<SessionRecord | undefined> {
    return this.diagnosticSessions.session(id);
  }
  sessions(accountId: string, options?: { limit?: number }): Promise<Omit<SessionRecord, 'model'>[]> {
    return this.diagnosticSessions.sessions(accountId, options);
  }
  purgeExpiredSessions(): Promise<number> {
    return this.diagnosticSessions.purgeExpiredSessions();
  }
}
