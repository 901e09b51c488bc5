import pg from 'pg';
import { AuthCache } from './auth-cache.js';
import { ComposedStateStore } from './composed-store.js';
import type { HolderStore } from './holders.js';
import { checkSchemaName, migratePostgres } from './migrate.js';
import type { Migration } from './migrations.js';
import { PgAccounts } from './pg/accounts.js';
import { ChangeListener } from './pg/changes.js';
import { PgCompletions } from './pg/completions.js';
import { parseStateUrl, type Transaction, TYPES, transactionOn } from './pg/connection.js';
import { PgHolders } from './pg/holders.js';
import { PgIdempotency } from './pg/idempotency.js';
import { PgSessions } from './pg/sessions.js';
import { PgUsage } from './pg/usage.js';
import { processOwner } from './process-owner.js';
import { type RateDecision, type RateLimiter, rateDecision, rateWindowSql } from './rate-limit.js';
import type { CompleteOutcome } from './records.js';
import type { CompleteInput } from './types.js';

export { isPostgresUrl } from './location.js';
export { parseStateUrl } from './pg/connection.js';

export interface PgStateOptions {
  now?: () => number;
  migrations?: Migration[];
  /** Overrides the URL's `?schema=` parameter. */
  schema?: string;
  /** Overrides the URL's `?pool_max=` parameter (default 10 connections). */
  poolMax?: number;
  /** Who holds the in-flight idempotency records this store writes; this process by default. */
  owner?: string;
}

/**
 * The state store on PostgreSQL, for any number of processes sharing one database: a pool of
 * connections, versioned migrations run under an advisory lock, and every cross-process rule enforced
 * by the database itself: the idempotency record's primary key and its in-flight check in the charge's
 * transaction (one charge per key), the account row locked while its quota is checked and charged, the
 * session's version column, and rate-limit windows counted in a table. Revocations reach the other
 * processes by NOTIFY. Each aggregate is a part of its own over the pool (src/state/pg/); this class
 * connects and composes them behind StateStore.
 */
export class PgStateStore extends ComposedStateStore {
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly now: () => number;
  private readonly tx: Transaction;
  private readonly changes: ChangeListener;
  protected override readonly accountKeys: PgAccounts;
  protected override readonly usageLedger: PgUsage;
  protected override readonly idempotency: PgIdempotency;
  protected override readonly diagnosticSessions: PgSessions;
  private readonly completions: PgCompletions;
  private holders?: PgHolders;
  private closed = false;

  private constructor(
    connection: { connectionString: string; schema: string; poolMax: number },
    options: PgStateOptions,
  ) {
    super();
    this.now = options.now ?? Date.now;
    this.schema = connection.schema;
    this.pool = new pg.Pool({
      connectionString: connection.connectionString,
      max: connection.poolMax,
      types: TYPES,
      options: `-c search_path=${connection.schema}`,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection the server drops must not take the process down; the pool replaces it.
    this.pool.on('error', () => {});
    this.tx = transactionOn(this.pool);
    const auth = new AuthCache(this.now);
    this.changes = new ChangeListener(connection.connectionString, connection.schema, auth);
    this.accountKeys = new PgAccounts(this.pool, this.tx, this.now, auth, this.changes);
    this.usageLedger = new PgUsage(this.pool, this.now, (id) => this.accountKeys.account(id));
    this.idempotency = new PgIdempotency(this.pool, this.tx, this.now, options.owner ?? processOwner());
    this.diagnosticSessions = new PgSessions(this.pool, this.now);
    this.completions = new PgCompletions(this.tx, this.now, {
      usage: this.usageLedger,
      sessions: this.diagnosticSessions,
      idempotency: this.idempotency,
    });
  }

  /** Connects, migrates the schema to this version, and starts listening for changes. */
  static async open(url: string, options: PgStateOptions = {}): Promise<PgStateStore> {
    const parsed = parseStateUrl(url);
    if (options.schema) parsed.schema = checkSchemaName(options.schema);
    if (options.poolMax) parsed.poolMax = options.poolMax;
    const store = new PgStateStore(parsed, options);
    try {
      const client = await store.pool.connect();
      try {
        await migratePostgres(client, store.schema, options.migrations);
      } finally {
        client.release();
      }
      await store.changes.listen();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  override async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const listener = this.changes.close();
    await this.completions.drain();
    await listener;
    await this.pool.end();
  }

  /** The account holders' group (HolderStore, pg/holders.ts), over this store's pool and transactions. */
  override get accountHolders(): HolderStore {
    this.holders ??= new PgHolders(this.pool, this.tx, this.now);
    return this.holders;
  }

  override complete(input: CompleteInput): Promise<CompleteOutcome> {
    return this.completions.complete(input);
  }

  override rateLimiter(): RateLimiter {
    const sql = rateWindowSql(['$1', '$2']);
    return {
      take: async (key: string, limit: number): Promise<RateDecision> => {
        const now = this.now();
        const { rows } = await this.pool.query<{ window_start: number; count: number }>(sql, [key, now]);
        return rateDecision(limit, rows[0]!.count, rows[0]!.window_start, now);
      },
    };
  }
}
