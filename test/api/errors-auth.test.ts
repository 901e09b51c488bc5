import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/engine/errors.js';
import { buildFixtureBundle, type TestApi, testApi } from './fixture.js';

let bundle: string;
let api: TestApi;
let auth: { authorization: string };
const body = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };

beforeAll(async () => {
  bundle = await buildFixtureBundle();
  api = await testApi(bundle, { bodyLimit: 2048 });
  auth = { authorization: (await api.key()).authorization };
});
afterAll(() => api.close());

function expectProblem(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code: string,
) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const p = res.json() as Record<string, unknown>;
  expect(p).toMatchObject({ status, code, type: `urn:heatsource:problem:${code}` });
  expect(typeof p.title).toBe('string');
  expect(typeof p.detail).toBe('string');
  expect(typeof p.instance).toBe('string');
  return p;
}

describe('authentication', () => {
  it('needs a key on every /v1 and /v2 route, with WWW-Authenticate: Bearer', async () => {
    for (const [method, url] of [
      ['POST', '/v1/diagnostic'],
      ['GET', '/v1/me'],
      ['GET', '/v1/registry'],
      ['POST', '/v2/diagnostic'],
      ['GET', '/v2/models/demotherm:DTA100E/coverage'],
    ] as const) {
      const res = await api.request({ method, url, payload: method === 'POST' ? body : undefined });
      expectProblem(res, 401, 'authentication_required');
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('refuses a malformed header, an unknown key and a revoked key', async () => {
    const inject = (authorization: string) =>
      api.request({ method: 'GET', url: '/v1/me', headers: { authorization } });
    expectProblem(await inject('Basic dXNlcjpwYXNz'), 401, 'invalid_api_key');
    expectProblem(await inject('Bearer ak_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'), 401, 'invalid_api_key');
    expectProblem(await inject('Bearer not-a-key'), 401, 'invalid_api_key');
    const k = await api.key('revokee');
    expect((await inject(k.authorization)).statusCode).toBe(200);
    await api.state.revokeKey(k.keyId);
    const res = await inject(k.authorization);
    expectProblem(res, 401, 'api_key_revoked');
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('leaves /healthz, /readyz, /metrics and /v1/openapi.json open', async () => {
    for (const url of ['/healthz', '/readyz', '/metrics', '/v1/openapi.json']) {
      expect((await api.request({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await api.request({ method: 'GET', url: '/readyz' })).json()).toMatchObject({
      status: 'ready',
    });
  });

  it('runs every call as the local account without keys when auth is off', async () => {
    const open = await testApi(bundle, { auth: false });
    try {
      const me = await open.request({ method: 'GET', url: '/v1/me' });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ account: { name: 'local' }, key: null });
      const d = await open.request({ method: 'POST', url: '/v1/diagnostic', payload: body });
      expect(d.json().state).toBe('answer');
      expect((await open.state.usage(me.json().account.id)).quota.used).toBe(1);
    } finally {
      await open.close();
    }
  });
});

describe('problem documents', () => {
  it('answers unknown routes 404 and wrong methods 405 with Allow', async () => {
    expectProblem(await api.request({ method: 'GET', url: '/v3/nothing' }), 404, 'not_found');
    const get = await api.request({ method: 'GET', url: '/v1/diagnostic', headers: auth });
    expectProblem(get, 405, 'method_not_allowed');
    expect(get.headers.allow).toBe('POST');
    const del = await api.request({ method: 'DELETE', url: '/v1/procedure/x', headers: auth });
    expectProblem(del, 405, 'method_not_allowed');
    expect(del.headers.allow).toBe('GET, HEAD');
  });

  it('reports every invalid field of a body as validation_failed errors[]', async () => {
    const res = await api.request({
      method: 'POST',
      url: '/v1/diagnostic',
      headers: auth,
      payload: { brand: '', error_code: 42, colour: 'red', language: 'english' },
    });
    const p = expectProblem(res, 400, 'validation_failed');
    const fields = (p.errors as { field: string; message: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['brand', 'colour', 'error_code', 'language']);
    expect(p.errors).toContainEqual({ field: 'colour', message: 'unknown field' });
  });

  it('refuses bodies that are not JSON objects, too large, or of another media type', async () => {
    const post = (payload: string, type = 'application/json') =>
      api.request({
        method: 'POST',
        url: '/v1/diagnostic',
        headers: { ...auth, 'content-type': type },
        payload,
      });
    expectProblem(await post('{"brand": '), 400, 'malformed_json');
    expectProblem(await post(''), 400, 'malformed_json');
    const arr = expectProblem(await post('[1,2]'), 400, 'validation_failed');
    expect(arr.errors).toEqual([{ field: '(body)', message: 'must be a JSON object' }]);
    expectProblem(await post(JSON.stringify({ ...body, pad: 'x'.repeat(5000) })), 413, 'payload_too_large');
    expectProblem(
      await post('brand=Demotherm', 'application/x-www-form-urlencoded'),
      415,
      'unsupported_media_type',
    );
  });

  it('hides internal errors: no stack, no message, a request id to quote', async () => {
    const broken = await testApi(bundle);
    try {
      broken.app.heatsource.services.handle('whoami', () => {
        throw new Error('secret internal detail at /srv/file.ts:12');
      });
      const k = await broken.key();
      const res = await broken.request({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: k.authorization, 'x-request-id': 'req-123' },
      });
      const p = expectProblem(res, 500, 'internal_error');
      expect(res.body).not.toContain('secret internal detail');
      expect(res.body).not.toMatch(/\bat .+:\d+/);
      expect(p.detail).toContain('req-123');
      expect(res.headers['x-request-id']).toBe('req-123');
    } finally {
      await broken.close();
    }
  });

  it('passes a service error through with its status, code and headers', async () => {
    const custom = await testApi(bundle);
    try {
      custom.app.heatsource.services.handle('whoami', () => {
        throw new ServiceError('rate_limited', 'slow down', { headers: { 'Retry-After': '7' } });
      });
      const k = await custom.key();
      const res = await custom.request({
        method: 'GET',
        url: '/v1/me',
        headers: { authorization: k.authorization },
      });
      expectProblem(res, 429, 'rate_limited');
      expect(res.headers['retry-after']).toBe('7');
    } finally {
      await custom.close();
    }
  });

  it('answers 503 service_unavailable, readiness included, while draining', async () => {
    const draining = await testApi(bundle);
    try {
      draining.app.heatsource.draining = true;
      const ready = await draining.request({ method: 'GET', url: '/readyz' });
      expectProblem(ready, 503, 'service_unavailable');
      const me = await draining.request({ method: 'GET', url: '/v1/me' });
      expectProblem(me, 503, 'service_unavailable');
      expect(me.headers.connection).toBe('close');
    } finally {
      await draining.close();
    }
  });

  it('answers /readyz 503 once the bundle file is written to in place, and 200 after a rename over it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-damaged-'));
    const live = path.join(dir, 'live.bundle');
    fs.copyFileSync(bundle, live);
    const damaged = await testApi(live);
    try {
      expect((await damaged.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      // Overwrite bytes in the middle of the live file, as a copy onto it (not a rename) would.
      const fd = fs.openSync(live, 'r+');
      fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(fs.fstatSync(fd).size / 2));
      fs.closeSync(fd);
      const ready = await damaged.request({ method: 'GET', url: '/readyz' });
      expectProblem(ready, 503, 'service_unavailable');
    } finally {
      await damaged.close();
    }
    // Publishing by rename leaves the open file as it was: still ready.
    fs.copyFileSync(bundle, live);
    const renamed = await testApi(live);
    try {
      fs.copyFileSync(bundle, `${live}.tmp`);
      fs.renameSync(`${live}.tmp`, live);
      expect((await renamed.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await renamed.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('generates a request id when none (or a malformed one) is given', async () => {
    const res = await api.request({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('rate limiting', () => {
  it('refuses past the per-key limit with 429 rate_limited, Retry-After and RateLimit fields', async () => {
    const k = await api.key('limited', { rate: 3 });
    const me = () =>
      api.request({ method: 'GET', url: '/v1/me', headers: { authorization: k.authorization } });
    const first = await me();
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"per-key";q=3;w=60');
    expect(first.headers.ratelimit).toMatch(/^"per-key";r=2;t=\d+$/);
    await me();
    await me();
    const refused = await me();
    expectProblem(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/^"per-key";r=0;t=\d+$/);
    // Another key is counted on its own.
    const other = await api.key('limited');
    expect(
      (
        await api.request({
          method: 'GET',
          url: '/v1/me',
          headers: { authorization: other.authorization },
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('CORS and metrics', () => {
  it('answers preflight requests for allowed origins only', async () => {
    const withCors = await testApi(bundle, { cors: ['https://app.example'] });
    try {
      const ok = await withCors.request({
        method: 'OPTIONS',
        url: '/v1/diagnostic',
        headers: {
          origin: 'https://app.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,idempotency-key',
        },
      });
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(String(ok.headers['access-control-allow-headers'])).toMatch(/Idempotency-Key/);
      const other = await withCors.request({
        method: 'OPTIONS',
        url: '/v1/diagnostic',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await withCors.close();
    }
  });

  it('counts requests, billable units and results in /metrics', async () => {
    await api.request({ method: 'POST', url: '/v1/diagnostic', headers: auth, payload: body });
    const text = (await api.request({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(
      /heatsource_http_requests_total\{method="POST",route="\/v1\/diagnostic",status="200"\} \d+/,
    );
    expect(text).toMatch(/heatsource_billable_units_total\{operation="diagnose"\} [1-9]/);
    expect(text).toMatch(/heatsource_diagnostic_results_total\{operation="diagnose",state="answer"\} [1-9]/);
    expect(text).toContain('heatsource_http_request_duration_seconds_bucket');
  });
});
