import pg from 'pg';
import { AuthCache, type AuthResult, keyVerdict } from './auth-cache.js';
import type { HolderStore } from './holders.js';
import { generateSecret, hashSecret, keyPrefix, looksLikeKey, newId } from './keys.js';
import { checkSchemaName, migratePostgres } from './migrate.js';
import type { Migration } from './migrations.js';
import { periodOf } from './period.js';
import { PgHolders } from './pg-holders.js';
import { ownerGone, processOwner } from './process-owner.js';
import {
  DEFAULT_RATE_LIMIT,
  IDEMPOTENCY_TTL_MS,
  IN_FLIGHT_LEASE_MS,
  publicKey,
  quotaStatus,
  SESSION_TTL_MS,
} from './quota.js';
import { type RateDecision, type RateLimiter, rateDecision, rateWindowSql } from './rate-limit.js';
import {
  type Account,
  type ApiKey,
  type ChargeInput,
  type CompleteOutcome,
  type CreateAccountInput,
  type CreatedKey,
  type IdempotencyBegin,
  IdempotencyCompletedError,
  type IdempotencyRef,
  type KeyMode,
  type LedgerEntry,
  type QuotaStatus,
  SessionConflictError,
  type SessionRecord,
  type SessionWrite,
  type StateStore,
  type UsageSummary,
} from './types.js';

/** The channel every process listens on; the payload names the schema whose keys or accounts changed. */
const CHANGES_CHANNEL = 'heatsource_state_changes';
/** How long an authentication result is reused while change notifications arrive. */
const AUTH_CACHE_LISTENING_MS = 60_000;
/** ... and while they do not (the listening connection is down): the bound on seeing a revocation late. */
const AUTH_CACHE_DEAF_MS = 1_000;
const RELISTEN_MS = 1_000;

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

type CompleteInput = Parameters<StateStore['complete']>[0];
type Settled = { ok: true; value: CompleteOutcome } | { ok: false; error: unknown };

/** Completions per transaction at most, so that a burst does not hold its account locks for long. */
const MAX_GROUP = 64;

function isOwnRefusal(err: unknown): boolean {
  if (err instanceof SessionConflictError || err instanceof IdempotencyCompletedError) return true;
  // A data or integrity error of one statement (a foreign key, a bad value) is that completion's alone.
  return /^(22|23)/.test((err as { code?: string }).code ?? '');
}

interface KeyRow extends ApiKey {
  hash: Buffer;
}

/** BIGINT columns (epoch milliseconds, ledger ids, sums) as numbers: every value here fits in 2^53. */
const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 || oid === 1700
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Where a `postgres://` state URL points, with heatsource's own parameters taken out of it. */
export function parseStateUrl(url: string): { connectionString: string; schema: string; poolMax: number } {
  const u = new URL(url);
  const schema = checkSchemaName(u.searchParams.get('schema') ?? 'public');
  const poolMax = Number(u.searchParams.get('pool_max') ?? 10);
  if (!Number.isInteger(poolMax) || poolMax < 1) throw new Error('pool_max must be a positive integer');
  u.searchParams.delete('schema');
  u.searchParams.delete('pool_max');
  return { connectionString: u.toString(), schema, poolMax };
}

export { isPostgresUrl } from './location.js';

/**
 * The state store on PostgreSQL, for any number of processes sharing one database: a pool of
 * connections, versioned migrations run under an advisory lock, and every cross-process rule enforced
 * by the database itself: the idempotency record's primary key and its in-flight check in the charge's
 * transaction (one charge per key), the account row locked while its quota is checked and charged, the
 * session's version column, and rate-limit windows counted in a table. Revocations reach the other
 * processes by NOTIFY.
 */
export class PgStateStore implements StateStore {
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly now: () => number;
  private readonly auth: AuthCache;
  private listener?: pg.Client;
  private listening = false;
  private closed = false;
  private relisten?: NodeJS.Timeout;
  private flushRun?: Promise<void>;
  private holderGroup?: PgHolders;
  private readonly owner: string;
  private readonly pending: {
    input: CompleteInput;
    resolve: (o: CompleteOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];

  private constructor(
    private readonly connection: { connectionString: string; schema: string; poolMax: number },
    options: PgStateOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.owner = options.owner ?? processOwner();
    this.auth = new AuthCache(this.now);
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
      await store.listen();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  /** A connection of its own that LISTENs; while it is down, cached authentications live one second. */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.connection.connectionString, types: TYPES });
    const lost = () => {
      if (this.listener !== client) return;
      this.listening = false;
      this.listener = undefined;
      this.auth.clear();
      client.end().catch(() => {});
      if (!this.closed) this.relisten = setTimeout(() => void this.listen().catch(lost), RELISTEN_MS);
      this.relisten?.unref();
    };
    this.listener = client;
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (n) => {
      if (n.channel === CHANGES_CHANNEL && n.payload === this.schema) this.auth.clear();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.listening = true;
      // Changes made while no one listened are not replayed: start from an empty cache.
      this.auth.clear();
    } catch (err) {
      lost();
      if (!this.relisten) throw err;
    }
  }

  private async tx<T>(run: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      const result = await run(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      c.release(broken);
    }
  }

  private async notifyChange(c: pg.ClientBase): Promise<void> {
    await c.query('UPDATE state_changes SET stamp = stamp + 1 WHERE id = 1');
    await c.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, this.schema]);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.relisten);
    await this.flushRun;
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => {});
    await this.pool.end();
  }

  async createAccount(input: CreateAccountInput): Promise<Account> {
    const name = input.name.trim();
    if (!name) throw new Error('an account needs a name');
    const id = newId('acc');
    try {
      const { rows } = await this.pool.query<Account>(
        `INSERT INTO accounts (id, name, quota_limit, quota_period, rate_limit_per_minute, created_at)
         VALUES ($1, $2, $3, 'month', $4, $5) RETURNING *`,
        [
          id,
          name,
          input.quota_limit ?? null,
          input.rate_limit_per_minute === undefined ? DEFAULT_RATE_LIMIT : input.rate_limit_per_minute,
          new Date(this.now()).toISOString(),
        ],
      );
      return rows[0]!;
    } catch (err) {
      if ((err as { code?: string }).code === '23505') throw new Error(`account "${name}" already exists`);
      throw err;
    }
  }

  async account(id: string): Promise<Account | undefined> {
    return (await this.pool.query<Account>('SELECT * FROM accounts WHERE id = $1', [id])).rows[0];
  }

  async accountByName(name: string): Promise<Account | undefined> {
    return (await this.pool.query<Account>('SELECT * FROM accounts WHERE name = $1', [name.trim()])).rows[0];
  }

  async accounts(): Promise<Account[]> {
    return (await this.pool.query<Account>('SELECT * FROM accounts ORDER BY created_at, name')).rows;
  }

  async updateAccount(
    id: string,
    changes: { quota_limit?: number | null; rate_limit_per_minute?: number | null },
  ): Promise<Account> {
    const account = await this.tx(async (c) => {
      const sets: string[] = [];
      const values: (number | null | string)[] = [];
      for (const field of ['quota_limit', 'rate_limit_per_minute'] as const) {
        if (changes[field] === undefined) continue;
        values.push(changes[field]);
        sets.push(`${field} = $${values.length}`);
      }
      values.push(id);
      const { rows } = sets.length
        ? await c.query<Account>(
            `UPDATE accounts SET ${sets.join(', ')} WHERE id = $${values.length} RETURNING *`,
            values,
          )
        : await c.query<Account>('SELECT * FROM accounts WHERE id = $1', [id]);
      if (rows[0]) await this.notifyChange(c);
      return rows[0];
    });
    this.auth.clear();
    if (!account) throw new Error(`no account ${id}`);
    return account;
  }

  async createKey(accountId: string, mode: KeyMode, label: string | null = null): Promise<CreatedKey> {
    if (!(await this.account(accountId))) throw new Error(`no account ${accountId}`);
    const secret = generateSecret(mode);
    const { rows } = await this.pool.query<KeyRow>(
      `INSERT INTO api_keys (id, account_id, prefix, hash, mode, label, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [
        newId('key'),
        accountId,
        keyPrefix(secret),
        hashSecret(secret),
        mode,
        label,
        new Date(this.now()).toISOString(),
      ],
    );
    return { key: publicKey(rows[0]!), secret };
  }

  async authenticate(secret: string): Promise<AuthResult> {
    if (!looksLikeKey(secret)) return { ok: false, reason: 'invalid' };
    const hash = hashSecret(secret);
    const cached = this.auth.get(hash);
    if (cached) return cached;
    const { rows } = await this.pool.query<KeyRow & { account: Account }>(
      `SELECT k.*, row_to_json(a.*) AS account FROM api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.hash = $1`,
      [hash],
    );
    const row = rows[0];
    const result = keyVerdict(row, hash, () => row!.account);
    if (result.ok && row) {
      const now = this.now();
      if (this.auth.touchDue(row.id, now)) {
        // Bookkeeping only: a failed write must not fail the request it accompanies.
        this.pool
          .query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [new Date(now).toISOString(), row.id])
          .catch(() => {});
      }
    }
    this.auth.set(hash, result, this.listening ? AUTH_CACHE_LISTENING_MS : AUTH_CACHE_DEAF_MS);
    return result;
  }

  async keys(accountId?: string): Promise<ApiKey[]> {
    const { rows } = accountId
      ? await this.pool.query<KeyRow>(
          'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id',
          [accountId],
        )
      : await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(publicKey);
  }

  async revokeKey(idOrPrefix: string): Promise<ApiKey | undefined> {
    const key = await this.tx(async (c) => {
      let row = (await c.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1 FOR UPDATE', [idOrPrefix]))
        .rows[0];
      if (!row) {
        const matches = (
          await c.query<KeyRow>('SELECT * FROM api_keys WHERE prefix = $1 FOR UPDATE', [idOrPrefix])
        ).rows;
        if (matches.length > 1)
          throw new Error(`prefix ${idOrPrefix} matches ${matches.length} keys; give the key id`);
        row = matches[0];
      }
      if (!row) return undefined;
      await c.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        new Date(this.now()).toISOString(),
        row.id,
      ]);
      await this.notifyChange(c);
      return (await c.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [row.id])).rows[0]!;
    });
    this.auth.clear();
    return key && publicKey(key);
  }

  private async used(c: pg.ClientBase | pg.Pool, accountId: string, period: string): Promise<number> {
    const { rows } = await c.query<{ used: number }>(
      'SELECT coalesce(sum(used), 0) AS used FROM usage_counters WHERE account_id = $1 AND period = $2',
      [accountId, period],
    );
    return rows[0]!.used;
  }

  async quota(accountId: string): Promise<QuotaStatus> {
    const account = await this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const period = periodOf(this.now()).name;
    return quotaStatus(account, period, await this.used(this.pool, accountId, period));
  }

  async ledger(
    options: { account_id?: string; period?: string; limit?: number } = {},
  ): Promise<LedgerEntry[]> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (options.account_id) {
      values.push(options.account_id);
      where.push(`account_id = $${values.length}`);
    }
    if (options.period) {
      values.push(options.period);
      where.push(`period = $${values.length}`);
    }
    values.push(options.limit ?? 1000);
    const sql = `SELECT * FROM usage_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${values.length}`;
    return (await this.pool.query<LedgerEntry>(sql, values)).rows;
  }

  async usage(accountId: string, period?: string): Promise<UsageSummary> {
    const account = await this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const name = period ?? periodOf(this.now()).name;
    const { rows } = await this.pool.query<{ operation: string; units: number }>(
      'SELECT operation, used AS units FROM usage_counters WHERE account_id = $1 AND period = $2 ORDER BY operation',
      [accountId, name],
    );
    return {
      account,
      quota: quotaStatus(account, name, await this.used(this.pool, accountId, name)),
      by_operation: rows,
    };
  }

  async beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin> {
    const now = this.now();
    return this.tx(async (c): Promise<IdempotencyBegin> => {
      // The primary key decides: of the requests inserting the same key at once, one inserts and the
      // others wait for its commit, then read the row it wrote.
      const inserted = await c.query(
        `INSERT INTO idempotency_records (scope, key, fingerprint, state, created_at, expires_at, owner)
         VALUES ($1, $2, $3, 'in_flight', $4, $5, $6) ON CONFLICT (scope, key) DO NOTHING`,
        [ref.scope, ref.key, fingerprint, now, now + IDEMPOTENCY_TTL_MS, this.owner],
      );
      if (inserted.rowCount === 1) return { kind: 'started' };
      const row = (
        await c.query<{
          fingerprint: string;
          state: 'in_flight' | 'done';
          response_status: number | null;
          response_body: string | null;
          created_at: number;
          expires_at: number;
          owner: string | null;
        }>('SELECT * FROM idempotency_records WHERE scope = $1 AND key = $2 FOR UPDATE', [ref.scope, ref.key])
      ).rows[0];
      if (!row || row.expires_at <= now) {
        // Abandoned or expired meanwhile: this request starts it afresh.
        await c.query(
          `INSERT INTO idempotency_records (scope, key, fingerprint, state, created_at, expires_at, owner)
           VALUES ($1, $2, $3, 'in_flight', $4, $5, $6)
           ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight',
             response_status = NULL, response_body = NULL, created_at = excluded.created_at,
             expires_at = excluded.expires_at, owner = excluded.owner`,
          [ref.scope, ref.key, fingerprint, now, now + IDEMPOTENCY_TTL_MS, this.owner],
        );
        return { kind: 'started' };
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done')
        return { kind: 'replay', status: row.response_status!, body: row.response_body! };
      // A lease of a process known to be gone (same host, see process-owner.ts) is taken over at once.
      if (now - row.created_at < IN_FLIGHT_LEASE_MS && !ownerGone(row.owner)) return { kind: 'in_flight' };
      await c.query(
        'UPDATE idempotency_records SET created_at = $1, owner = $2 WHERE scope = $3 AND key = $4',
        [now, this.owner, ref.scope, ref.key],
      );
      return { kind: 'started' };
    });
  }

  /**
   * Completions are committed in groups, as in the SQLite store: those requested while the previous
   * group commits go into the next transaction together, each in its own savepoint, so that one commit
   * (and its fsync) serves many requests.
   */
  complete(input: CompleteInput): Promise<CompleteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.flushRun) return;
    this.flushRun = this.flush().finally(() => {
      this.flushRun = undefined;
      // Requested after the loop's last look at the queue: they start the next group.
      if (this.pending.length > 0) this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_GROUP);
      let outcomes: Settled[] | undefined;
      let failure: unknown;
      for (let attempt = 0; attempt < 3 && !outcomes; attempt++) {
        try {
          outcomes = await this.completeGroup(batch.map((b) => b.input));
        } catch (err) {
          failure = err;
          // A deadlock or serialisation failure rolled the whole group back: nothing was written.
          if (!['40P01', '40001'].includes((err as { code?: string }).code ?? '')) break;
        }
      }
      batch.forEach((b, i) => {
        const o = outcomes?.[i];
        if (!o) b.reject(failure);
        else if (o.ok) b.resolve(o.value);
        else b.reject(o.error);
      });
    }
  }

  /**
   * One transaction for a group: the accounts charged are locked at once (in id order) and their usage
   * read once; then each completion in order is checked against the quota as it stands after the ones
   * before it, and its session and idempotency writes run in a savepoint of their own; the accepted
   * charges are written at the end, as one ledger insert and one counter update per account and
   * operation. A group of plain charges costs six round trips, however many it holds.
   */
  private async completeGroup(inputs: CompleteInput[]): Promise<Settled[]> {
    const now = this.now();
    const period = periodOf(now).name;
    const at = new Date(now).toISOString();
    return this.tx(async (c) => {
      const ids = [...new Set(inputs.flatMap((i) => (i.charge ? [i.charge.account_id] : [])))].sort();
      const accounts = new Map<string, Account>();
      const used = new Map<string, number>();
      if (ids.length > 0) {
        // The account rows stay locked until the commit: charges of one account, from any process, are
        // checked against its quota one group after another, so the quota is never overshot.
        const locked = await c.query<Account>(
          'SELECT * FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE',
          [ids],
        );
        for (const a of locked.rows) accounts.set(a.id, a);
        const limited = locked.rows.filter((a) => a.quota_limit !== null).map((a) => a.id);
        if (limited.length > 0) {
          const sums = await c.query<{ account_id: string; used: number }>(
            `SELECT account_id, coalesce(sum(used), 0) AS used FROM usage_counters
             WHERE account_id = ANY($1) AND period = $2 GROUP BY account_id`,
            [limited, period],
          );
          for (const r of sums.rows) used.set(r.account_id, r.used);
        }
      }
      const charges: ChargeInput[] = [];
      const outcomes: Settled[] = [];
      for (const input of inputs) {
        const ch = input.charge;
        const account = ch ? accounts.get(ch.account_id) : undefined;
        if (ch && !account) {
          outcomes.push({ ok: false, error: new Error(`no account ${ch.account_id}`) });
          continue;
        }
        if (ch && account && account.quota_limit !== null) {
          const n = used.get(account.id) ?? 0;
          if (n >= account.quota_limit) {
            outcomes.push({ ok: true, value: { ok: false, quota: quotaStatus(account, period, n) } });
            continue;
          }
        }
        if (input.session || input.idempotency) {
          await c.query('SAVEPOINT one');
          try {
            await this.writeRequestRows(c, input, at);
            await c.query('RELEASE SAVEPOINT one');
          } catch (error) {
            if (!isOwnRefusal(error)) throw error;
            await c.query('ROLLBACK TO SAVEPOINT one');
            outcomes.push({ ok: false, error });
            continue;
          }
        }
        if (ch) {
          charges.push(ch);
          used.set(ch.account_id, (used.get(ch.account_id) ?? 0) + 1);
        }
        outcomes.push({ ok: true, value: { ok: true } });
      }
      await this.writeCharges(c, charges, period, at);
      return outcomes;
    });
  }

  /** The rows a completion writes besides its charge: its session, and its response for replay. */
  private async writeRequestRows(c: pg.ClientBase, input: CompleteInput, at: string): Promise<void> {
    if (input.session) await this.writeSession(c, input.session, at);
    if (input.idempotency) {
      const i = input.idempotency;
      const done = await c.query(
        `UPDATE idempotency_records SET state = 'done', response_status = $1, response_body = $2
         WHERE scope = $3 AND key = $4 AND state = 'in_flight'`,
        [i.status, i.body, i.scope, i.key],
      );
      if (done.rowCount !== 1) throw new IdempotencyCompletedError({ scope: i.scope, key: i.key });
    }
  }

  private async writeCharges(
    c: pg.ClientBase,
    charges: ChargeInput[],
    period: string,
    at: string,
  ): Promise<void> {
    if (charges.length === 0) return;
    const columns = ['account_id', 'key_id', 'operation', 'request_id', 'idempotency_key'] as const;
    await c.query(
      `INSERT INTO usage_ledger (account_id, key_id, operation, request_id, idempotency_key, units, period, created_at)
       SELECT *, 1, $6::text, $7::text FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
      [...columns.map((col) => charges.map((ch) => ch[col])), period, at],
    );
    const counts = new Map<string, { account: string; operation: string; n: number }>();
    for (const ch of charges) {
      const k = `${ch.account_id}\u0000${ch.operation}`;
      const entry = counts.get(k) ?? { account: ch.account_id, operation: ch.operation, n: 0 };
      entry.n++;
      counts.set(k, entry);
    }
    const list = [...counts.values()].sort((x, y) =>
      `${x.account}\u0000${x.operation}`.localeCompare(`${y.account}\u0000${y.operation}`),
    );
    await c.query(
      `INSERT INTO usage_counters (account_id, period, operation, used)
       SELECT a, $4::text, o, n FROM unnest($1::text[], $2::text[], $3::int[]) AS t(a, o, n)
       ON CONFLICT (account_id, period, operation) DO UPDATE SET used = usage_counters.used + excluded.used`,
      [list.map((x) => x.account), list.map((x) => x.operation), list.map((x) => x.n), period],
    );
  }

  private async writeSession(c: pg.ClientBase, w: SessionWrite, at: string): Promise<void> {
    const result =
      w.expected_version === null
        ? await c.query(
            `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at)
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $7) ON CONFLICT (id) DO NOTHING`,
            [w.id, w.account_id, w.status, w.equipment, w.model ?? '{}', w.state, at],
          )
        : // Two writers from the same version: the second waits for the first's commit, then finds the
          // version moved and updates nothing.
          await c.query(
            `UPDATE diagnostic_sessions SET status = $1, state = $2, version = version + 1, updated_at = $3
             WHERE id = $4 AND account_id = $5 AND version = $6`,
            [w.status, w.state, at, w.id, w.account_id, w.expected_version],
          );
    if (result.rowCount !== 1) throw new SessionConflictError(w.id);
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.pool.query<SessionRecord>(
      `SELECT id, account_id, status, equipment, version, model, state, created_at, updated_at
       FROM diagnostic_sessions WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  async sessions(
    accountId: string,
    options: { limit?: number } = {},
  ): Promise<Omit<SessionRecord, 'model'>[]> {
    const { rows } = await this.pool.query<Omit<SessionRecord, 'model'>>(
      `SELECT id, account_id, status, equipment, version, state, created_at, updated_at
       FROM diagnostic_sessions WHERE account_id = $1 ORDER BY updated_at DESC, seq DESC LIMIT $2`,
      [accountId, options.limit ?? 50],
    );
    return rows;
  }

  async abandonIdempotent(ref: IdempotencyRef): Promise<void> {
    await this.pool.query(
      "DELETE FROM idempotency_records WHERE scope = $1 AND key = $2 AND state = 'in_flight'",
      [ref.scope, ref.key],
    );
  }

  async reclaimAbandonedIdempotency(): Promise<number> {
    const { rows } = await this.pool.query<{ owner: string }>(
      "SELECT DISTINCT owner FROM idempotency_records WHERE state = 'in_flight' AND owner IS NOT NULL",
    );
    let released = 0;
    for (const { owner } of rows) {
      if (!ownerGone(owner)) continue;
      const r = await this.pool.query(
        "DELETE FROM idempotency_records WHERE state = 'in_flight' AND owner = $1",
        [owner],
      );
      released += r.rowCount ?? 0;
    }
    return released;
  }

  /** The account holders' group (HolderStore, pg-holders.ts), over this store's pool and transactions. */
  get accountHolders(): HolderStore {
    this.holderGroup ??= new PgHolders(this.pool, (run) => this.tx(run), this.now);
    return this.holderGroup;
  }

  async purgeExpiredIdempotency(): Promise<number> {
    return (
      (await this.pool.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [this.now()]))
        .rowCount ?? 0
    );
  }

  async purgeExpiredSessions(): Promise<number> {
    const before = new Date(this.now() - SESSION_TTL_MS).toISOString();
    return (
      (await this.pool.query('DELETE FROM diagnostic_sessions WHERE updated_at < $1', [before])).rowCount ?? 0
    );
  }

  rateLimiter(): RateLimiter {
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
