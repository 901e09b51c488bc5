import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { buildFixtureBundle, type TestApi, testApi } from './fixture.js';

let bundle: string;
let api: TestApi;
const answer = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };
const unknown = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'Z99' };

beforeAll(async () => {
  bundle = await buildFixtureBundle();
  api = await testApi(bundle);
});
afterAll(() => api.close());

function post(url: string, authorization: string, payload: object, key?: string) {
  return api.request({
    method: 'POST',
    url,
    headers: { authorization, ...(key ? { 'idempotency-key': key } : {}) },
    payload,
  });
}

describe('billing and quota', () => {
  it('charges answers only, one ledger row each, and refuses past the quota', async () => {
    const k = await api.key('quota-2', { quota: 2 });
    expect((await post('/v1/diagnostic', k.authorization, answer)).json().billable).toBe(true);
    expect((await post('/v1/diagnostic', k.authorization, unknown)).json().billable).toBe(false);
    expect((await post('/v2/diagnostic', k.authorization, answer)).statusCode).toBe(200);
    const refused = await post('/v1/diagnostic', k.authorization, answer);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toMatch(/problem\+json/);
    expect(refused.json().code).toBe('quota_exceeded');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Free results stay free and available once the quota is spent.
    expect((await post('/v1/diagnostic', k.authorization, unknown)).json().state).toBe('unknown_code');
    expect(
      (
        await post('/v2/diagnostic', k.authorization, { ...answer, model: 'DT-C400-M', error_code: 'H7' })
      ).json().status,
    ).toBe('no_exact_source');
    const ledger = await api.state.ledger({ account_id: k.accountId });
    expect(ledger.map((l) => l.operation).sort()).toEqual(['diagnose', 'diagnose_strict']);
    expect(ledger.every((l) => l.key_id === k.keyId && l.units === 1)).toBe(true);
    const me = (
      await api.request({ method: 'GET', url: '/v1/me', headers: { authorization: k.authorization } })
    ).json();
    expect(me.quota).toMatchObject({ limit: 2, used: 2, remaining: 0 });
  });

  it('shares the quota among the keys of an account', async () => {
    const a = await api.key('shared', { quota: 1 });
    const b = await api.key('shared');
    expect((await post('/v1/diagnostic', a.authorization, answer)).statusCode).toBe(200);
    expect((await post('/v1/diagnostic', b.authorization, answer)).json().code).toBe('quota_exceeded');
  });
});

describe('idempotency', () => {
  it('replays the stored response for the same key and body, and charges once', async () => {
    const k = await api.key('idem-replay');
    const first = await post('/v1/diagnostic', k.authorization, answer, 'key-1');
    const again = await post(
      '/v1/diagnostic',
      k.authorization,
      { error_code: 'E9', model: 'DT-A100-E', brand: 'Demotherm' },
      'key-1',
    );
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(1);
  });

  it('refuses the same key with another payload: 422', async () => {
    const k = await api.key('idem-mismatch');
    await post('/v1/diagnostic', k.authorization, answer, 'key-2');
    const res = await post('/v1/diagnostic', k.authorization, { ...answer, error_code: 'E01' }, 'key-2');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('idempotency_key_reused');
  });

  it('scopes keys to the API key: another API key with the same Idempotency-Key runs anew', async () => {
    const a = await api.key('idem-scope-a');
    const b = await api.key('idem-scope-b');
    await post('/v1/diagnostic', a.authorization, answer, 'shared-key');
    const res = await post('/v1/diagnostic', b.authorization, answer, 'shared-key');
    expect(res.headers['idempotency-replayed']).toBeUndefined();
    expect(await api.state.ledger({ account_id: b.accountId })).toHaveLength(1);
  });

  it('answers 409 while a request with the key is in flight, and releases the key after a failure', async () => {
    const slow = await testApi(bundle);
    try {
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const original = slow.app.heatsource.services;
      const { diagnose } = await import('../../src/engine/diagnostic.js');
      let fail = true;
      original.handle('diagnose', async (_ctx, input) => {
        await gate;
        if (fail) throw new Error('boom');
        const body = diagnose(original.view, input);
        return { status: 200, body, billable: body.billable };
      });
      const k = await slow.key();
      const run = (key: string) =>
        slow.request({
          method: 'POST',
          url: '/v1/diagnostic',
          headers: { authorization: k.authorization, 'idempotency-key': key },
          payload: answer,
        });
      const first = run('k-409');
      await new Promise((r) => setTimeout(r, 20));
      const second = await run('k-409');
      expect(second.statusCode).toBe(409);
      expect(second.json().code).toBe('idempotency_key_in_use');
      release();
      expect((await first).statusCode).toBe(500);
      fail = false;
      const retried = await run('k-409');
      expect(retried.statusCode).toBe(200);
      expect(retried.json().state).toBe('answer');
    } finally {
      await slow.close();
    }
  });

  it('validates the Idempotency-Key', async () => {
    const k = await api.key('idem-invalid');
    const res = await post('/v1/diagnostic', k.authorization, answer, 'x'.repeat(300));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('idempotency_key_invalid');
  });

  it('does not store a refusal: a retry after the quota is raised succeeds', async () => {
    const k = await api.key('idem-quota', { quota: 0 });
    expect((await post('/v1/diagnostic', k.authorization, answer, 'q-1')).statusCode).toBe(429);
    await api.state.updateAccount(k.accountId, { quota_limit: 5 });
    const res = await post('/v1/diagnostic', k.authorization, answer, 'q-1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotency-replayed']).toBeUndefined();
  });
});

describe('POST /v1/diagnostic/turn', () => {
  it('validates the body first, then requires an Idempotency-Key, then bills the first turn once', async () => {
    const k = await api.key('turns');
    const invalid = await post('/v1/diagnostic/turn', k.authorization, { model: 'DT-A100-E' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('validation_failed');
    expect(invalid.json().errors[0].field).toBe('brand');
    const first = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };
    const missing = await post('/v1/diagnostic/turn', k.authorization, first);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('idempotency_key_required');
    const res = await post('/v1/diagnostic/turn', k.authorization, first, 'turn-1');
    expect(res.statusCode).toBe(200);
    expect(res.json().billable).toBe(true);
    const replay = await post('/v1/diagnostic/turn', k.authorization, first, 'turn-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(res.json());
    expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(1);
  });
});

describe('the ledger under a burst', () => {
  it('holds one row per billed answer after a burst cut short by a graceful close', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-ledger-burst-'));
    const stateFile = path.join(dir, 'state.sqlite');
    const burst = await testApi(bundle, { stateFile });
    try {
      const k = await burst.key('burst');
      const base = await burst.app.listen({ host: '127.0.0.1', port: 0 });
      const one = () =>
        fetch(`${base}/v1/diagnostic`, {
          method: 'POST',
          headers: { authorization: k.authorization, 'content-type': 'application/json' },
          body: JSON.stringify(answer),
        }).then(
          async (r) => (r.status === 200 ? ((await r.json()) as { billable: boolean }).billable : false),
          () => false,
        );
      // The first ones are answered; the rest are in flight, queued or refused when the close begins.
      const first = await Promise.all(Array.from({ length: 5 }, one));
      const rest = Array.from({ length: 80 }, one);
      // Close as soon as one of them is answered: the others are then at every stage of a request.
      await Promise.race(rest);
      await burst.close();
      const billed = [...first, ...(await Promise.all(rest))].filter(Boolean).length;
      expect(billed).toBeGreaterThan(5);
      const reopened = new SqliteStateStore(stateFile);
      try {
        const rows = await reopened.ledger({ account_id: k.accountId, limit: 1000 });
        expect(rows).toHaveLength(billed);
        expect(new Set(rows.map((r) => r.request_id)).size).toBe(billed);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
