import crypto from 'node:crypto';
import {
  IdempotencyCompletedError,
  OpenSessionLimitError,
  SessionConflictError,
  type StateStore,
} from '../state/types.js';
import type { ServiceContext, ServiceResult } from './context.js';
import { ServiceError } from './errors.js';

export interface BillingPolicy {
  /** Operation name, as recorded in the usage ledger. */
  operation: string;
  billing: 'none' | 'per_result' | 'always';
  /** Whether the Idempotency-Key of the context, when present, applies to this operation. */
  idempotent: boolean;
  /** Canonical form of the request: the same key with another fingerprint is refused. */
  fingerprint: string;
}

/** Idempotency keys are opaque strings chosen by clients; printable ASCII keeps them loggable and storable. */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function checkIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ServiceError(
      'idempotency_key_invalid',
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
    );
  }
}

/** sha256 of the operation and its input with object keys sorted: equal requests, equal fingerprints. */
export function fingerprint(operation: string, input: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${operation}\n${stableJson(input)}`)
    .digest('base64url');
}

function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
}

function quotaProblem(
  quota: { limit: number | null; used: number; period: string; resets_at: string },
  now: number,
) {
  const retry = Math.max(1, Math.ceil((Date.parse(quota.resets_at) - now) / 1000));
  return new ServiceError(
    'quota_exceeded',
    `the quota of ${quota.limit} billable requests for ${quota.period} is spent; it resets at ${quota.resets_at}`,
    { headers: { 'Retry-After': String(retry) } },
  );
}

/**
 * Runs an operation under its billing and idempotency rules, the one place both REST and MCP go
 * through: a replay returns the stored response and is never charged again; a billable result is
 * charged and stored in one transaction, refused with `quota_exceeded` when the period's quota is spent;
 * a failure releases the Idempotency-Key so that the request can be retried.
 */
export async function runBillable(
  state: StateStore,
  ctx: ServiceContext,
  policy: BillingPolicy,
  run: () => ServiceResult | Promise<ServiceResult>,
): Promise<ServiceResult> {
  const idem =
    policy.idempotent && ctx.idempotencyKey
      ? { scope: ctx.key ? `key:${ctx.key.id}` : `account:${ctx.account.id}`, key: ctx.idempotencyKey }
      : null;
  if (idem) {
    const begin = await state.beginIdempotent(idem, policy.fingerprint);
    if (begin.kind === 'replay') return replayed(begin);
    if (begin.kind === 'mismatch') {
      throw new ServiceError(
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different request; use a new key for a new request',
      );
    }
    if (begin.kind === 'in_flight') {
      throw new ServiceError(
        'idempotency_key_in_use',
        'a request with this Idempotency-Key is still in progress; retry when it has finished',
        { headers: { 'Retry-After': '1' } },
      );
    }
  }
  try {
    if (policy.billing === 'always') {
      const quota = await state.quota(ctx.account.id);
      if (quota.remaining === 0) throw quotaProblem(quota, Date.now());
    }
    const result = await run();
    const charge =
      policy.billing !== 'none' && result.billable
        ? {
            account_id: ctx.account.id,
            key_id: ctx.key?.id ?? null,
            operation: policy.operation,
            request_id: ctx.requestId,
            idempotency_key: ctx.idempotencyKey,
          }
        : undefined;
    if (charge || idem || result.sessionWrite) {
      const outcome = await state.complete({
        charge,
        idempotency: idem
          ? { ...idem, status: result.status, body: result.json ?? JSON.stringify(result.body) }
          : undefined,
        session: result.sessionWrite,
      });
      if (!outcome.ok) throw quotaProblem(outcome.quota, Date.now());
    }
    return result;
  } catch (err) {
    if (idem && err instanceof IdempotencyCompletedError) {
      // Another request took over this one's lease and finished first: its response is the answer,
      // and this one's charge was rolled back.
      const again = await state.beginIdempotent(idem, policy.fingerprint);
      if (again.kind === 'replay') return replayed(again);
    }
    if (idem) await state.abandonIdempotent(idem);
    throw conflictProblem(err);
  }
}

function replayed(stored: { status: number; body: string }): ServiceResult {
  return {
    status: stored.status,
    body: JSON.parse(stored.body) as unknown,
    json: stored.body,
    billable: false,
    replayed: true,
  };
}

/**
 * A session write the store refused becomes a problem the caller can act on: written meanwhile by another
 * request (read it again, retry), or one open session too many for the key (close one).
 */
export function conflictProblem(err: unknown): unknown {
  if (err instanceof OpenSessionLimitError) {
    return new ServiceError(
      'too_many_open_sessions',
      `this API key has ${err.limit} open sessions, the most this server allows; close one you no longer ` +
        'need (POST /v2/diagnostic-sessions/{id}/close) and start again. A session also stops counting ' +
        'when it expires, 7 days after its last change.',
    );
  }
  if (!(err instanceof SessionConflictError)) return err;
  return new ServiceError(
    'session_conflict',
    `session ${err.sessionId} was changed by another request meanwhile; read it again and retry`,
  );
}
