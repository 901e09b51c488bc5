import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, StateSchemaError } from '../../src/state/migrations.js';
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS, SqliteStateStore } from '../../src/state/sqlite-store.js';

const open: SqliteStateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function tmpFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-state-')), 'state.sqlite');
}

function store(file = ':memory:', now?: () => number): SqliteStateStore {
  const s = new SqliteStateStore(file, now ? { now } : {});
  open.push(s);
  return s;
}

describe('schema', () => {
  it('runs in WAL mode and records every migration', () => {
    const file = tmpFile();
    const s = store(file);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const versions = (
      s.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('applies appended migrations on the next open and keeps the data', async () => {
    const file = tmpFile();
    const first = store(file);
    await first.createAccount({ name: 'kept' });
    await first.close();
    const extra = [
      ...MIGRATIONS,
      { version: 99, name: 'extra', sql: 'CREATE TABLE extra_things (id INTEGER PRIMARY KEY);' },
    ];
    const second = new SqliteStateStore(file, { migrations: extra });
    open.push(second);
    expect(await second.accountByName('kept')).toBeDefined();
    expect(
      second.db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra_things'").get(),
    ).toBeDefined();
  });

  it('refuses a database written by a newer version', async () => {
    const file = tmpFile();
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(1000, 'future', 'x');
    db.close();
    expect(() => new SqliteStateStore(file)).toThrow(StateSchemaError);
  });
});

describe('accounts and keys', () => {
  it('creates keys with the mode prefix, 192 random bits, and stores only a hash', async () => {
    const file = tmpFile();
    const s = store(file);
    const acc = await s.createAccount({ name: 'acme', quota_limit: 10 });
    const live = await s.createKey(acc.id, 'live');
    const test = await s.createKey(acc.id, 'test');
    expect(live.secret).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    expect(test.secret).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect(live.key.prefix).toBe(live.secret.slice(0, 14));
    expect(live.secret).not.toBe(test.secret);
    await s.close();
    const raw =
      fs.readFileSync(file).toString('latin1') +
      (fs.existsSync(`${file}-wal`) ? fs.readFileSync(`${file}-wal`).toString('latin1') : '');
    expect(raw).not.toContain(live.secret.slice(8));
    expect(raw).not.toContain(test.secret.slice(8));
  });

  it('authenticates valid keys and refuses unknown and revoked ones', async () => {
    const s = store();
    const acc = await s.createAccount({ name: 'acme' });
    const { key, secret } = await s.createKey(acc.id, 'live');
    const ok = await s.authenticate(secret);
    expect(ok.ok && ok.principal.account.id).toBe(acc.id);
    expect(ok.ok && ok.principal.key.id).toBe(key.id);
    expect(await s.authenticate(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await s.authenticate('garbage')).toEqual({ ok: false, reason: 'invalid' });
    const revoked = await s.revokeKey(key.prefix);
    expect(revoked?.revoked_at).toBeTruthy();
    expect(await s.authenticate(secret)).toEqual({ ok: false, reason: 'revoked' });
    expect(await s.revokeKey('key_nope')).toBeUndefined();
  });

  it('refuses a duplicate account name', async () => {
    const s = store();
    await s.createAccount({ name: 'acme' });
    await expect(s.createAccount({ name: 'acme' })).rejects.toThrow(/already exists/);
  });
});

describe('usage and quota', () => {
  it('charges up to the quota, then refuses, and starts again next month', async () => {
    let now = Date.UTC(2026, 2, 31, 23, 0);
    const s = store(':memory:', () => now);
    const acc = await s.createAccount({ name: 'acme', quota_limit: 2 });
    const charge = (i: number) => ({
      charge: {
        account_id: acc.id,
        key_id: null,
        operation: 'diagnose',
        request_id: `r${i}`,
        idempotency_key: null,
      },
    });
    expect(await s.complete(charge(1))).toEqual({ ok: true });
    expect(await s.quota(acc.id)).toMatchObject({ used: 1, remaining: 1, period: '2026-03' });
    expect(await s.complete(charge(2))).toEqual({ ok: true });
    expect(await s.quota(acc.id)).toMatchObject({ used: 2, remaining: 0 });
    const refused = await s.complete(charge(3));
    expect(refused).toMatchObject({
      ok: false,
      quota: { used: 2, remaining: 0, resets_at: '2026-04-01T00:00:00.000Z' },
    });
    expect(await s.ledger({ account_id: acc.id })).toHaveLength(2);
    now = Date.UTC(2026, 3, 1, 0, 1);
    expect(await s.complete(charge(4))).toEqual({ ok: true });
    expect(await s.quota(acc.id)).toMatchObject({ used: 1, period: '2026-04' });
    const march = await s.usage(acc.id, '2026-03');
    expect(march.quota.used).toBe(2);
    expect(march.by_operation).toEqual([{ operation: 'diagnose', units: 2 }]);
  });
});

describe('idempotency records', () => {
  it('starts, replays, refuses another payload, and reports in-flight requests', async () => {
    const s = store();
    const ref = { scope: 'key:k1', key: 'abc' };
    expect(await s.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'started' });
    expect(await s.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'in_flight' });
    expect(await s.beginIdempotent(ref, 'fp2')).toEqual({ kind: 'mismatch' });
    await s.complete({ idempotency: { ...ref, status: 200, body: '{"a":1}' } });
    expect(await s.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'replay', status: 200, body: '{"a":1}' });
    expect(await s.beginIdempotent({ scope: 'key:k2', key: 'abc' }, 'fp1')).toEqual({ kind: 'started' });
  });

  it('lets a retry take over an abandoned or stale in-flight record, and forgets records after 24 h', async () => {
    let now = 1_000_000;
    const s = store(':memory:', () => now);
    const ref = { scope: 'key:k1', key: 'abc' };
    await s.beginIdempotent(ref, 'fp');
    await s.abandonIdempotent(ref);
    expect(await s.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
    now += IN_FLIGHT_LEASE_MS + 1;
    expect(await s.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
    await s.complete({ idempotency: { ...ref, status: 200, body: '{}' } });
    now += IDEMPOTENCY_TTL_MS;
    expect(await s.beginIdempotent(ref, 'other')).toEqual({ kind: 'started' });
    now += IDEMPOTENCY_TTL_MS + 1;
    expect(await s.purgeExpiredIdempotency()).toBe(1);
  });

  it('does not store the response when the charge is refused', async () => {
    const s = store();
    const acc = await s.createAccount({ name: 'acme', quota_limit: 0 });
    const ref = { scope: 'key:k1', key: 'q' };
    await s.beginIdempotent(ref, 'fp');
    const out = await s.complete({
      charge: {
        account_id: acc.id,
        key_id: null,
        operation: 'diagnose',
        request_id: 'r',
        idempotency_key: 'q',
      },
      idempotency: { ...ref, status: 200, body: '{}' },
    });
    expect(out.ok).toBe(false);
    expect(await s.beginIdempotent(ref, 'fp')).toEqual({ kind: 'in_flight' });
  });
});
