import type pg from 'pg';
import type { Json } from '../json-delta.js';
import { SESSION_TTL_MS } from '../quota.js';
import {
  OpenSessionLimitError,
  SessionConflictError,
  type SessionRecord,
  type SessionWrite,
} from '../records.js';
import { decodeModel, encodeModel, type ModelBase, ModelBaseCache, modelHash } from '../session-models.js';
import type { SessionStore } from '../types.js';

/** Guided sessions in PostgreSQL: one row each, rewritten only from the version read. */
export class PgSessions implements SessionStore {
  private readonly bases = new ModelBaseCache();

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
    const stored = w.expected_version === null ? await this.storedModel(c, w, at) : undefined;
    const result =
      w.expected_version === null
        ? await c.query(
            `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at, key_id, model_base)
             VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
            [
              w.id,
              w.account_id,
              w.status,
              w.equipment,
              stored?.model ?? w.model ?? '{}',
              w.state,
              at,
              w.key_id ?? null,
              stored?.base ?? null,
            ],
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

  /**
   * A labelled model as its delta over the label's base (see session-models.ts), the model itself
   * becoming the base when the label has none yet; undefined stores the full model.
   */
  private async storedModel(
    c: pg.ClientBase,
    w: SessionWrite,
    at: string,
  ): Promise<{ model: string; base: string } | undefined> {
    if (!w.model_label || !w.model) return undefined;
    const base =
      (await this.baseOfLabel(c, w.model_label)) ??
      this.bases.remember(w.model_label, modelHash(w.model), w.model);
    const exists = await c.query('SELECT 1 FROM session_model_bases WHERE hash = $1', [base.hash]);
    if (exists.rowCount === 0) {
      await c.query(
        `INSERT INTO session_model_bases (hash, label, model, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (hash) DO NOTHING`,
        [base.hash, w.model_label, base.text, at],
      );
    }
    const model = encodeModel(w.model, base);
    return model === undefined ? undefined : { model, base: base.hash };
  }

  private async baseOfLabel(c: pg.ClientBase, label: string): Promise<ModelBase | undefined> {
    const cached = this.bases.ofLabel(label);
    if (cached) return cached;
    const { rows } = await c.query<{ hash: string; model: string }>(
      'SELECT hash, model FROM session_model_bases WHERE label = $1 ORDER BY created_at, hash LIMIT 1',
      [label],
    );
    return rows[0] && this.bases.remember(label, rows[0].hash, rows[0].model);
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    const { rows } = await this.pool.query<SessionRecord & { model_base: string | null }>(
      `SELECT id, account_id, status, equipment, version, model, state, created_at, updated_at, model_base
       FROM diagnostic_sessions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (!row) return undefined;
    const { model_base, ...record } = row;
    if (model_base === null) return record;
    let base: Json | undefined = this.bases.base(model_base);
    if (base === undefined) {
      const found = await this.pool.query<{ model: string }>(
        'SELECT model FROM session_model_bases WHERE hash = $1',
        [model_base],
      );
      if (!found.rows[0]) throw new Error(`session ${id}: its model base ${model_base} is missing`);
      base = this.bases.remember(null, model_base, found.rows[0].model).value;
    }
    return { ...record, model: decodeModel(record.model, base) };
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
