/** An account: who is billed, under which quota and rate limit. Apart from types.ts, which holders.ts needs. */
export interface Account {
  id: string;
  name: string;
  /** Billable units allowed per period; null means unlimited. */
  quota_limit: number | null;
  quota_period: 'month';
  /** Requests per minute allowed per key of this account; null means unlimited. */
  rate_limit_per_minute: number | null;
  created_at: string;
}
