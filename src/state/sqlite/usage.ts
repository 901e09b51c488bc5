import type Database from 'better-sqlite3';
import { periodOf } from '../period.js';
import { quotaStatus } from '../quota.js';
import type { Account, ChargeInput, LedgerEntry, QuotaStatus, UsageSummary } from '../records.js';
import type { UsageStore } from '../types.js';

/**
 * What one group of charges (one transaction) has read and added so far: each account row is read once,
 * and each counter is written once at the end with the group's sum, instead of once per charge.
 */
export class ChargeTally {
  /** Each account charged, with its units used this period (read only for an account with a quota). */
  readonly accounts = new Map<string, { account: Account | undefined; used?: number }>();
  /** Units added per account and operation, written to the counters by `settle`. */
  readonly added = new Map<string, { account_id: string; operation: string; units: number }>();
}

/** The usage ledger and its per-period counters in SQLite. */
export class SqliteUsage implements UsageStore {
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly now: () => number,
    private readonly account: (id: string) => Account | undefined,
  ) {
    this.s = {
      counter: db.prepare(
        'SELECT coalesce(sum(used), 0) AS used FROM usage_counters WHERE account_id = ? AND period = ?',
      ),
      bumpCounter: db.prepare(
        `INSERT INTO usage_counters (account_id, period, operation, used) VALUES (?, ?, ?, 1)
         ON CONFLICT (account_id, period, operation) DO UPDATE SET used = used + 1`,
      ),
      addToCounter: db.prepare(
        `INSERT INTO usage_counters (account_id, period, operation, used) VALUES (?, ?, ?, ?)
         ON CONFLICT (account_id, period, operation) DO UPDATE SET used = used + excluded.used`,
      ),
      insertLedger: db.prepare(
        `INSERT INTO usage_ledger (account_id, key_id, operation, units, period, request_id, idempotency_key, created_at)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?)`,
      ),
      usageByOperation: db.prepare(
        'SELECT operation, used AS units FROM usage_counters WHERE account_id = ? AND period = ? ORDER BY operation',
      ),
    };
  }

  private quotaOf(account: Account, periodName: string, used?: number): QuotaStatus {
    const n = used ?? (this.s.counter.get(account.id, periodName) as { used: number } | undefined)?.used ?? 0;
    return quotaStatus(account, periodName, n);
  }

  /**
   * Charges one unit inside the caller's transaction, unless the quota is spent: then nothing is written
   * and the quota that refused it is returned.
   */
  charge(c: ChargeInput, period: string, at: string): QuotaStatus | undefined {
    const account = this.account(c.account_id);
    if (!account) throw new Error(`no account ${c.account_id}`);
    if (account.quota_limit !== null) {
      const used = (this.s.counter.get(c.account_id, period) as { used: number }).used;
      if (used >= account.quota_limit) return this.quotaOf(account, period, used);
    }
    this.s.insertLedger.run(c.account_id, c.key_id, c.operation, period, c.request_id, c.idempotency_key, at);
    this.s.bumpCounter.run(c.account_id, period, c.operation);
    return undefined;
  }

  /**
   * The same charge as `charge`, inside a group's transaction: the account and its units used are read
   * once per group and the counters are left to `settle`. The quota is checked against the units read
   * plus those the group has charged before this one, so the outcome is the one `charge` would give.
   */
  chargeInGroup(c: ChargeInput, period: string, at: string, tally: ChargeTally): QuotaStatus | undefined {
    let seen = tally.accounts.get(c.account_id);
    if (!seen) {
      seen = { account: this.account(c.account_id) };
      tally.accounts.set(c.account_id, seen);
    }
    const account = seen.account;
    if (!account) throw new Error(`no account ${c.account_id}`);
    if (account.quota_limit !== null) {
      seen.used ??= (this.s.counter.get(c.account_id, period) as { used: number }).used;
      if (seen.used >= account.quota_limit) return this.quotaOf(account, period, seen.used);
      seen.used++;
    }
    this.s.insertLedger.run(c.account_id, c.key_id, c.operation, period, c.request_id, c.idempotency_key, at);
    const key = `${c.account_id}\u0000${c.operation}`;
    const added = tally.added.get(key);
    if (added) added.units++;
    else tally.added.set(key, { account_id: c.account_id, operation: c.operation, units: 1 });
    return undefined;
  }

  /** Writes the counters of a group's charges, in the group's transaction. */
  settle(tally: ChargeTally, period: string): void {
    for (const a of tally.added.values()) this.s.addToCounter.run(a.account_id, period, a.operation, a.units);
  }

  async quota(accountId: string): Promise<QuotaStatus> {
    const account = this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    return this.quotaOf(account, periodOf(this.now()).name);
  }

  async ledger(
    options: { account_id?: string; period?: string; limit?: number } = {},
  ): Promise<LedgerEntry[]> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (options.account_id) {
      where.push('account_id = ?');
      values.push(options.account_id);
    }
    if (options.period) {
      where.push('period = ?');
      values.push(options.period);
    }
    const sql = `SELECT * FROM usage_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return this.db.prepare(sql).all(...values, options.limit ?? 1000) as LedgerEntry[];
  }

  async usage(accountId: string, period?: string): Promise<UsageSummary> {
    const account = this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const name = period ?? periodOf(this.now()).name;
    return {
      account,
      quota: this.quotaOf(account, name),
      by_operation: this.s.usageByOperation.all(accountId, name) as { operation: string; units: number }[],
    };
  }
}
