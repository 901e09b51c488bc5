import type Database from 'better-sqlite3';
import { SESSION_TTL_MS } from '../quota.js';
import {
  OpenSessionLimitError,
  SessionConflictError,
  type SessionRecord,
  type SessionWrite,
} from '../records.js';
import type { SessionStore } from '../types.js';

/** Guided sessions in SQLite: one row each, rewritten only from the version read. */
export class SqliteSessions implements SessionStore {
  private statements?: ReturnType<SqliteSessions['prepare']>;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
  ) {}

  /** Prepared on first use, so that a store opened with fewer migrations (tests) still opens. */
  private get s() {
    this.statements ??= this.prepare();
    return this.statements;
  }

  private prepare() {
    const db = this.db;
    return {
      get: db.prepare(
        `SELECT id, account_id, status, equipment, version, model, state, created_at, updated_at
         FROM diagnostic_sessions WHERE id = ?`,
      ),
      list: db.prepare(
        `SELECT id, account_id, status, equipment, version, state, created_at, updated_at
         FROM diagnostic_sessions WHERE account_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
      ),
      insert: db.prepare(
        `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at, key_id)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
      ),
      openOfKey: db.prepare(
        "SELECT count(*) AS n FROM diagnostic_sessions WHERE key_id = ? AND status <> 'closed'",
      ),
      update: db.prepare(
        `UPDATE diagnostic_sessions SET status = ?, state = ?, version = version + 1, updated_at = ?
         WHERE id = ? AND account_id = ? AND version = ?`,
      ),
      purge: db.prepare('DELETE FROM diagnostic_sessions WHERE updated_at < ?'),
    };
  }

  /**
   * Writes a session inside the caller's transaction, or throws SessionConflictError, or (a new session
   * past its key's open sessions) OpenSessionLimitError. The transaction holds the file's write lock, so
   * two starts for one key are counted one after the other.
   */
  write(w: SessionWrite, at: string): void {
    if (w.expected_version === null && w.key_id && w.open_limit !== undefined) {
      const open = (this.s.openOfKey.get(w.key_id) as { n: number }).n;
      if (open >= w.open_limit) throw new OpenSessionLimitError(w.open_limit);
    }
    const changes =
      w.expected_version === null
        ? this.s.insert.run(
            w.id,
            w.account_id,
            w.status,
            w.equipment,
            w.model ?? '{}',
            w.state,
            at,
            at,
            w.key_id ?? null,
          ).changes
        : this.s.update.run(w.status, w.state, at, w.id, w.account_id, w.expected_version).changes;
    if (changes !== 1) throw new SessionConflictError(w.id);
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    return this.s.get.get(id) as SessionRecord | undefined;
  }

  async sessions(
    accountId: string,
    options: { limit?: number } = {},
  ): Promise<Omit<SessionRecord, 'model'>[]> {
    return this.s.list.all(accountId, options.limit ?? 50) as Omit<SessionRecord, 'model'>[];
  }

  async purgeExpiredSessions(): Promise<number> {
    const before = new Date(this.now() - SESSION_TTL_MS).toISOString();
    return this.s.purge.run(before).changes;
  }
}
