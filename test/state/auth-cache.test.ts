import { describe, expect, it } from 'vitest';
import { AuthCache, type AuthResult } from '../../src/state/auth-cache.js';
import type { Account, ApiKey } from '../../src/state/records.js';

const accepted: AuthResult = {
  ok: true,
  principal: { account: { id: 'acc_1' } as Account, key: { id: 'key_1' } as ApiKey },
};
const hash = Buffer.alloc(32, 7);
const secret = 'hs_test_0123456789abcdefghijklmnopqrstuvwxyzABCD';

describe('AuthCache, by connection', () => {
  function cache() {
    let now = 1_000_000;
    const c = new AuthCache(() => now);
    return { c, advance: (ms: number) => (now += ms) };
  }

  it('recognises the secret a connection presented before, from the cache or from a new result', () => {
    const { c } = cache();
    const first = {};
    const second = {};
    c.set(hash, accepted, 5_000, first, secret);
    expect(c.forConnection(first, secret)).toBe(accepted);
    // Another connection presenting the same secret goes through the hash once, then is known too.
    expect(c.forConnection(second, secret)).toBeUndefined();
    expect(c.get(hash, second, secret)).toBe(accepted);
    expect(c.forConnection(second, secret)).toBe(accepted);
  });

  it('does not answer for another secret, the same secret over no connection, or a refused key', () => {
    const { c } = cache();
    const connection = {};
    c.set(hash, accepted, 5_000, connection, secret);
    expect(c.forConnection(connection, `${secret.slice(0, -1)}E`)).toBeUndefined();
    expect(c.forConnection(connection, secret.slice(0, -1))).toBeUndefined();
    expect(c.forConnection(undefined, secret)).toBeUndefined();
    const other = {};
    c.set(Buffer.alloc(32, 8), { ok: false, reason: 'revoked' }, 5_000, other, secret);
    expect(c.forConnection(other, secret)).toBeUndefined();
  });

  it('forgets what connections hold once the cache is cleared or the result expires', () => {
    const { c, advance } = cache();
    const connection = {};
    c.set(hash, accepted, 5_000, connection, secret);
    c.clear();
    expect(c.forConnection(connection, secret)).toBeUndefined();
    // Set again after the clear: known again, until the cached result it came from expires.
    c.set(hash, accepted, 5_000, connection, secret);
    advance(4_999);
    expect(c.forConnection(connection, secret)).toBe(accepted);
    advance(1);
    expect(c.forConnection(connection, secret)).toBeUndefined();
    expect(c.get(hash, connection, secret)).toBeUndefined();
  });
});
