import type pg from 'pg';
import { SESSION_TTL_MS } from '../quota.js';
import { SessionConflictError, type SessionRecord, type SessionWrite } from '../records.js';
import type { SessionStore } from '../types.js';

/** Guided sessions in PostgreSQL: one row each, rewritten only from the version read. */
export class PgSessions implements SessionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  /** Writes a session inside the caller's transaction, or throws SessionConflictError. */
  async write(c: pg.ClientBase, w: SessionWrite, at: string): Promise<void> {
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

  async purgeExpiredSessions(): Promise<number> {
    const before = new Date(this.now() - SESSION_TTL_MS).toISOString();
    return (
      (await this.pool.query('DELETE FROM diagnostic_sessions WHERE updated_at < $1', [before])).rowCount ?? 0
    );
  }
}
