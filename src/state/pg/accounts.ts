import type pg from 'pg';
import type { AuthCache, AuthResult } from '../auth-cache.js';
import { keyVerdict } from '../auth-cache.js';
import { generateSecret, hashSecret, keyPrefix, looksLikeKey, newId } from '../keys.js';
import { DEFAULT_RATE_LIMIT, publicKey } from '../quota.js';
import type { Account, ApiKey, CreateAccountInput, CreatedKey, KeyMode } from '../records.js';
import type { AccountStore } from '../types.js';
import type { ChangeListener } from './changes.js';
import type { Transaction } from './connection.js';

/** How long an authentication result is reused while change notifications arrive. */
const AUTH_CACHE_LISTENING_MS = 60_000;
/** ... and while they do not (the listening connection is down): the bound on seeing a revocation late. */
const AUTH_CACHE_DEAF_MS = 1_000;

interface KeyRow extends ApiKey {
  hash: Buffer;
}

/** Accounts and API keys in PostgreSQL; every change is NOTIFYed so that other processes drop their cache. */
export class PgAccounts implements AccountStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tx: Transaction,
    private readonly now: () => number,
    private readonly auth: AuthCache,
    private readonly changes: ChangeListener,
  ) {}

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
      if (rows[0]) await this.changes.notify(c);
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

  async authenticate(secret: string, connection?: object): Promise<AuthResult> {
    const known = this.auth.forConnection(connection, secret);
    if (known) return known;
    if (!looksLikeKey(secret)) return { ok: false, reason: 'invalid' };
    const hash = hashSecret(secret);
    const cached = this.auth.get(hash, connection, secret);
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
    this.auth.set(
      hash,
      result,
      this.changes.listening ? AUTH_CACHE_LISTENING_MS : AUTH_CACHE_DEAF_MS,
      connection,
      secret,
    );
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
      await this.changes.notify(c);
      return (await c.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [row.id])).rows[0]!;
    });
    this.auth.clear();
    return key && publicKey(key);
  }
}
