import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AuthCache, type AuthResult, keyVerdict } from './auth-cache.js';
import type { HolderStore } from './holders.js';
import { generateSecret, hashSecret, keyPrefix, looksLikeKey, newId } from './keys.js';
import { migrateSqlite } from './migrate.js';
import type { Migration } from './migrations.js';
import { periodOf } from './period.js';
import { ownerGone, processOwner } from './process-owner.js';
import {
  DEFAULT_RATE_LIMIT,
  IDEMPOTENCY_TTL_MS,
  IN_FLIGHT_LEASE_MS,
  publicKey,
  quotaStatus,
  SESSION_TTL_MS,
} from './quota.js';
import { type RateLimiter, rateDecision, rateWindowSql } from './rate-limit.js';
import { SqliteHolders } from './sqlite-holders.js';
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
  SessionWrite,
  StateStore,
  UsageSummary,
} from './types.js';
import { IdempotencyCompletedError, SessionConflictError } from './types.js';

export { DEFAULT_RATE_LIMIT, IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS };

/** How long an authentication result is reused. Revocation by any process clears it within a poll. */
const AUTH_CACHE_MS = 5_000;
/** How often the change stamp is read: the bound on seeing a revocation made by another process. */
const CHANGES_POLL_MS = 250;

export interface SqliteStateOptions {
  /** Milliseconds since the epoch; tests move time. */
  now?: () => number;
  migrations?: Migration[];
  /** Who holds the in-flight idempotency records this store writes; this process by default. */
  owner?: string;
}

type CompleteInput = Parameters<StateStore['complete']>[0];

interface KeyRow extends ApiKey {
  hash: Buffer;
}

interface IdempotencyRow {
  fingerprint: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
  owner: string | null;
}

/** The embedded state store: one SQLite file in WAL mode, every statement prepared once. */
export class SqliteStateStore implements StateStore {
  readonly db: Database.Database;
  private readonly now: () => number;
  private readonly auth: AuthCache;
  private changesPoll?: NodeJS.Timeout;
  private lastStamp = 0;
  private readonly owner: string;
  private readonly pending: {
    input: CompleteInput;
    resolve: (o: CompleteOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private readonly completeGroup;
  private readonly s;
  private sessionStatements?: ReturnType<SqliteStateStore['prepareSessionStatements']>;
  private holderStatements?: SqliteHolders;

  constructor(
    readonly file: string,
    options: SqliteStateOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.auth = new AuthCache(this.now);
    this.owner = options.owner ?? processOwner();
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL survives a process crash; only an OS crash can lose the last commits.
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    // Checkpoints copy the WAL back into the database and fsync: rarer, larger ones keep them out of
    // most requests' way (the WAL grows to about 40 MB before one).
    this.db.pragma('wal_autocheckpoint = 10000');
    this.db.pragma('journal_size_limit = 67108864');
    this.db.pragma('foreign_keys = ON');
    migrateSqlite(this.db, options.migrations);
    const db = this.db;
    this.s = {
      ping: db.prepare('SELECT 1'),
      insertAccount: db.prepare(
        'INSERT INTO accounts (id, name, quota_limit, quota_period, rate_limit_per_minute, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      account: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      accountByName: db.prepare('SELECT * FROM accounts WHERE name = ?'),
      accounts: db.prepare('SELECT * FROM accounts ORDER BY created_at, name'),
      insertKey: db.prepare(
        'INSERT INTO api_keys (id, account_id, prefix, hash, mode, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      keyByHash: db.prepare('SELECT * FROM api_keys WHERE hash = ?'),
      keyById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      keysByPrefix: db.prepare('SELECT * FROM api_keys WHERE prefix = ?'),
      keys: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      keysOf: db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id'),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      touchKey: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      counter: db.prepare(
        'SELECT coalesce(sum(used), 0) AS used FROM usage_counters WHERE account_id = ? AND period = ?',
      ),
      bumpCounter: db.prepare(
        `INSERT INTO usage_counters (account_id, period, operation, used) VALUES (?, ?, ?, 1)
         ON CONFLICT (account_id, period, operation) DO UPDATE SET used = used + 1`,
      ),
      insertLedger: db.prepare(
        `INSERT INTO usage_ledger (account_id, key_id, operation, units, period, request_id, idempotency_key, created_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
      ),
      usageByOperation: db.prepare(
        'SELECT operation, used AS units FROM usage_counters WHERE account_id = ? AND period = ? ORDER BY operation',
      ),
      idem: db.prepare(
        'SELECT fingerprint, state, response_status, response_body, created_at, expires_at, owner FROM idempotency_records WHERE scope = ? AND key = ?',
      ),
      idemInsert: db.prepare(
        `INSERT INTO idempotency_records (scope, key, fingerprint, state, created_at, expires_at, owner)
         VALUES (?, ?, ?, 'in_flight', ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight',
           response_status = NULL, response_body = NULL, created_at = excluded.created_at,
           expires_at = excluded.expires_at, owner = excluded.owner`,
      ),
      idemTakeOver: db.prepare(
        'UPDATE idempotency_records SET created_at = ?, owner = ? WHERE scope = ? AND key = ?',
      ),
      idemOwners: db.prepare(
        "SELECT DISTINCT owner FROM idempotency_records WHERE state = 'in_flight' AND owner IS NOT NULL",
      ),
      idemReleaseOwner: db.prepare("DELETE FROM idempotency_records WHERE state = 'in_flight' AND owner = ?"),
      idemDone: db.prepare(
        `UPDATE idempotency_records SET state = 'done', response_status = ?, response_body = ?
         WHERE scope = ? AND key = ? AND state = 'in_flight'`,
      ),
      idemDelete: db.prepare(
        "DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND state = 'in_flight'",
      ),
      idemPurge: db.prepare('DELETE FROM idempotency_records WHERE expires_at <= ?'),
    };
    // One savepoint per completion inside the group's transaction: a failing one leaves the others whole.
    const one = db.transaction((input: CompleteInput, period: string, at: string) =>
      this.completeOne(input, period, at),
    );
    this.completeGroup = db.transaction(
      (
        inputs: CompleteInput[],
        outcomes: ({ ok: true; value: CompleteOutcome } | { ok: false; error: unknown })[],
      ) => {
        const now = this.now();
        const period = periodOf(now).name;
        const at = new Date(now).toISOString();
        for (const input of inputs) {
          try {
            outcomes.push({ ok: true, value: one(input, period, at) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      },
    );
  }

  /**
   * Processes sharing the file learn of revocations and account changes made by the others from the
   * change stamp, read every CHANGES_POLL_MS (one indexed row; no per-request read).
   */
  private watchChanges(): void {
    if (this.file === ':memory:' || this.changesPoll) return;
    const read = this.db.prepare('SELECT stamp FROM state_changes WHERE id = 1').pluck();
    this.lastStamp = (read.get() as number | undefined) ?? 0;
    this.changesPoll = setInterval(() => {
      if (!this.db.open) return;
      const stamp = (read.get() as number | undefined) ?? 0;
      if (stamp !== this.lastStamp) {
        this.lastStamp = stamp;
        this.auth.clear();
      }
    }, CHANGES_POLL_MS);
    this.changesPoll.unref();
  }

  private changed(): void {
    this.db.prepare('UPDATE state_changes SET stamp = stamp + 1 WHERE id = 1').run();
    this.auth.clear();
  }

  async ping(): Promise<void> {
    this.s.ping.get();
  }

  async close(): Promise<void> {
    clearInterval(this.changesPoll);
    if (!this.db.open) return;
    if (this.pending.length > 0) this.flush();
    this.db.close();
  }

  async createAccount(input: CreateAccountInput): Promise<Account> {
    const name = input.name.trim();
    if (!name) throw new Error('an account needs a name');
    if (this.s.accountByName.get(name)) throw new Error(`account "${name}" already exists`);
    const id = newId('acc');
    this.s.insertAccount.run(
      id,
      name,
      input.quota_limit ?? null,
      'month',
      input.rate_limit_per_minute === undefined ? DEFAULT_RATE_LIMIT : input.rate_limit_per_minute,
      new Date(this.now()).toISOString(),
    );
    return this.s.account.get(id) as Account;
  }

  async account(id: string): Promise<Account | undefined> {
    return this.s.account.get(id) as Account | undefined;
  }

  async accountByName(name: string): Promise<Account | undefined> {
    return this.s.accountByName.get(name.trim()) as Account | undefined;
  }

  async accounts(): Promise<Account[]> {
    return this.s.accounts.all() as Account[];
  }

  async updateAccount(
    id: string,
    changes: { quota_limit?: number | null; rate_limit_per_minute?: number | null },
  ): Promise<Account> {
    const sets: string[] = [];
    const values: (number | null)[] = [];
    if (changes.quota_limit !== undefined) {
      sets.push('quota_limit = ?');
      values.push(changes.quota_limit);
    }
    if (changes.rate_limit_per_minute !== undefined) {
      sets.push('rate_limit_per_minute = ?');
      values.push(changes.rate_limit_per_minute);
    }
    if (sets.length > 0) {
      this.db.transaction(() => {
        this.db.prepare(`UPDATE accounts SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
        this.changed();
      })();
    }
    const account = this.s.account.get(id) as Account | undefined;
    if (!account) throw new Error(`no account ${id}`);
    return account;
  }

  async createKey(accountId: string, mode: KeyMode, label: string | null = null): Promise<CreatedKey> {
    if (!this.s.account.get(accountId)) throw new Error(`no account ${accountId}`);
    const secret = generateSecret(mode);
    const id = newId('key');
    this.s.insertKey.run(
      id,
      accountId,
      keyPrefix(secret),
      hashSecret(secret),
      mode,
      label,
      new Date(this.now()).toISOString(),
    );
    return { key: publicKey(this.s.keyById.get(id) as KeyRow), secret };
  }

  async authenticate(secret: string): Promise<AuthResult> {
    if (!looksLikeKey(secret)) return { ok: false, reason: 'invalid' };
    this.watchChanges();
    const hash = hashSecret(secret);
    const now = this.now();
    const cached = this.auth.get(hash);
    if (cached) return cached;
    const row = this.s.keyByHash.get(hash) as KeyRow | undefined;
    const result = keyVerdict(row, hash, (r) => this.s.account.get(r.account_id) as Account);
    if (result.ok && row && this.auth.touchDue(row.id, now)) {
      this.s.touchKey.run(new Date(now).toISOString(), row.id);
    }
    this.auth.set(hash, result, AUTH_CACHE_MS);
    return result;
  }

  async keys(accountId?: string): Promise<ApiKey[]> {
    const rows = (accountId ? this.s.keysOf.all(accountId) : this.s.keys.all()) as KeyRow[];
    return rows.map(publicKey);
  }

  async revokeKey(idOrPrefix: string): Promise<ApiKey | undefined> {
    let row = this.s.keyById.get(idOrPrefix) as KeyRow | undefined;
    if (!row) {
      const matches = this.s.keysByPrefix.all(idOrPrefix) as KeyRow[];
      if (matches.length > 1)
        throw new Error(`prefix ${idOrPrefix} matches ${matches.length} keys; give the key id`);
      row = matches[0];
    }
    if (!row) return undefined;
    const id = row.id;
    this.db.transaction(() => {
      this.s.revoke.run(new Date(this.now()).toISOString(), id);
      this.changed();
    })();
    return publicKey(this.s.keyById.get(row.id) as KeyRow);
  }

  async quota(accountId: string): Promise<QuotaStatus> {
    const account = this.s.account.get(accountId) as Account | undefined;
    if (!account) throw new Error(`no account ${accountId}`);
    return this.quotaOf(account, periodOf(this.now()).name);
  }

  async ledger(
    options: { account_id?: string; period?: string; limit?: number } = {},
  ): Promise<LedgerEntry[]> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (options.account_id) {
      where.push('account_id = ?');
      values.push(options.account_id);
    }
    if (options.period) {
      where.push('period = ?');
      values.push(options.period);
    }
    const sql = `SELECT * FROM usage_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return this.db.prepare(sql).all(...values, options.limit ?? 1000) as LedgerEntry[];
  }

  async usage(accountId: string, period?: string): Promise<UsageSummary> {
    const account = this.s.account.get(accountId) as Account | undefined;
    if (!account) throw new Error(`no account ${accountId}`);
    const name = period ?? periodOf(this.now()).name;
    return {
      account,
      quota: this.quotaOf(account, name),
      by_operation: this.s.usageByOperation.all(accountId, name) as { operation: string; units: number }[],
    };
  }

  async beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin> {
    const now = this.now();
    return this.db
      .transaction((): IdempotencyBegin => {
        const row = this.s.idem.get(ref.scope, ref.key) as IdempotencyRow | undefined;
        if (row && row.expires_at > now) {
          if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
          if (row.state === 'done')
            return { kind: 'replay', status: row.response_status!, body: row.response_body! };
          if (now - row.created_at < IN_FLIGHT_LEASE_MS && !ownerGone(row.owner))
            return { kind: 'in_flight' };
          this.s.idemTakeOver.run(now, this.owner, ref.scope, ref.key);
          return { kind: 'started' };
        }
        this.s.idemInsert.run(ref.scope, ref.key, fingerprint, now, now + IDEMPOTENCY_TTL_MS, this.owner);
        return { kind: 'started' };
      })
      .immediate();
  }

  /**
   * Completions are committed in groups: every completion requested during one turn of the event loop
   * goes into one transaction (each in its own savepoint, quota checked in order), since a commit costs
   * far more than the rows it writes. Each caller resolves only once its group is committed.
   */
  complete(input: CompleteInput): Promise<CompleteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const outcomes: ({ ok: true; value: CompleteOutcome } | { ok: false; error: unknown })[] = [];
    try {
      this.completeGroup.immediate(
        batch.map((b) => b.input),
        outcomes,
      );
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    batch.forEach((b, i) => {
      const o = outcomes[i]!;
      if (o.ok) b.resolve(o.value);
      else b.reject(o.error);
    });
  }

  private completeOne(input: CompleteInput, period: string, at: string): CompleteOutcome {
    if (input.charge) {
      const c = input.charge;
      const account = this.s.account.get(c.account_id) as Account | undefined;
      if (!account) throw new Error(`no account ${c.account_id}`);
      if (account.quota_limit !== null) {
        const used = (this.s.counter.get(c.account_id, period) as { used: number }).used;
        if (used >= account.quota_limit) return { ok: false, quota: this.quotaOf(account, period, used) };
      }
      this.s.insertLedger.run(
        c.account_id,
        c.key_id,
        c.operation,
        period,
        c.request_id,
        c.idempotency_key,
        at,
      );
      this.s.bumpCounter.run(c.account_id, period, c.operation);
    }
    if (input.session) this.writeSession(input.session, at);
    if (input.idempotency) {
      const i = input.idempotency;
      if (this.s.idemDone.run(i.status, i.body, i.scope, i.key).changes !== 1)
        throw new IdempotencyCompletedError({ scope: i.scope, key: i.key });
    }
    return { ok: true };
  }

  /** Prepared on first use, so that a store opened with fewer migrations (tests) still opens. */
  private get ss() {
    this.sessionStatements ??= this.prepareSessionStatements();
    return this.sessionStatements;
  }

  private prepareSessionStatements() {
    const db = this.db;
    return {
      get: db.prepare('SELECT * FROM diagnostic_sessions WHERE id = ?'),
      list: db.prepare(
        `SELECT id, account_id, status, equipment, version, state, created_at, updated_at
         FROM diagnostic_sessions WHERE account_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
      ),
      insert: db.prepare(
        `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      ),
      update: db.prepare(
        `UPDATE diagnostic_sessions SET status = ?, state = ?, version = version + 1, updated_at = ?
         WHERE id = ? AND account_id = ? AND version = ?`,
      ),
    };
  }

  private writeSession(w: SessionWrite, at: string): void {
    const changes =
      w.expected_version === null
        ? this.ss.insert.run(w.id, w.account_id, w.status, w.equipment, w.model ?? '{}', w.state, at, at)
            .changes
        : this.ss.update.run(w.status, w.state, at, w.id, w.account_id, w.expected_version).changes;
    if (changes !== 1) throw new SessionConflictError(w.id);
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    return this.ss.get.get(id) as SessionRecord | undefined;
  }

  async sessions(
    accountId: string,
    options: { limit?: number } = {},
  ): Promise<Omit<SessionRecord, 'model'>[]> {
    return this.ss.list.all(accountId, options.limit ?? 50) as Omit<SessionRecord, 'model'>[];
  }

  async abandonIdempotent(ref: IdempotencyRef): Promise<void> {
    this.s.idemDelete.run(ref.scope, ref.key);
  }

  async reclaimAbandonedIdempotency(): Promise<number> {
    let released = 0;
    for (const { owner } of this.s.idemOwners.all() as { owner: string }[]) {
      if (ownerGone(owner)) released += this.s.idemReleaseOwner.run(owner).changes;
    }
    return released;
  }

  async purgeExpiredIdempotency(): Promise<number> {
    return this.s.idemPurge.run(this.now()).changes;
  }

  async purgeExpiredSessions(): Promise<number> {
    const before = new Date(this.now() - SESSION_TTL_MS).toISOString();
    return this.db.prepare('DELETE FROM diagnostic_sessions WHERE updated_at < ?').run(before).changes;
  }

  /** The account holders' group (HolderStore), its statements prepared on first use. */
  get accountHolders(): HolderStore {
    this.holderStatements ??= new SqliteHolders(this.db, this.now);
    return this.holderStatements;
  }

  private quotaOf(account: Account, periodName: string, used?: number): QuotaStatus {
    const n = used ?? (this.s.counter.get(account.id, periodName) as { used: number } | undefined)?.used ?? 0;
    return quotaStatus(account, periodName, n);
  }

  rateLimiter(): RateLimiter {
    const take = this.db.prepare(rateWindowSql(['?', '?']));
    return {
      take: (key: string, limit: number) => {
        const now = this.now();
        const row = take.get(key, now) as { window_start: number; count: number };
        return rateDecision(limit, row.count, row.window_start, now);
      },
    };
  }
}
