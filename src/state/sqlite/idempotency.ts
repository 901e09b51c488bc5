import type Database from 'better-sqlite3';
import { type IdempotencyRow, onLiveRecord } from '../idempotency-record.js';
import { ownerGone } from '../process-owner.js';
import { IDEMPOTENCY_TTL_MS } from '../quota.js';
import { type IdempotencyBegin, IdempotencyCompletedError, type IdempotencyRef } from '../records.js';
import type { IdempotencyStore } from '../types.js';

/** Idempotency records in SQLite: the file's write lock orders the requests that start one key. */
export class SqliteIdempotency implements IdempotencyStore {
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    /** Who holds the in-flight records this store writes. */
    private readonly owner: string,
  ) {
    this.s = {
      get: db.prepare(
        'SELECT fingerprint, state, response_status, response_body, created_at, expires_at, owner FROM idempotency_records WHERE scope = ? AND key = ?',
      ),
      insert: db.prepare(
        `INSERT INTO idempotency_records (scope, key, fingerprint, state, created_at, expires_at, owner)
         VALUES (?, ?, ?, 'in_flight', ?, ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'in_flight',
           response_status = NULL, response_body = NULL, created_at = excluded.created_at,
           expires_at = excluded.expires_at, owner = excluded.owner`,
      ),
      takeOver: db.prepare(
        'UPDATE idempotency_records SET created_at = ?, owner = ? WHERE scope = ? AND key = ?',
      ),
      owners: db.prepare(
        "SELECT DISTINCT owner FROM idempotency_records WHERE state = 'in_flight' AND owner IS NOT NULL",
      ),
      releaseOwner: db.prepare("DELETE FROM idempotency_records WHERE state = 'in_flight' AND owner = ?"),
      done: db.prepare(
        `UPDATE idempotency_records SET state = 'done', response_status = ?, response_body = ?
         WHERE scope = ? AND key = ? AND state = 'in_flight'`,
      ),
      delete: db.prepare(
        "DELETE FROM idempotency_records WHERE scope = ? AND key = ? AND state = 'in_flight'",
      ),
      purge: db.prepare('DELETE FROM idempotency_records WHERE expires_at <= ?'),
    };
  }

  async beginIdempotent(ref: IdempotencyRef, fingerprint: string): Promise<IdempotencyBegin> {
    const now = this.now();
    return this.db
      .transaction((): IdempotencyBegin => {
        const row = this.s.get.get(ref.scope, ref.key) as IdempotencyRow | undefined;
        if (row && row.expires_at > now) {
          const decision = onLiveRecord(row, fingerprint, now);
          if (decision.kind !== 'take_over') return decision;
          this.s.takeOver.run(now, this.owner, ref.scope, ref.key);
          return { kind: 'started' };
        }
        this.s.insert.run(ref.scope, ref.key, fingerprint, now, now + IDEMPOTENCY_TTL_MS, this.owner);
        return { kind: 'started' };
      })
      .immediate();
  }

  /** Stores the response inside the caller's transaction; the record must still be in flight. */
  finish(i: IdempotencyRef & { status: number; body: string }): void {
    if (this.s.done.run(i.status, i.body, i.scope, i.key).changes !== 1)
      throw new IdempotencyCompletedError({ scope: i.scope, key: i.key });
  }

  async abandonIdempotent(ref: IdempotencyRef): Promise<void> {
    this.s.delete.run(ref.scope, ref.key);
  }

  async reclaimAbandonedIdempotency(): Promise<number> {
    let released = 0;
    for (const { owner } of this.s.owners.all() as { owner: string }[]) {
      if (ownerGone(owner)) released += this.s.releaseOwner.run(owner).changes;
    }
    return released;
  }

  async purgeExpiredIdempotency(): Promise<number> {
    return this.s.purge.run(this.now()).changes;
  }
}
