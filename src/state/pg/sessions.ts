import type pg from 'pg';
import { SESSION_TTL_MS } from '../quota.js';
import {
  OpenSessionLimitError,
  SessionConflictError,
  type SessionRecord,
  type SessionWrite,
} from '../records.js';
import type { SessionStore } from '../types.js';

/** Guided sessions in PostgreSQL: one row each, rewritten only from the version read. */
export class PgSessions implements SessionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
  ) {}

  /**
   * Writes a session inside the caller's transaction, or throws SessionConflictError, or (a new session
   * past its key's open sessions) OpenSessionLimitError.
   */
  async write(c: pg.ClientBase, w: SessionWrite, at: string): Promise<void> {
    if (w.expected_version === null && w.key_id && w.open_limit !== undefined) {
      // Starts for one key, on any replica, count one after the other: the lock lasts until the commit.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`heatsource:open-sessions:${w.key_id}`]);
      const { rows } = await c.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM diagnostic_sessions WHERE key_id = $1 AND status <> 'closed'",
        [w.key_id],
      );
      if (rows[0]!.n >= w.open_limit) throw new OpenSessionLimitError(w.open_limit);
    }
    const result =
      w.expected_version === null
        ? await c.query(
            `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at, key_id)
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $7, $8) ON CONFLICT (id) DO NOTHING`,
            [w.id, w.account_id, w.status, w.equipment, w.model ?? '{}', w.state, at, w.key_id ?? null],
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
