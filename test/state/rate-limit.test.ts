import { describe, expect, it } from 'vitest';
import { ensureLocalKey } from '../../src/state/local-key.js';
import { MemoryRateLimiter } from '../../src/state/rate-limit.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';

describe('MemoryRateLimiter', () => {
  it('allows the limit per minute per key, then refuses until the window resets', () => {
    let now = 0;
    const rl = new MemoryRateLimiter(() => now);
    expect(rl.take('a', 2)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
    expect(rl.take('a', 2)).toMatchObject({ allowed: true, remaining: 0 });
    now = 30_500;
    expect(rl.take('a', 2)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
    expect(rl.take('b', 2).allowed).toBe(true);
    now = 60_000;
    expect(rl.take('a', 2)).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe('ensureLocalKey', () => {
  it('creates the local account and one test key on an empty state, and nothing afterwards', async () => {
    const s = new SqliteStateStore(':memory:');
    const first = await ensureLocalKey(s);
    expect(first?.account.name).toBe('local');
    expect(first?.account.quota_limit).toBeNull();
    expect(first?.secret).toMatch(/^ak_test_/);
    const auth = await s.authenticate(first!.secret);
    expect(auth.ok).toBe(true);
    expect(await ensureLocalKey(s)).toBeNull();
    expect(await s.keys()).toHaveLength(1);
    await s.close();
  });
});
