import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { publicKey } from './quota.js';
import type { Account, ApiKey, Principal } from './records.js';

export type AuthResult = { ok: true; principal: Principal } | { ok: false; reason: 'invalid' | 'revoked' };

/** last_used_at is written at most this often per key, so that authentication stays a read. */
const LAST_USED_EVERY_MS = 60_000;

type Cached = { result: AuthResult; until: number };

/** Whether two strings are equal, in a time that depends on their lengths only. */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Authentication results by key hash, shared by both stores: a request authenticates from memory, and
 * the store clears the cache when any process revokes a key or changes an account (a NOTIFY from
 * PostgreSQL, a change stamp polled in SQLite), so a revocation never waits for an entry to expire.
 * Expiry is by the store's own clock, which tests move.
 */
export class AuthCache {
  private readonly results = new LRUCache<string, Cached>({ max: 10_000 });
  private readonly lastUsed = new LRUCache<string, number>({ max: 10_000 });
  /**
   * The secret each connection last authenticated with, and its result: a client sends the same key
   * on every request of a keep-alive connection, and a repeat is then recognised without hashing it
   * (sha256 and its buffers were the larger part of authenticating a request from the cache). Held per
   * connection object and gone with it; only accepted keys are held.
   */
  private readonly connections = new WeakMap<object, Cached & { secret: string; generation: number }>();
  /** Counts the clears: a result remembered by a connection before the last clear is no longer used. */
  private generation = 0;

  constructor(private readonly now: () => number) {}

  /**
   * The result given to this connection the last time, when it presents the same secret again, no
   * change (revocation, account update) has cleared the cache since, and the cached result it came
   * from has not expired. The secret is compared in constant time with the one the same connection
   * presented before; a connection never meets another's secret, so a guess sent over it learns
   * nothing it did not send itself.
   */
  forConnection(connection: object | undefined, secret: string): AuthResult | undefined {
    if (!connection) return undefined;
    const known = this.connections.get(connection);
    if (
      !known ||
      known.generation !== this.generation ||
      known.until <= this.now() ||
      !sameSecret(known.secret, secret)
    ) {
      return undefined;
    }
    return known.result;
  }

  /** The cached result for a key hash; with a connection, remembered for its next request. */
  get(hash: Buffer, connection?: object, secret?: string): AuthResult | undefined {
    const hit = this.results.get(hash.toString('base64'));
    if (!hit || hit.until <= this.now()) return undefined;
    this.remember(hit, connection, secret);
    return hit.result;
  }

  set(hash: Buffer, result: AuthResult, ttlMs: number, connection?: object, secret?: string): void {
    const entry = { result, until: this.now() + ttlMs };
    this.results.set(hash.toString('base64'), entry);
    this.remember(entry, connection, secret);
  }

  clear(): void {
    this.results.clear();
    this.generation++;
  }

  private remember(entry: Cached, connection: object | undefined, secret: string | undefined): void {
    if (!connection || secret === undefined || !entry.result.ok) return;
    this.connections.set(connection, { ...entry, secret, generation: this.generation });
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
