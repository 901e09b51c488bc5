import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ComposedStateStore } from './composed-store.js';
import type { HolderStore } from './holders.js';
import { migrateSqlite } from './migrate.js';
import type { Migration } from './migrations.js';
import { processOwner } from './process-owner.js';
import { DEFAULT_RATE_LIMIT, IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS } from './quota.js';
import { type RateLimiter, rateDecision, rateWindowSql } from './rate-limit.js';
import type { CompleteOutcome } from './records.js';
import { SqliteAccounts } from './sqlite/accounts.js';
import { SqliteCompletions } from './sqlite/completions.js';
import { SqliteHolders } from './sqlite/holders.js';
import { SqliteIdempotency } from './sqlite/idempotency.js';
import { SqliteSessions } from './sqlite/sessions.js';
import { SqliteUsage } from './sqlite/usage.js';
import type { CompleteInput } from './types.js';

export { DEFAULT_RATE_LIMIT, IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS };

export interface SqliteStateOptions {
  /** Milliseconds since the epoch; tests move time. */
  now?: () => number;
  migrations?: Migration[];
  /** Who holds the in-flight idempotency records this store writes; this process by default. */
  owner?: string;
}

/**
 * The embedded state store: one SQLite file in WAL mode, every statement prepared once. Each aggregate
 * is a part of its own over the same handle (src/state/sqlite/); this class opens the file and composes
 * them behind StateStore.
 */
/**
 * SQLite's page cache for the state database, KiB (better-sqlite3's default is 16,000). The cache grows with
 * the pages read and written, up to its bound, in the server's malloc heap: under the soak's writes
 * (ledger rows, idempotency records, sessions of about 24 KiB) the database passed 4 MB in its first
 * minute and the cache followed it. What requests read again and again is small (accounts, keys, usage
 * counters, the indexes' upper pages); a colder page is read from the operating system's cache. 2 MiB held
 * the server 6-16 MB lower at the same CPU per request in a 3-minute soak (BENCHMARKS.md, soak).
 */
export const STATE_CACHE_KIB = 2048;

export class SqliteStateStore extends ComposedStateStore {
  readonly db: Database.Database;
  private readonly now: () => number;
  protected override readonly accountKeys: SqliteAccounts;
  protected override readonly usageLedger: SqliteUsage;
  protected override readonly idempotency: SqliteIdempotency;
  protected override readonly diagnosticSessions: SqliteSessions;
  private readonly completions: SqliteCompletions;
  private holders?: SqliteHolders;

  constructor(
    readonly file: string,
    options: SqliteStateOptions = {},
  ) {
    super();
    this.now = options.now ?? Date.now;
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
    this.db.pragma(`cache_size = -${STATE_CACHE_KIB}`);
    migrateSqlite(this.db, options.migrations);
    this.accountKeys = new SqliteAccounts(this.db, file, this.now);
    this.usageLedger = new SqliteUsage(this.db, this.now, (id) => this.accountKeys.accountRow(id));
    this.idempotency = new SqliteIdempotency(this.db, this.now, options.owner ?? processOwner());
    this.diagnosticSessions = new SqliteSessions(this.db, this.now);
    this.completions = new SqliteCompletions(this.db, this.now, {
      usage: this.usageLedger,
      sessions: this.diagnosticSessions,
      idempotency: this.idempotency,
    });
  }

  override async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  override async close(): Promise<void> {
    this.accountKeys.stopWatching();
    if (!this.db.open) return;
    if (this.completions.queued > 0) this.completions.flush();
    this.db.close();
  }

  /** The account holders' group (HolderStore), its statements prepared on first use. */
  override get accountHolders(): HolderStore {
    this.holders ??= new SqliteHolders(this.db, this.now);
    return this.holders;
  }

  override complete(input: CompleteInput): Promise<CompleteOutcome> {
    return this.completions.complete(input);
  }

  override rateLimiter(): RateLimiter {
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
