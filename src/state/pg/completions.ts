import type pg from 'pg';
import { periodOf } from '../period.js';
import { quotaStatus } from '../quota.js';
import {
  type ChargeInput,
  type CompleteOutcome,
  IdempotencyCompletedError,
  OpenSessionLimitError,
  SessionConflictError,
} from '../records.js';
import type { CompleteInput } from '../types.js';
import type { Transaction } from './connection.js';
import type { PgIdempotency } from './idempotency.js';
import type { PgSessions } from './sessions.js';
import type { PgUsage } from './usage.js';

type Settled = { ok: true; value: CompleteOutcome } | { ok: false; error: unknown };

/** Completions per transaction at most, so that a burst does not hold its account locks for long. */
const MAX_GROUP = 64;

function isOwnRefusal(err: unknown): boolean {
  if (
    err instanceof SessionConflictError ||
    err instanceof IdempotencyCompletedError ||
    err instanceof OpenSessionLimitError
  )
    return true;
  // A data or integrity error of one statement (a foreign key, a bad value) is that completion's alone.
  return /^(22|23)/.test((err as { code?: string }).code ?? '');
}

/**
 * Completions in PostgreSQL, committed in groups as in the SQLite store: those requested while the
 * previous group commits go into the next transaction together, each in its own savepoint, so that one
 * commit (and its fsync) serves many requests.
 */
export class PgCompletions {
  private flushRun?: Promise<void>;
  private readonly pending: {
    input: CompleteInput;
    resolve: (o: CompleteOutcome) => void;
    reject: (e: unknown) => void;
  }[] = [];

  constructor(
    private readonly tx: Transaction,
    private readonly now: () => number,
    private readonly parts: { usage: PgUsage; sessions: PgSessions; idempotency: PgIdempotency },
  ) {}

  complete(input: CompleteInput): Promise<CompleteOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      this.kick();
    });
  }

  /** Settles when the group being committed (if any) has been. */
  async drain(): Promise<void> {
    await this.flushRun;
  }

  private kick(): void {
    if (this.flushRun) return;
    this.flushRun = this.flush().finally(() => {
      this.flushRun = undefined;
      // Requested after the loop's last look at the queue: they start the next group.
      if (this.pending.length > 0) this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_GROUP);
      let outcomes: Settled[] | undefined;
      let failure: unknown;
      for (let attempt = 0; attempt < 3 && !outcomes; attempt++) {
        try {
          outcomes = await this.completeGroup(batch.map((b) => b.input));
        } catch (err) {
          failure = err;
          // A deadlock or serialisation failure rolled the whole group back: nothing was written.
          if (!['40P01', '40001'].includes((err as { code?: string }).code ?? '')) break;
        }
      }
      batch.forEach((b, i) => {
        const o = outcomes?.[i];
        if (!o) b.reject(failure);
        else if (o.ok) b.resolve(o.value);
        else b.reject(o.error);
      });
    }
  }

  /**
   * One transaction for a group: the accounts charged are locked at once (in id order) and their usage
   * read once; then each completion in order is checked against the quota as it stands after the ones
   * before it, and its session and idempotency writes run in a savepoint of their own; the accepted
   * charges are written at the end, as one ledger insert and one counter update per account and
   * operation. A group of plain charges costs six round trips, however many it holds.
   */
  private async completeGroup(inputs: CompleteInput[]): Promise<Settled[]> {
    const now = this.now();
    const period = periodOf(now).name;
    const at = new Date(now).toISOString();
    return this.tx(async (c) => {
      const ids = [...new Set(inputs.flatMap((i) => (i.charge ? [i.charge.account_id] : [])))].sort();
      const { accounts, used } = await this.parts.usage.lockForCharges(c, ids, period);
      const charges: ChargeInput[] = [];
      const outcomes: Settled[] = [];
      for (const input of inputs) {
        const ch = input.charge;
        const account = ch ? accounts.get(ch.account_id) : undefined;
        if (ch && !account) {
          outcomes.push({ ok: false, error: new Error(`no account ${ch.account_id}`) });
          continue;
        }
        if (ch && account && account.quota_limit !== null) {
          const n = used.get(account.id) ?? 0;
          if (n >= account.quota_limit) {
            outcomes.push({ ok: true, value: { ok: false, quota: quotaStatus(account, period, n) } });
            continue;
          }
        }
        if (input.session || input.idempotency) {
          await c.query('SAVEPOINT one');
          try {
            await this.writeRequestRows(c, input, at);
            await c.query('RELEASE SAVEPOINT one');
          } catch (error) {
            if (!isOwnRefusal(error)) throw error;
            await c.query('ROLLBACK TO SAVEPOINT one');
            outcomes.push({ ok: false, error });
            continue;
          }
        }
        if (ch) {
          charges.push(ch);
          used.set(ch.account_id, (used.get(ch.account_id) ?? 0) + 1);
        }
        outcomes.push({ ok: true, value: { ok: true } });
      }
      await this.parts.usage.writeCharges(c, charges, period, at);
      return outcomes;
    });
  }

  /** The rows a completion writes besides its charge: its session, and its response for replay. */
  private async writeRequestRows(c: pg.ClientBase, input: CompleteInput, at: string): Promise<void> {
    if (input.session) await this.parts.sessions.write(c, input.session, at);
    if (input.idempotency) await this.parts.idempotency.finish(c, input.idempotency);
  }
}
