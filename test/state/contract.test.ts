import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/open.js';
import { IDEMPOTENCY_TTL_MS, IN_FLIGHT_LEASE_MS, SESSION_TTL_MS } from '../../src/state/quota.js';
import { IdempotencyCompletedError, SessionConflictError, type StateStore } from '../../src/state/types.js';
import { hasPg, pgSchema } from '../helpers/pg.js';

/**
 * The StateStore contract, run against both stores. Each test opens two stores on the same state (two
 * handles on one SQLite file, two pools on one PostgreSQL schema), as two server processes would, so
 * that what one process writes the other must respect.
 */
interface Backend {
  name: string;
  /** A fresh state; every call of `open` on it is one more process. */
  fresh(): Promise<{ open: (now?: () => number) => Promise<StateStore> }>;
  cleanup(): Promise<void>;
}

const sqlite: Backend = {
  name: 'SQLite',
  async fresh() {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-contract-')), 'state.sqlite');
    return { open: (now) => openStateStore(file, now ? { now } : {}) };
  },
  async cleanup() {},
};

const schemas: (() => Promise<void>)[] = [];
const postgres: Backend = {
  name: 'PostgreSQL',
  async fresh() {
    const { url, drop } = pgSchema('contract');
    schemas.push(drop);
    return { open: (now) => openStateStore(url, { poolMax: 4, ...(now ? { now } : {}) }) };
  },
  async cleanup() {
    for (const drop of schemas.splice(0)) await drop();
  },
};

const opened: StateStore[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});
afterAll(async () => {
  await postgres.cleanup();
});

describe.each([
  { backend: sqlite, skip: false },
  { backend: postgres, skip: !hasPg },
])('StateStore on $backend.name', ({ backend, skip }) => {
  const it_ = skip ? it.skip : it;

  async function stores(count: number, now?: () => number): Promise<StateStore[]> {
    const state = await backend.fresh();
    const list: StateStore[] = [];
    for (let i = 0; i < count; i++) list.push(await state.open(now));
    opened.push(...list);
    return list;
  }

  const charge = (accountId: string, i: number) => ({
    account_id: accountId,
    key_id: null,
    operation: 'diagnose',
    request_id: `r${i}`,
    idempotency_key: null,
  });

  it_('creates keys with the mode prefix and refuses a duplicate account name', async () => {
    const [s] = await stores(1);
    const acc = await s!.createAccount({ name: 'acme', quota_limit: 10 });
    const live = await s!.createKey(acc.id, 'live');
    expect(live.secret).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    expect(live.key.prefix).toBe(live.secret.slice(0, 14));
    expect(await s!.accountByName(' acme ')).toEqual(acc);
    await expect(s!.createAccount({ name: 'acme' })).rejects.toThrow(/already exists/);
    expect(acc).toMatchObject({ quota_limit: 10, rate_limit_per_minute: 600, quota_period: 'month' });
    expect(await s!.updateAccount(acc.id, { quota_limit: null, rate_limit_per_minute: 5 })).toMatchObject({
      quota_limit: null,
      rate_limit_per_minute: 5,
    });
  });

  it_('authenticates valid keys and refuses unknown and revoked ones', async () => {
    const [s] = await stores(1);
    const acc = await s!.createAccount({ name: 'acme' });
    const { key, secret } = await s!.createKey(acc.id, 'live');
    const ok = await s!.authenticate(secret);
    expect(ok.ok && ok.principal.account.id).toBe(acc.id);
    expect(ok.ok && ok.principal.key.id).toBe(key.id);
    expect(await s!.authenticate(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await s!.authenticate('garbage')).toEqual({ ok: false, reason: 'invalid' });
    // Over one connection, as a server presents a keep-alive client's requests: a repeat is recognised,
    // another secret sent over it is judged on its own.
    const connection = {};
    expect(await s!.authenticate(secret, connection)).toEqual(ok);
    expect(await s!.authenticate(secret, connection)).toEqual(ok);
    expect(
      await s!.authenticate(`${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`, connection),
    ).toEqual({ ok: false, reason: 'invalid' });
    expect(await s!.authenticate('garbage', connection)).toEqual({ ok: false, reason: 'invalid' });
    expect(await s!.authenticate(secret, connection)).toEqual(ok);
    const revoked = await s!.revokeKey(key.prefix);
    expect(revoked?.revoked_at).toBeTruthy();
    expect(await s!.authenticate(secret)).toEqual({ ok: false, reason: 'revoked' });
    expect(await s!.authenticate(secret, connection)).toEqual({ ok: false, reason: 'revoked' });
    expect(await s!.revokeKey('key_nope')).toBeUndefined();
    expect((await s!.keys(acc.id)).map((k) => k.id)).toEqual([key.id]);
  });

  it_(
    'a revocation by one process is seen by another within a second, without waiting for a cache',
    async () => {
      const [server, admin] = await stores(2);
      const acc = await admin!.createAccount({ name: 'acme' });
      const { key, secret } = await admin!.createKey(acc.id, 'live');
      // A client on a keep-alive connection, whose repeats are recognised by the connection.
      const connection = {};
      expect((await server!.authenticate(secret)).ok).toBe(true);
      expect((await server!.authenticate(secret, connection)).ok).toBe(true);
      expect((await server!.authenticate(secret, connection)).ok).toBe(true);
      await admin!.revokeKey(key.id);
      const deadline = Date.now() + 1_000;
      let seen = false;
      let seenOverConnection = false;
      while (Date.now() < deadline && !(seen && seenOverConnection)) {
        seen ||= !(await server!.authenticate(secret)).ok;
        seenOverConnection ||= !(await server!.authenticate(secret, connection)).ok;
        if (!(seen && seenOverConnection)) await new Promise((r) => setTimeout(r, 25));
      }
      expect(seen).toBe(true);
      expect(seenOverConnection).toBe(true);
    },
  );

  it_('charges up to the quota, then refuses, and starts again next month', async () => {
    let now = Date.UTC(2026, 2, 31, 23, 0);
    const [s] = await stores(1, () => now);
    const acc = await s!.createAccount({ name: 'acme', quota_limit: 2 });
    expect(await s!.complete({ charge: charge(acc.id, 1) })).toEqual({ ok: true });
    expect(await s!.quota(acc.id)).toMatchObject({ used: 1, remaining: 1, period: '2026-03' });
    expect(await s!.complete({ charge: charge(acc.id, 2) })).toEqual({ ok: true });
    const refused = await s!.complete({ charge: charge(acc.id, 3) });
    expect(refused).toMatchObject({
      ok: false,
      quota: { used: 2, remaining: 0, resets_at: '2026-04-01T00:00:00.000Z' },
    });
    expect(await s!.ledger({ account_id: acc.id })).toHaveLength(2);
    now = Date.UTC(2026, 3, 1, 0, 1);
    expect(await s!.complete({ charge: charge(acc.id, 4) })).toEqual({ ok: true });
    expect(await s!.quota(acc.id)).toMatchObject({ used: 1, period: '2026-04' });
    const march = await s!.usage(acc.id, '2026-03');
    expect(march.quota.used).toBe(2);
    expect(march.by_operation).toEqual([{ operation: 'diagnose', units: 2 }]);
    const ledger = await s!.ledger({ period: '2026-03' });
    expect(ledger.map((e) => e.request_id)).toEqual(['r2', 'r1']);
    expect(typeof ledger[0]!.id).toBe('number');
  });

  it_('never overshoots a quota charged from two processes at once', async () => {
    const [a, b] = await stores(2);
    const acc = await a!.createAccount({ name: 'acme', quota_limit: 25 });
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, (_, i) => (i % 2 ? a! : b!).complete({ charge: charge(acc.id, i) })),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(25);
    expect((await a!.quota(acc.id)).used).toBe(25);
    expect(await b!.ledger({ account_id: acc.id })).toHaveLength(25);
  });

  it_('starts, replays, refuses another payload, and reports in-flight requests', async () => {
    const [s] = await stores(1);
    const ref = { scope: 'key:k1', key: 'abc' };
    expect(await s!.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'started' });
    expect(await s!.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'in_flight' });
    expect(await s!.beginIdempotent(ref, 'fp2')).toEqual({ kind: 'mismatch' });
    await s!.complete({ idempotency: { ...ref, status: 200, body: '{"a":1}' } });
    expect(await s!.beginIdempotent(ref, 'fp1')).toEqual({ kind: 'replay', status: 200, body: '{"a":1}' });
    expect(await s!.beginIdempotent({ scope: 'key:k2', key: 'abc' }, 'fp1')).toEqual({ kind: 'started' });
  });

  it_('starts one request per Idempotency-Key when processes begin it at once', async () => {
    const [a, b] = await stores(2);
    const ref = { scope: 'key:k1', key: 'same' };
    const begins = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).beginIdempotent(ref, 'fp')),
    );
    expect(begins.filter((x) => x.kind === 'started')).toHaveLength(1);
    expect(begins.filter((x) => x.kind === 'in_flight')).toHaveLength(39);
  });

  it_(
    'lets a retry take over an abandoned or stale in-flight record, and forgets records after 24 h',
    async () => {
      let now = 1_000_000;
      const [s] = await stores(1, () => now);
      const ref = { scope: 'key:k1', key: 'abc' };
      await s!.beginIdempotent(ref, 'fp');
      await s!.abandonIdempotent(ref);
      expect(await s!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
      now += IN_FLIGHT_LEASE_MS + 1;
      expect(await s!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
      await s!.complete({ idempotency: { ...ref, status: 200, body: '{}' } });
      now += IDEMPOTENCY_TTL_MS;
      expect(await s!.beginIdempotent(ref, 'other')).toEqual({ kind: 'started' });
      now += IDEMPOTENCY_TTL_MS + 1;
      expect(await s!.purgeExpiredIdempotency()).toBe(1);
    },
  );

  it_('charges once when two holders of a taken-over lease both complete', async () => {
    let now = 1_000_000;
    const [a, b] = await stores(2, () => now);
    const acc = await a!.createAccount({ name: 'acme' });
    const ref = { scope: 'key:k1', key: 'twice' };
    expect(await a!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
    now += IN_FLIGHT_LEASE_MS + 1;
    expect(await b!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'started' });
    const done = { ...ref, status: 200, body: '{"n":1}' };
    expect(await b!.complete({ charge: charge(acc.id, 1), idempotency: done })).toEqual({ ok: true });
    await expect(
      a!.complete({ charge: charge(acc.id, 2), idempotency: { ...done, body: '{"n":2}' } }),
    ).rejects.toBeInstanceOf(IdempotencyCompletedError);
    expect(await a!.ledger({ account_id: acc.id })).toHaveLength(1);
    expect(await a!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'replay', status: 200, body: '{"n":1}' });
  });

  it_('does not store the response when the charge is refused', async () => {
    const [s] = await stores(1);
    const acc = await s!.createAccount({ name: 'acme', quota_limit: 0 });
    const ref = { scope: 'key:k1', key: 'q' };
    await s!.beginIdempotent(ref, 'fp');
    const out = await s!.complete({
      charge: { ...charge(acc.id, 1), idempotency_key: 'q' },
      idempotency: { ...ref, status: 200, body: '{}' },
    });
    expect(out.ok).toBe(false);
    expect(await s!.beginIdempotent(ref, 'fp')).toEqual({ kind: 'in_flight' });
  });

  it_('writes a session with its charge in one transaction: a stale version rolls both back', async () => {
    const [s, other] = await stores(2);
    const account = await s!.createAccount({ name: 'acme' });
    const write = {
      id: 'ds_x',
      account_id: account.id,
      status: 'active',
      equipment: 'air_water',
      expected_version: null,
      model: '{"m":1}',
      state: '{"s":1}',
    };
    expect(await s!.complete({ charge: charge(account.id, 1), session: write })).toEqual({ ok: true });
    expect(await other!.session('ds_x')).toMatchObject({ version: 1, model: '{"m":1}', state: '{"s":1}' });
    await expect(s!.complete({ charge: charge(account.id, 2), session: write })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    // Two processes answering from the same version: exactly one write wins.
    const racing = await Promise.allSettled(
      [s!, other!].map((store, i) =>
        store.complete({
          session: { ...write, expected_version: 1, model: undefined, state: `{"s":${i + 2}}` },
        }),
      ),
    );
    expect(racing.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = racing.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(SessionConflictError);
    expect(await s!.session('ds_x')).toMatchObject({ version: 2, model: '{"m":1}' });
    expect((await s!.quota(account.id)).used).toBe(1);
    const stranger = await s!.createAccount({ name: 'other' });
    await expect(
      s!.complete({ session: { ...write, account_id: stranger.id, expected_version: 2 } }),
    ).rejects.toBeInstanceOf(SessionConflictError);
    expect((await other!.sessions(account.id)).map((x) => x.id)).toEqual(['ds_x']);
    expect(await s!.sessions(stranger.id)).toEqual([]);
  });

  it_(
    'stores labelled models once per label, reads each back as written, and old full copies as stored',
    async () => {
      const [s, other] = await stores(2);
      const account = await s!.createAccount({ name: 'acme' });
      const steps = Array.from({ length: 40 }, (_, i) => ({ id: `a${i}`, label: `step ${i}`, minutes: i }));
      const model = (extra: Record<string, unknown>) =>
        JSON.stringify({ knowledgeVersion: 'k1', actions: steps, settings: { budget: 8 }, ...extra });
      const session = (id: string, m: string, label?: string) => ({
        id,
        account_id: account.id,
        status: 'active',
        equipment: 'air_water',
        expected_version: null,
        model: m,
        state: '{"s":1}',
        ...(label ? { model_label: label } : {}),
      });
      const first = model({ symptoms: ['low_flow'] });
      const second = JSON.stringify({
        knowledgeVersion: 'k1',
        symptoms: ['noise'],
        actions: [{ id: 'm0', label: 'manual step', minutes: 2 }, ...steps.slice(0, 39).reverse()],
        settings: { budget: 6, quick: 1 },
      });
      await s!.complete({ session: session('ds_full', first) });
      await s!.complete({ session: session('ds_1', first, 'k1') });
      await s!.complete({ session: session('ds_2', second, 'k1') });
      // A rolled-back start leaves no base behind that a later start could reference.
      await s!.complete({ session: session('ds_2', model({ other: true }), 'k2') }).catch(() => {});
      await s!.complete({ session: session('ds_3', model({ other: true }), 'k2') });
      for (const store of [s!, other!]) {
        expect((await store.session('ds_full'))?.model).toBe(first);
        expect((await store.session('ds_1'))?.model).toBe(first);
        expect((await store.session('ds_2'))?.model).toBe(second);
        expect((await store.session('ds_3'))?.model).toBe(model({ other: true }));
      }
      // Later writes change the state only; the model reads back the same.
      await s!.complete({
        session: { ...session('ds_2', second), expected_version: 1, model: undefined, state: '{"s":2}' },
      });
      expect(await other!.session('ds_2')).toMatchObject({ version: 2, model: second, state: '{"s":2}' });
    },
  );

  it_('purges the sessions no one has written to for the session lifetime, and only those', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const [s] = await stores(1, () => now);
    const account = await s!.createAccount({ name: 'acme' });
    const session = (id: string) => ({
      id,
      account_id: account.id,
      status: 'active',
      equipment: 'air_water',
      expected_version: null,
      model: '{"m":1}',
      state: '{"s":1}',
    });
    await s!.complete({ session: session('ds_old') });
    await s!.complete({ session: session('ds_kept') });
    now += SESSION_TTL_MS / 2;
    // Answered since: its lifetime starts again.
    await s!.complete({
      session: { ...session('ds_kept'), expected_version: 1, model: undefined, state: '{"s":2}' },
    });
    now += SESSION_TTL_MS / 2 + 1;
    expect(await s!.purgeExpiredSessions()).toBe(1);
    expect(await s!.session('ds_old')).toBeUndefined();
    expect(await s!.session('ds_kept')).toMatchObject({ version: 2 });
    expect(await s!.purgeExpiredSessions()).toBe(0);
  });

  it_('counts rate limits in the store, shared by every process', async () => {
    let now = 5_000_000;
    const [a, b] = await stores(2, () => now);
    const limiters = [a!.rateLimiter(), b!.rateLimiter()];
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiters[i % 2]!.take('key_1', 3));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[2]).toMatchObject({ remaining: 0, limit: 3, resetSeconds: 60 });
    expect((await limiters[0]!.take('key_2', 3)).allowed).toBe(true);
    now += 60_000;
    expect(await limiters[1]!.take('key_1', 3)).toMatchObject({ allowed: true, remaining: 2 });
  });
});
