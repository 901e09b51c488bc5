import { periodByName } from './period.js';
import type { Account, ApiKey, QuotaStatus } from './records.js';

/** Requests per minute per key for accounts created without an explicit limit. */
export const DEFAULT_RATE_LIMIT = 600;
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A guided session no one has answered for this long is deleted (its id then answers 404): a technician's
 * job is done within days, and without it every session started would be kept forever.
 */
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Open (not closed) guided sessions one API key may hold at once, unless the server sets another cap
 * (serve --max-open-sessions): sessions are stored until they expire, so that without a cap one key could
 * fill the state.
 */
export const DEFAULT_MAX_OPEN_SESSIONS = 500;
/** An in-flight record older than this belongs to a request that died; a retry may take it over. */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;

/** An account's quota in a period, given the units used in it. */
export function quotaStatus(account: Account, periodName: string, used: number): QuotaStatus {
  const p = periodByName(periodName);
  return {
    limit: account.quota_limit,
    used,
    remaining: account.quota_limit === null ? null : Math.max(0, account.quota_limit - used),
    period: p.name,
    period_start: p.start.toISOString(),
    resets_at: p.end.toISOString(),
  };
}

/** A stored key row without its hash. */
export function publicKey(row: ApiKey & { hash?: unknown }): ApiKey {
  return {
    id: row.id,
    account_id: row.account_id,
    prefix: row.prefix,
    mode: row.mode,
    label: row.label,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}
