import type pg from 'pg';
import {
  type AccountHolder,
  type AccountHolderWithPassword,
  type ConsoleSessionInfo,
  type DailyUsage,
  FAILURE_MEMORY_MS,
  type HolderStore,
  type Invitation,
  newHolderId,
} from '../holders.js';
import type { Account } from '../records.js';

const HOLDER_COLUMNS = 'id, account_id, email, created_at';
const INVITATION_COLUMNS = 'id, account_id, email, created_at, expires_at, used_at';

/**
 * The HolderStore group of the PostgreSQL store: the same statements as the SQLite group
 * (sqlite/holders.ts) in PostgreSQL's dialect, over the store's pool and transactions.
 */
export class PgHolders implements HolderStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tx: <T>(run: (c: pg.PoolClient) => Promise<T>) => Promise<T>,
    private readonly now: () => number,
  ) {}

  private iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  async createInvitation(input: {
    account_id: string;
    email: string;
    token_hash: Buffer;
    expires_at: string;
  }): Promise<Invitation> {
    // Re-inviting an email ends the earlier links to it (in the same statement): the usual reason to
    // re-invite is a link that went astray, and that link must not set the password afterwards.
    const { rows } = await this.pool.query<Invitation>(
      `WITH ended AS (
         UPDATE invitations SET expires_at = $5 WHERE email = $3 AND used_at IS NULL AND expires_at > $5
       )
       INSERT INTO invitations (id, account_id, email, token_hash, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${INVITATION_COLUMNS}`,
      [
        newHolderId('inv'),
        input.account_id,
        input.email.trim().toLowerCase(),
        input.token_hash,
        this.iso(),
        input.expires_at,
      ],
    );
    return rows[0]!;
  }

  async openInvitation(tokenHash: Buffer): Promise<Invitation | undefined> {
    const { rows } = await this.pool.query<Invitation>(
      `SELECT ${INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1`,
      [tokenHash],
    );
    const row = rows[0];
    if (!row || row.used_at !== null || row.expires_at <= this.iso()) return undefined;
    return row;
  }

  acceptInvitation(tokenHash: Buffer, passwordHash: string): Promise<AccountHolder | undefined> {
    return this.tx(async (c) => {
      const now = this.iso();
      // The conditional update is the one-time use: of two concurrent acceptances, one updates the row.
      const used = await c.query<Invitation>(
        `UPDATE invitations SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1
         RETURNING ${INVITATION_COLUMNS}`,
        [now, tokenHash],
      );
      const inv = used.rows[0];
      if (!inv) return undefined;
      const existing = (
        await c.query<AccountHolderWithPassword>(
          'SELECT * FROM account_holders WHERE email = $1 FOR UPDATE',
          [inv.email],
        )
      ).rows[0];
      if (existing) {
        // An email belongs to one account; an invitation for it from another account is void.
        if (existing.account_id !== inv.account_id) return undefined;
        await c.query('UPDATE account_holders SET password_hash = $1 WHERE id = $2', [
          passwordHash,
          existing.id,
        ]);
        await c.query('DELETE FROM console_sessions WHERE holder_id = $1', [existing.id]);
        const { password_hash: _omitted, ...holder } = existing;
        return holder;
      }
      const { rows } = await c.query<AccountHolder>(
        `INSERT INTO account_holders (id, account_id, email, password_hash, created_at)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${HOLDER_COLUMNS}`,
        [newHolderId('hol'), inv.account_id, inv.email, passwordHash, now],
      );
      return rows[0];
    });
  }

  async holderByEmail(email: string): Promise<AccountHolderWithPassword | undefined> {
    const { rows } = await this.pool.query<AccountHolderWithPassword>(
      'SELECT * FROM account_holders WHERE email = $1',
      [email.trim().toLowerCase()],
    );
    return rows[0];
  }

  async holders(accountId: string): Promise<AccountHolder[]> {
    const { rows } = await this.pool.query<AccountHolder>(
      `SELECT ${HOLDER_COLUMNS} FROM account_holders WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows;
  }

  async createConsoleSession(input: {
    token_hash: Buffer;
    holder_id: string;
    expires_at: string;
  }): Promise<void> {
    const now = this.iso();
    await this.pool.query('DELETE FROM console_sessions WHERE expires_at <= $1', [now]);
    await this.pool.query(
      'INSERT INTO console_sessions (token_hash, holder_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [input.token_hash, input.holder_id, now, input.expires_at],
    );
  }

  async consoleSession(tokenHash: Buffer): Promise<ConsoleSessionInfo | undefined> {
    const { rows } = await this.pool.query<
      Account & { session_expires_at: string; holder_id: string; email: string; holder_created_at: string }
    >(
      `SELECT s.expires_at AS session_expires_at, h.id AS holder_id, h.email, h.created_at AS holder_created_at, a.*
       FROM console_sessions s JOIN account_holders h ON h.id = s.holder_id
       JOIN accounts a ON a.id = h.account_id
       WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [tokenHash, this.iso()],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { session_expires_at, holder_id, email, holder_created_at, ...account } = row;
    return {
      expires_at: session_expires_at,
      holder: { id: holder_id, account_id: account.id, email, created_at: holder_created_at },
      account,
    };
  }

  async deleteConsoleSession(tokenHash: Buffer): Promise<void> {
    await this.pool.query('DELETE FROM console_sessions WHERE token_hash = $1', [tokenHash]);
  }

  async recordSignInFailure(scopes: string[]): Promise<void> {
    const now = this.now();
    await this.tx(async (c) => {
      await c.query('DELETE FROM sign_in_failures WHERE at < $1', [this.iso(now - FAILURE_MEMORY_MS)]);
      for (const scope of scopes) {
        await c.query('INSERT INTO sign_in_failures (scope, at) VALUES ($1, $2)', [scope, this.iso(now)]);
      }
    });
  }

  async signInFailures(scope: string, since: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      'SELECT count(*) AS n FROM sign_in_failures WHERE scope = $1 AND at >= $2',
      [scope, since],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async clearSignInFailures(scope: string): Promise<void> {
    await this.pool.query('DELETE FROM sign_in_failures WHERE scope = $1', [scope]);
  }

  async withdrawSignInFailure(scope: string): Promise<void> {
    await this.pool.query(
      `DELETE FROM sign_in_failures WHERE ctid = (
         SELECT ctid FROM sign_in_failures WHERE scope = $1 ORDER BY at DESC LIMIT 1)`,
      [scope],
    );
  }

  async dailyUsage(accountId: string, period: string): Promise<DailyUsage[]> {
    const { rows } = await this.pool.query<DailyUsage>(
      `SELECT substr(created_at, 1, 10) AS day, sum(units) AS units FROM usage_ledger
       WHERE account_id = $1 AND period = $2 GROUP BY day ORDER BY day`,
      [accountId, period],
    );
    return rows.map((r) => ({ day: r.day, units: Number(r.units) }));
  }
}
