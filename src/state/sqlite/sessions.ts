import type Database from 'better-sqlite3';
import { SESSION_TTL_MS } from '../quota.js';
import {
  OpenSessionLimitError,
  SessionConflictError,
  type SessionRecord,
  type SessionWrite,
} from '../records.js';
import { decodeModel, encodeModel, type ModelBase, ModelBaseCache, modelHash } from '../session-models.js';
import type { SessionStore } from '../types.js';

/** Guided sessions in SQLite: one row each, rewritten only from the version read. */
export class SqliteSessions implements SessionStore {
  private statements?: ReturnType<SqliteSessions['prepare']>;
  private readonly bases = new ModelBaseCache();

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
        `SELECT id, account_id, status, equipment, version, model, state, created_at, updated_at, model_base
         FROM diagnostic_sessions WHERE id = ?`,
      ),
      base: db.prepare('SELECT model FROM session_model_bases WHERE hash = ?').pluck(),
      hasBase: db.prepare('SELECT 1 FROM session_model_bases WHERE hash = ?').pluck(),
      baseOfLabel: db.prepare(
        'SELECT hash, model FROM session_model_bases WHERE label = ? ORDER BY created_at, hash LIMIT 1',
      ),
      insertBase: db.prepare(
        `INSERT INTO session_model_bases (hash, label, model, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (hash) DO NOTHING`,
      ),
      list: db.prepare(
        `SELECT id, account_id, status, equipment, version, state, created_at, updated_at
         FROM diagnostic_sessions WHERE account_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
      ),
      insert: db.prepare(
        `INSERT INTO diagnostic_sessions (id, account_id, status, equipment, version, model, state, created_at, updated_at, key_id, model_base)
         VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
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
    const stored = w.expected_version === null ? this.storedModel(w, at) : undefined;
    const changes =
      w.expected_version === null
        ? this.s.insert.run(
            w.id,
            w.account_id,
            w.status,
            w.equipment,
            stored?.model ?? w.model ?? '{}',
            w.state,
            at,
            at,
            w.key_id ?? null,
            stored?.base ?? null,
          ).changes
        : this.s.update.run(w.status, w.state, at, w.id, w.account_id, w.expected_version).changes;
    if (changes !== 1) throw new SessionConflictError(w.id);
  }

  /**
   * A labelled model as its delta over the label's base, the model itself becoming the base when the
   * label has none yet; undefined stores the full model.
   */
  private storedModel(w: SessionWrite, at: string): { model: string; base: string } | undefined {
    if (!w.model_label || !w.model) return undefined;
    const base =
      this.baseOfLabel(w.model_label) ?? this.bases.remember(w.model_label, modelHash(w.model), w.model);
    if (this.s.hasBase.get(base.hash) === undefined) {
      this.s.insertBase.run(base.hash, w.model_label, base.text, at);
    }
    const model = encodeModel(w.model, base);
    return model === undefined ? undefined : { model, base: base.hash };
  }

  private baseOfLabel(label: string): ModelBase | undefined {
    const cached = this.bases.ofLabel(label);
    if (cached) return cached;
    const row = this.s.baseOfLabel.get(label) as { hash: string; model: string } | undefined;
    return row && this.bases.remember(label, row.hash, row.model);
  }

  async session(id: string): Promise<SessionRecord | undefined> {
    const row = this.s.get.get(id) as (SessionRecord & { model_base: string | null }) | undefined;
    if (!row) return undefined;
    const { model_base, ...record } = row;
    if (model_base === null) return record;
    let base = this.bases.base(model_base);
    if (base === undefined) {
      const text = this.s.base.get(model_base) as string | undefined;
      if (text === undefined) throw new Error(`session ${id}: its model base ${model_base} is missing`);
      base = this.bases.remember(null, model_base, text).value;
    }
    return { ...record, model: decodeModel(record.model, base) };
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
