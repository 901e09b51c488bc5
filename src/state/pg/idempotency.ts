import type pg from 'pg';
import { type IdempotencyRow, onLiveRecord } from '../idempotency-record.js';
import { ownerGone } from '../process-owner.js';
import { IDEMPOTENCY_TTL_MS } from '../quota.js';
import { type IdempotencyBegin, IdempotencyCompletedError, type IdempotencyRef } from '../records.js';
import type { IdempotencyStore } from '../types.js';
import type { Transaction } from './connection.js';

/** Idempotency records in PostgreSQL: the primary key picks the one request that runs, on any replica. */
export class PgIdempotency implements IdempotencyStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly tx: Transaction,
    private readonly now: () => number,
    /** Who holds the in-flight records this store writes. */
    private readonly owner: string,
  ) {}

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
        await c.query<IdempotencyRow>(
          'SELECT * FROM idempotency_records WHERE scope = $1 AND key = $2 FOR UPDATE',
          [ref.scope, ref.key],
        )
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
      // A lease of a process known to be gone (same host, see process-owner.ts) is taken over at once.
      const decision = onLiveRecord(row, fingerprint, now);
      if (decision.kind !== 'take_over') return decision;
      await c.query(
        'UPDATE idempotency_records SET created_at = $1, owner = $2 WHERE scope = $3 AND key = $4',
        [now, this.owner, ref.scope, ref.key],
      );
      return { kind: 'started' };
    });
  }

  /** Stores the response inside the caller's transaction; the record must still be in flight. */
  async finish(c: pg.ClientBase, i: IdempotencyRef & { status: number; body: string }): Promise<void> {
    const done = await c.query(
      `UPDATE idempotency_records SET state = 'done', response_status = $1, response_body = $2
       WHERE scope = $3 AND key = $4 AND state = 'in_flight'`,
      [i.status, i.body, i.scope, i.key],
    );
    if (done.rowCount !== 1) throw new IdempotencyCompletedError({ scope: i.scope, key: i.key });
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

  async purgeExpiredIdempotency(): Promise<number> {
    return (
      (await this.pool.query('DELETE FROM idempotency_records WHERE expires_at <= $1', [this.now()]))
        .rowCount ?? 0
    );
  }
}
