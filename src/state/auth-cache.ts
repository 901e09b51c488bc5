import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { publicKey } from './quota.js';
import type { Account, ApiKey, Principal } from './records.js';

export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: 'invalid' | 'revoked' };

/** last_used_at is written at most this often per key, so that authentication stays a read. */
const LAST_USED_EVERY_MS = 60_000;

/**
 * Authentication results by key hash, shared by both stores: a request authenticates from memory, and
 * the store clears the cache when any process revokes a key or changes an account (a NOTIFY from
 * PostgreSQL, a change stamp polled in SQLite), so a revocation never waits for an entry to expire.
 * Expiry is by the store's own clock, which tests move.
 */
export class AuthCache {
  private readonly results = new LRUCache<string, { result: AuthResult; until: number }>({ max: 10_000 });
  private readonly lastUsed = new LRUCache<string, number>({ max: 10_000 });

  constructor(private readonly now: () => number) {}

  get(hash: Buffer): AuthResult | undefined {
    const hit = this.results.get(hash.toString('base64'));
    return hit && hit.until > this.now() ? hit.result : undefined;
  }

  set(hash: Buffer, result: AuthResult, ttlMs: number): void {
    this.results.set(hash.toString('base64'), { result, until: this.now() + ttlMs });
  }

  clear(): void {
    this.results.clear();
  }

  /** Whether last_used_at of a key is due for a write now; records that it is being written. */
  touchDue(keyId: string, now: number): boolean {
    if (now - (this.lastUsed.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return false;
    this.lastUsed.set(keyId, now);
    return true;
  }
}

/**
 * What a key row found by the hash of a presented secret means. The row was found by its hash; comparing
 * in constant time as well keeps the verdict independent of how the index lookup behaves.
 */
export function keyVerdict(
  row: (ApiKey & { hash: Buffer }) | undefined,
  hash: Buffer,
  account: (row: ApiKey) => Account,
): AuthResult {
  if (!row || row.hash.length !== hash.length || !crypto.timingSafeEqual(row.hash, hash)) {
    return { ok: false, reason: 'invalid' };
  }
  if (row.revoked_at) return { ok: false, reason: 'revoked' };
  return { ok: true, principal: { account: account(row), key: publicKey(row) } };
}
