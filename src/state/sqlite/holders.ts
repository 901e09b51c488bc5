import type Database from 'better-sqlite3';
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

/** The HolderStore group of the SQLite store, over the same database handle. */
export class SqliteHolders implements HolderStore {
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {
    this.s = {
      insertInvitation: db.prepare(
        'INSERT INTO invitations (id, account_id, email, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      invitation: db.prepare(
        'SELECT id, account_id, email, created_at, expires_at, used_at FROM invitations WHERE token_hash = ?',
      ),
      // Re-inviting an email ends the earlier links to it: the usual reason to re-invite is a link that
      // went astray, and that link must not set the password afterwards.
      endInvitationsOf: db.prepare(
        'UPDATE invitations SET expires_at = ? WHERE email = ? AND used_at IS NULL AND expires_at > ?',
      ),
      useInvitation: db.prepare(
        'UPDATE invitations SET used_at = ? WHERE id = ? AND used_at IS NULL AND expires_at > ?',
      ),
      holderByEmail: db.prepare('SELECT * FROM account_holders WHERE email = ?'),
      holder: db.prepare('SELECT id, account_id, email, created_at FROM account_holders WHERE id = ?'),
      holders: db.prepare(
        'SELECT id, account_id, email, created_at FROM account_holders WHERE account_id = ? ORDER BY created_at, id',
      ),
      insertHolder: db.prepare(
        'INSERT INTO account_holders (id, account_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
      ),
      setPassword: db.prepare('UPDATE account_holders SET password_hash = ? WHERE id = ?'),
      endSessionsOf: db.prepare('DELETE FROM console_sessions WHERE holder_id = ?'),
      insertSession: db.prepare(
        'INSERT INTO console_sessions (token_hash, holder_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      ),
      purgeSessions: db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?'),
      session: db.prepare(
        `SELECT s.expires_at, h.id AS holder_id, h.email, h.created_at AS holder_created_at, a.*
         FROM console_sessions s JOIN account_holders h ON h.id = s.holder_id
         JOIN accounts a ON a.id = h.account_id
         WHERE s.token_hash = ? AND s.expires_at > ?`,
      ),
      deleteSession: db.prepare('DELETE FROM console_sessions WHERE token_hash = ?'),
      insertFailure: db.prepare('INSERT INTO sign_in_failures (scope, at) VALUES (?, ?)'),
      purgeFailures: db.prepare('DELETE FROM sign_in_failures WHERE at < ?'),
      failures: db.prepare('SELECT count(*) AS n FROM sign_in_failures WHERE scope = ? AND at >= ?'),
      withdrawFailure: db.prepare(
        'DELETE FROM sign_in_failures WHERE rowid = (SELECT rowid FROM sign_in_failures WHERE scope = ? ORDER BY at DESC LIMIT 1)',
      ),
      clearFailures: db.prepare('DELETE FROM sign_in_failures WHERE scope = ?'),
      // The ledger is deliberately unindexed (charges stay cheap); this page-view query scans it.
      daily: db.prepare(
        `SELECT substr(created_at, 1, 10) AS day, sum(units) AS units FROM usage_ledger
         WHERE account_id = ? AND period = ? GROUP BY day ORDER BY day`,
      ),
    };
  }

  private iso(ms = this.now()): string {
    return new Date(ms).toISOString();
  }

  async createInvitation(input: {
    account_id: string;
    email: string;
    token_hash: Buffer;
    expires_at: string;
  }): Promise<Invitation> {
    const id = newHolderId('inv');
    const email = input.email.trim().toLowerCase();
    const now = this.iso();
    this.db.transaction(() => {
      this.s.endInvitationsOf.run(now, email, now);
      this.s.insertInvitation.run(id, input.account_id, email, input.token_hash, now, input.expires_at);
    })();
    return this.s.invitation.get(input.token_hash) as Invitation;
  }

  async openInvitation(tokenHash: Buffer): Promise<Invitation | undefined> {
    const row = this.s.invitation.get(tokenHash) as Invitation | undefined;
    if (!row || row.used_at !== null || row.expires_at <= this.iso()) return undefined;
    return row;
  }

  async acceptInvitation(tokenHash: Buffer, passwordHash: string): Promise<AccountHolder | undefined> {
    return this.db
      .transaction((): AccountHolder | undefined => {
        const now = this.iso();
        const inv = this.s.invitation.get(tokenHash) as Invitation | undefined;
        if (!inv || this.s.useInvitation.run(now, inv.id, now).changes !== 1) return undefined;
        const existing = this.s.holderByEmail.get(inv.email) as AccountHolderWithPassword | undefined;
        if (existing) {
          // An email belongs to one account; an invitation for it from another account is void.
          if (existing.account_id !== inv.account_id) return undefined;
          this.s.setPassword.run(passwordHash, existing.id);
          this.s.endSessionsOf.run(existing.id);
          return this.s.holder.get(existing.id) as AccountHolder;
        }
        const id = newHolderId('hol');
        this.s.insertHolder.run(id, inv.account_id, inv.email, passwordHash, now);
        return this.s.holder.get(id) as AccountHolder;
      })
      .immediate();
  }

  async holderByEmail(email: string): Promise<AccountHolderWithPassword | undefined> {
    return this.s.holderByEmail.get(email.trim().toLowerCase()) as AccountHolderWithPassword | undefined;
  }

  async holders(accountId: string): Promise<AccountHolder[]> {
    return this.s.holders.all(accountId) as AccountHolder[];
  }

  async createConsoleSession(input: {
    token_hash: Buffer;
    holder_id: string;
    expires_at: string;
  }): Promise<void> {
    const now = this.iso();
    this.s.purgeSessions.run(now);
    this.s.insertSession.run(input.token_hash, input.holder_id, now, input.expires_at);
  }

  async consoleSession(tokenHash: Buffer): Promise<ConsoleSessionInfo | undefined> {
    const row = this.s.session.get(tokenHash, this.iso()) as
      | (Account & { expires_at: string; holder_id: string; email: string; holder_created_at: string })
      | undefined;
    if (!row) return undefined;
    const { expires_at, holder_id, email, holder_created_at, ...account } = row;
    return {
      expires_at,
      holder: { id: holder_id, account_id: account.id, email, created_at: holder_created_at },
      account,
    };
  }

  async deleteConsoleSession(tokenHash: Buffer): Promise<void> {
    this.s.deleteSession.run(tokenHash);
  }

  async recordSignInFailure(scopes: string[]): Promise<void> {
    const now = this.now();
    this.db.transaction(() => {
      this.s.purgeFailures.run(this.iso(now - FAILURE_MEMORY_MS));
      for (const scope of scopes) this.s.insertFailure.run(scope, this.iso(now));
    })();
  }

  async signInFailures(scope: string, since: string): Promise<number> {
    return (this.s.failures.get(scope, since) as { n: number }).n;
  }

  async clearSignInFailures(scope: string): Promise<void> {
    this.s.clearFailures.run(scope);
  }

  async withdrawSignInFailure(scope: string): Promise<void> {
    this.s.withdrawFailure.run(scope);
  }

  async dailyUsage(accountId: string, period: string): Promise<DailyUsage[]> {
    return this.s.daily.all(accountId, period) as DailyUsage[];
  }
}
