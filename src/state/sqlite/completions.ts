import type Database from 'better-sqlite3';
import { periodOf } from '../period.js';
import type { CompleteOutcome } from '../records.js';
import type { CompleteInput } from '../types.js';
import type { SqliteIdempotency } from './idempotency.js';
import type { SqliteSessions } from './sessions.js';
import { ChargeTally, type SqliteUsage } from './usage.js';

type Settled = { ok: true; value: CompleteOutcome } | { ok: false; error: unknown };

/** Thrown out of a group's single pass when one of its completions fails, to roll the pass back. */
const RETRY_ONE_BY_ONE = Symbol('retry the group with a savepoint per completion');

/**
 * Completions in SQLite: every completion requested during one turn of the event loop in one transaction
 * (quota checked in order), since a commit costs far more than the rows it writes; each completion's
 * charge, session write and stored response succeed or fail together. Each caller resolves only once its
 * group is committed.
 *
 * A group is first written in a single pass: each account read once, each usage counter written once
 * with the group's sum, no savepoint per completion (together about a third of what a charge costs in a
 * group of seven). Should any completion fail in it (a session written meanwhile, one open session too
 * many, a stored response taken over), the pass is rolled back and the group written again with a
 * savepoint per completion, so that the failing one leaves the others whole: both ways commit the same
 * rows and give each caller the same outcome.
 */
export class SqliteCompletions {
  private readonly pending: {
    input: CompleteInput;
    resolve: (o: CompleteOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];
  private readonly singlePass;
  private readonly oneByOne;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
    private readonly parts: { usage: SqliteUsage; sessions: SqliteSessions; idempotency: SqliteIdempotency },
  ) {
    this.singlePass = db.transaction((inputs: CompleteInput[], outcomes: Settled[]) => {
      const { period, at } = this.clock();
      const tally = new ChargeTally();
      for (const input of inputs) {
        let value: CompleteOutcome;
        try {
          value = this.completeOne(input, period, at, tally);
        } catch {
          throw RETRY_ONE_BY_ONE;
        }
        outcomes.push({ ok: true, value });
      }
      this.parts.usage.settle(tally, period);
    });
    // One savepoint per completion inside the group's transaction: a failing one leaves the others whole.
    const one = db.transaction((input: CompleteInput, period: string, at: string) =>
      this.completeOne(input, period, at),
    );
    this.oneByOne = db.transaction((inputs: CompleteInput[], outcomes: Settled[]) => {
      const { period, at } = this.clock();
      for (const input of inputs) {
        try {
          outcomes.push({ ok: true, value: one(input, period, at) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
    });
  }

  private clock(): { period: string; at: string } {
    const now = this.now();
    return { period: periodOf(now).name, at: new Date(now).toISOString() };
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
    const inputs = batch.map((b) => b.input);
    let outcomes: Settled[] = [];
    try {
      try {
        this.singlePass.immediate(inputs, outcomes);
      } catch (error) {
        if (error !== RETRY_ONE_BY_ONE) throw error;
        outcomes = [];
        this.oneByOne.immediate(inputs, outcomes);
      }
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

  /** One completion; with a tally, as part of a group's single pass (counters written at its end). */
  private completeOne(
    input: CompleteInput,
    period: string,
    at: string,
    tally?: ChargeTally,
  ): CompleteOutcome {
    if (input.charge) {
      const refused = tally
        ? this.parts.usage.chargeInGroup(input.charge, period, at, tally)
        : this.parts.usage.charge(input.charge, period, at);
      if (refused) return { ok: false, quota: refused };
    }
    if (input.session) this.parts.sessions.write(input.session, at);
    if (input.idempotency) this.parts.idempotency.finish(input.idempotency);
    return { ok: true };
  }
}
