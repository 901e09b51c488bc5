import type Database from 'better-sqlite3';
import { AuthCache, type AuthResult, keyVerdict } from '../auth-cache.js';
import { generateSecret, hashSecret, keyPrefix, looksLikeKey, newId } from '../keys.js';
import { DEFAULT_RATE_LIMIT, publicKey } from '../quota.js';
import type { Account, ApiKey, CreateAccountInput, CreatedKey, KeyMode } from '../records.js';
import type { AccountStore } from '../types.js';

/** How long an authentication result is reused. Revocation by any process clears it within a poll. */
const AUTH_CACHE_MS = 5_000;
/** How often the change stamp is read: the bound on seeing a revocation made by another process. */
const CHANGES_POLL_MS = 250;

interface KeyRow extends ApiKey {
  hash: Buffer;
}

/** Accounts and API keys in SQLite, with the authentication cache every change clears. */
export class SqliteAccounts implements AccountStore {
  private readonly auth: AuthCache;
  private changesPoll?: NodeJS.Timeout;
  private lastStamp = 0;
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly now: () => number,
  ) {
    this.auth = new AuthCache(now);
    this.s = {
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
    };
  }

  /** The account row, read inside the caller's transaction (completions check quotas with it). */
  accountRow(id: string): Account | undefined {
    return this.s.account.get(id) as Account | undefined;
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

  stopWatching(): void {
    clearInterval(this.changesPoll);
  }

  private changed(): void {
    this.db.prepare('UPDATE state_changes SET stamp = stamp + 1 WHERE id = 1').run();
    this.auth.clear();
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
    return this.accountRow(id);
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
    const account = this.accountRow(id);
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

  async authenticate(secret: string, connection?: object): Promise<AuthResult> {
    this.watchChanges();
    const known = this.auth.forConnection(connection, secret);
    if (known) return known;
    if (!looksLikeKey(secret)) return { ok: false, reason: 'invalid' };
    const hash = hashSecret(secret);
    const now = this.now();
    const cached = this.auth.get(hash, connection, secret);
    if (cached) return cached;
    const row = this.s.keyByHash.get(hash) as KeyRow | undefined;
    const result = keyVerdict(row, hash, (r) => this.s.account.get(r.account_id) as Account);
    if (result.ok && row && this.auth.touchDue(row.id, now)) {
      this.s.touchKey.run(new Date(now).toISOString(), row.id);
    }
    this.auth.set(hash, result, AUTH_CACHE_MS, connection, secret);
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
}
