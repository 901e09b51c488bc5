import { ownerGone } from './process-owner.js';
import { IN_FLIGHT_LEASE_MS } from './quota.js';
import type { IdempotencyBegin } from './records.js';

/** A row of idempotency_records, as both dialects store it. */
export interface IdempotencyRow {
  fingerprint: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
  expires_at: number;
  owner: string | null;
}

/**
 * What a record that has not expired means for a request with this fingerprint: another request's body
 * under the same key, a response to replay, a request still running, or a lease to take over (its
 * process is known to be gone, or the lease ran out). One rule for both stores; each applies it inside
 * the transaction that read the row.
 */
export function onLiveRecord(
  row: IdempotencyRow,
  fingerprint: string,
  now: number,
): Exclude<IdempotencyBegin, { kind: 'started' }> | { kind: 'take_over' } {
  if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
  if (row.state === 'done') return { kind: 'replay', status: row.response_status!, body: row.response_body! };
  if (now - row.created_at < IN_FLIGHT_LEASE_MS && !ownerGone(row.owner)) return { kind: 'in_flight' };
  return { kind: 'take_over' };
}
