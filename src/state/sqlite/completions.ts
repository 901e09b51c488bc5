import type Database from 'better-sqlite3';
import { periodOf } from '../period.js';
import type { CompleteOutcome } from '../records.js';
import type { CompleteInput } from '../types.js';
import type { SqliteIdempotency } from './idempotency.js';
import type { SqliteSessions } from './sessions.js';
import type { SqliteUsage } from './usage.js';

type Settled = { ok: true; value: CompleteOutcome } | { ok: false; error: unknown };

/**
 * Completions in SQLite: the charge, the session write and the stored response of one request in one
 * savepoint, and every completion requested during one turn of the event loop in one transaction (quota
 * checked in order), since a commit costs far more than the rows it writes. Each caller resolves only
 * once its group is committed.
 */
export class SqliteCompletions {
  private readonly pending: {
    input: CompleteInput;
    resolve: (o: CompleteOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private readonly group;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
    private readonly parts: { usage: SqliteUsage; sessions: SqliteSessions; idempotency: SqliteIdempotency },
  ) {
    // One savepoint per completion inside the group's transaction: a failing one leaves the others whole.
    const one = db.transaction((input: CompleteInput, period: string, at: string) =>
      this.completeOne(input, period, at),
    );
    this.group = db.transaction((inputs: CompleteInput[], outcomes: Settled[]) => {
      const now = this.now();
      const period = periodOf(now).name;
      const at = new Date(now).toISOString();
      for (const input of inputs) {
        try {
          outcomes.push({ ok: true, value: one(input, period, at) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  }

  complete(input: CompleteInput): Promise<CompleteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  /** Commits what is queued now (also called on close, so that nothing queued is lost). */
  flush(): void {
    const batch = this.pending.splice(0);
    if (batch.length === 0) return;
    const outcomes: Settled[] = [];
    try {
      this.group.immediate(
        batch.map((b) => b.input),
        outcomes,
      );
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    batch.forEach((b, i) => {
      const o = outcomes[i]!;
      if (o.ok) b.resolve(o.value);
      else b.reject(o.error);
    });
  }

  get queued(): number {
    return this.pending.length;
  }

  private completeOne(input: CompleteInput, period: string, at: string): CompleteOutcome {
    if (input.charge) {
      const refused = this.parts.usage.charge(input.charge, period, at);
      if (refused) return { ok: false, quota: refused };
    }
    if (input.session) this.parts.sessions.write(input.session, at);
    if (input.idempotency) this.parts.idempotency.finish(input.idempotency);
    return { ok: true };
  }
}
