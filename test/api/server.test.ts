import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

let api: TestApi;
let base: string;
let authorization: string;
let accountId: string;

beforeAll(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-state-'));
  api = await testApi(await buildFixtureBundle(), { stateFile: path.join(dir, 'state.sqlite') });
  const k = await api.key('net');
  authorization = k.authorization;
  accountId = k.accountId;
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => api.close());

const diagnostic = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };

describe('over a listening server', () => {
  it('answers a diagnostic', async () => {
    const res = await fetch(`${base}/v1/diagnostic`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(diagnostic),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    const body = (await res.json()) as { state: string; excerpt: { text: string } };
    expect(body.state).toBe('answer');
    expect(body.excerpt.text).toBe(FIX.e9Excerpt);
  });

  it('serves snapshot bytes', async () => {
    const res = await fetch(`${base}/v1/pdf-snapshot/${FIX.alpha}/1`, {
      headers: { authorization, accept: 'image/png' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  });

  it('answers problems for auth, unknown routes and methods', async () => {
    const noKey = await fetch(`${base}/v1/me`);
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(noKey.headers.get('content-type')).toMatch(/problem\+json/);
    const put = await fetch(`${base}/v1/me`, { method: 'PUT', headers: { authorization } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
    const none = await fetch(`${base}/nothing`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { code: string }).code).toBe('not_found');
  });

  it('charges once for concurrent requests with the same Idempotency-Key', async () => {
    const send = () =>
      fetch(`${base}/v1/diagnostic`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': 'concurrent-1' },
        body: JSON.stringify(diagnostic),
      });
    const before = (await api.state.ledger({ account_id: accountId })).length;
    const responses = await Promise.all(Array.from({ length: 12 }, send));
    const statuses = responses.map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    const fresh = responses.filter(
      (r) => r.status === 200 && r.headers.get('idempotency-replayed') !== 'true',
    );
    expect(fresh).toHaveLength(1);
    const bodies = new Set(
      await Promise.all(responses.filter((r) => r.status === 200).map(async (r) => await r.text())),
    );
    expect(bodies.size).toBe(1);
    expect((await api.state.ledger({ account_id: accountId })).length).toBe(before + 1);
  });

  it('serves the OpenAPI document without a key', async () => {
    const res = await fetch(`${base}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toBe('3.1.0');
  });
});
