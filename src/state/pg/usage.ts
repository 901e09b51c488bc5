import type pg from 'pg';
import { periodOf } from '../period.js';
import { quotaStatus } from '../quota.js';
import type { Account, ChargeInput, LedgerEntry, QuotaStatus, UsageSummary } from '../records.js';
import type { UsageStore } from '../types.js';

/** The usage ledger and its per-period counters in PostgreSQL. */
export class PgUsage implements UsageStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number,
    private readonly account: (id: string) => Promise<Account | undefined>,
  ) {}

  private async used(c: pg.ClientBase | pg.Pool, accountId: string, period: string): Promise<number> {
    const { rows } = await c.query<{ used: number }>(
      'SELECT coalesce(sum(used), 0) AS used FROM usage_counters WHERE account_id = $1 AND period = $2',
      [accountId, period],
    );
    return rows[0]!.used;
  }

  async quota(accountId: string): Promise<QuotaStatus> {
    const account = await this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const period = periodOf(this.now()).name;
    return quotaStatus(account, period, await this.used(this.pool, accountId, period));
  }

  async ledger(
    options: { account_id?: string; period?: string; limit?: number } = {},
  ): Promise<LedgerEntry[]> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (options.account_id) {
      values.push(options.account_id);
      where.push(`account_id = $${values.length}`);
    }
    if (options.period) {
      values.push(options.period);
      where.push(`period = $${values.length}`);
    }
    values.push(options.limit ?? 1000);
    const sql = `SELECT * FROM usage_ledger ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${values.length}`;
    return (await this.pool.query<LedgerEntry>(sql, values)).rows;
  }

  async usage(accountId: string, period?: string): Promise<UsageSummary> {
    const account = await this.account(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const name = period ?? periodOf(this.now()).name;
    const { rows } = await this.pool.query<{ operation: string; units: number }>(
      'SELECT operation, used AS units FROM usage_counters WHERE account_id = $1 AND period = $2 ORDER BY operation',
      [accountId, name],
    );
    return {
      account,
      quota: quotaStatus(account, name, await this.used(this.pool, accountId, name)),
      by_operation: rows,
    };
  }

  /**
   * Locks the accounts a group charges (in id order) until the caller's transaction commits, and reads
   * the usage of the limited ones in the period: charges of one account, from any process, are then
   * checked against its quota one group after another, so the quota is never overshot.
   */
  async lockForCharges(
    c: pg.ClientBase,
    ids: string[],
    period: string,
  ): Promise<{ accounts: Map<string, Account>; used: Map<string, number> }> {
    const accounts = new Map<string, Account>();
    const used = new Map<string, number>();
    if (ids.length === 0) return { accounts, used };
    const locked = await c.query<Account>(
      'SELECT * FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE',
      [ids],
    );
    for (const a of locked.rows) accounts.set(a.id, a);
    const limited = locked.rows.filter((a) => a.quota_limit !== null).map((a) => a.id);
    if (limited.length > 0) {
      const sums = await c.query<{ account_id: string; used: number }>(
        `SELECT account_id, coalesce(sum(used), 0) AS used FROM usage_counters
         WHERE account_id = ANY($1) AND period = $2 GROUP BY account_id`,
        [limited, period],
      );
      for (const r of sums.rows) used.set(r.account_id, r.used);
    }
    return { accounts, used };
  }

  /** Writes accepted charges as one ledger insert and one counter update per account and operation. */
  async writeCharges(c: pg.ClientBase, charges: ChargeInput[], period: string, at: string): Promise<void> {
    if (charges.length === 0) return;
    const columns = ['account_id', 'key_id', 'operation', 'request_id', 'idempotency_key'] as const;
    await c.query(
      `INSERT INTO usage_ledger (account_id, key_id, operation, request_id, idempotency_key, units, period, created_at)
       SELECT *, 1, $6::text, $7::text FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
      [...columns.map((col) => charges.map((ch) => ch[col])), period, at],
    );
    const counts = new Map<string, { account: string; operation: string; n: number }>();
    for (const ch of charges) {
      const k = `${ch.account_id}\u0000${ch.operation}`;
      const entry = counts.get(k) ?? { account: ch.account_id, operation: ch.operation, n: 0 };
      entry.n++;
      counts.set(k, entry);
    }
    const list = [...counts.values()].sort((x, y) =>
      `${x.account}\u0000${x.operation}`.localeCompare(`${y.account}\u0000${y.operation}`),
    );
    await c.query(
      `INSERT INTO usage_counters (account_id, period, operation, used)
       SELECT a, $4::text, o, n FROM unnest($1::text[], $2::text[], $3::int[]) AS t(a, o, n)
       ON CONFLICT (account_id, period, operation) DO UPDATE SET used = usage_counters.used + excluded.used`,
      [list.map((x) => x.account), list.map((x) => x.operation), list.map((x) => x.n), period],
    );
  }
}
