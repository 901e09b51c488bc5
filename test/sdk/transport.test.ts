import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type * as Sdk from '@heatsource/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { ensureSdkBuilt } from './build.js';

ensureSdkBuilt();
const sdk: typeof Sdk = await import('@heatsource/sdk');
const { createClient, HeatsourceError, HeatsourceNetworkError, HeatsourceTimeoutError, ENDPOINTS } = sdk;

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** A fetch that answers from a script, one entry per call, and records what it was sent. */
function scripted(...answers: (Response | Error | (() => Response))[]) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    seen.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    const next = answers[Math.min(seen.length - 1, answers.length - 1)];
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next!.clone();
  };
  return { fetch, seen };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(
    JSON.stringify({
      type: `urn:heatsource:problem:${code}`,
      title: code,
      status,
      detail: code,
      instance: '/',
      code,
    }),
    {
      status,
      headers: { 'content-type': 'application/problem+json', ...headers },
    },
  );
const ok = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

const fast = { initialMs: 5, maxMs: 20 };
const BASE = 'http://hs.test/api/';
const E9 = { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' };

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(handler: http.RequestListener): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits: () => hits };
}

describe('requests', () => {
  it('sends the key, JSON and the path under the base URL, with query values for GET', async () => {
    const f = scripted(ok({ results: [] }));
    await createClient({ baseUrl: BASE, apiKey: 'ak_test_x', fetch: f.fetch }).search({
      q: 'low flow',
      brand: 'Demo Therm',
      limit: 3,
    });
    expect(f.seen[0]).toMatchObject({
      method: 'GET',
      url: 'http://hs.test/api/v1/search?q=low+flow&brand=Demo+Therm&limit=3',
      headers: { authorization: 'Bearer ak_test_x', accept: 'application/json' },
    });
    expect(f.seen[0]?.headers['idempotency-key']).toBeUndefined();
  });

  it('calls the session endpoints with their methods, paths and bodies', async () => {
    const f = scripted(ok({ id: 's1' }));
    const hs = createClient({ baseUrl: BASE, apiKey: 'k', fetch: f.fetch });
    await sdk.startDiagnosticSession(hs, { brand: 'Demotherm', model: 'DT-AW080-M', equipment: 'air_water' });
    await hs.getDiagnosticSession('s/1');
    await sdk.respondToDiagnosticSession(hs, 's1', { action_id: 'a1', value: 1.5 });
    await sdk.closeDiagnosticSession(hs, 's1');
    await sdk.getDiagnosticSessionSummary(hs, 's1');
    expect(f.seen.map((s) => `${s.method} ${new URL(s.url).pathname}`)).toEqual([
      'POST /api/v2/diagnostic-sessions',
      'GET /api/v2/diagnostic-sessions/s%2F1',
      'POST /api/v2/diagnostic-sessions/s1/responses',
      'POST /api/v2/diagnostic-sessions/s1/close',
      'GET /api/v2/diagnostic-sessions/s1/summary',
    ]);
    expect(f.seen[0]?.body).toEqual({ brand: 'Demotherm', model: 'DT-AW080-M', equipment: 'air_water' });
    expect(f.seen[2]?.body).toEqual({ action_id: 'a1', value: 1.5 });
    for (const i of [0, 2, 3]) expect(f.seen[i]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createClient({ baseUrl: 'hs.example.com' })).toThrow(/baseUrl/);
  });
});

describe('retries', () => {
  it('waits for Retry-After on 429 before retrying, on a real socket', async () => {
    const server = await listen((_req, res) => {
      if (server.hits() === 1) {
        res.writeHead(429, { 'content-type': 'application/problem+json', 'retry-after': '1' });
        res.end(
          JSON.stringify({
            type: 'x',
            title: 'Too many',
            status: 429,
            detail: 'slow down',
            instance: '/',
            code: 'rate_limited',
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"brands":[]}');
    });
    const started = Date.now();
    const r = await createClient({ baseUrl: server.url, apiKey: 'k', backoff: fast }).getRegistry();
    expect(r).toEqual({ brands: [] });
    expect(server.hits()).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('reuses one generated Idempotency-Key across the retries of a POST', async () => {
    const f = scripted(
      problem(503, 'service_unavailable'),
      new TypeError('socket hang up'),
      ok({ state: 'answer' }),
    );
    const r = await createClient({ baseUrl: BASE, fetch: f.fetch, backoff: fast }).diagnose(E9);
    expect(r.state).toBe('answer');
    const keys = f.seen.map((s) => s.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('uses the caller’s Idempotency-Key when given', async () => {
    const f = scripted(problem(500, 'internal_error'), ok({ status: 'resolved' }));
    await createClient({ baseUrl: BASE, fetch: f.fetch, backoff: fast }).resolveModel(
      { brand: 'Demotherm', model: 'X' },
      { idempotencyKey: 'order-42' },
    );
    expect(f.seen.map((s) => s.headers['idempotency-key'])).toEqual(['order-42', 'order-42']);
  });

  it('does not retry what waiting cannot fix', async () => {
    for (const answer of [
      problem(400, 'validation_failed'),
      problem(429, 'quota_exceeded', { 'retry-after': '1' }),
      problem(404, 'brand_not_found'),
    ]) {
      const f = scripted(answer, ok({}));
      const err = await createClient({ baseUrl: BASE, fetch: f.fetch, backoff: fast })
        .diagnose(E9)
        .catch((e) => e);
      expect(err).toBeInstanceOf(HeatsourceError);
      expect(f.seen).toHaveLength(1);
    }
  });

  it('stops after `retries` and throws the last problem', async () => {
    const f = scripted(problem(503, 'service_unavailable'));
    const err = await createClient({ baseUrl: BASE, fetch: f.fetch, retries: 3, backoff: fast })
      .me()
      .catch((e) => e);
    expect(err).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(f.seen).toHaveLength(4);
    const once = scripted(problem(503, 'service_unavailable'));
    await createClient({ baseUrl: BASE, fetch: once.fetch, backoff: fast })
      .me({ retries: 0 })
      .catch(() => {});
    expect(once.seen).toHaveLength(1);
  });

  it('throws at once when Retry-After is longer than it is willing to wait', async () => {
    const f = scripted(problem(429, 'rate_limited', { 'retry-after': '3600' }), ok({}));
    const err = await createClient({ baseUrl: BASE, fetch: f.fetch })
      .me()
      .catch((e) => e);
    expect(err).toMatchObject({ code: 'rate_limited', retryAfter: 3600 });
    expect(f.seen).toHaveLength(1);
  });

  it('retries a GET after a network failure and reports one when it persists', async () => {
    const flaky = scripted(new TypeError('fetch failed'), ok({ account: {} }));
    await createClient({ baseUrl: BASE, fetch: flaky.fetch, backoff: fast }).me();
    expect(flaky.seen).toHaveLength(2);
    const down = scripted(new TypeError('fetch failed'));
    const err = await createClient({ baseUrl: BASE, fetch: down.fetch, retries: 1, backoff: fast })
      .me()
      .catch((e) => e);
    expect(err).toBeInstanceOf(HeatsourceNetworkError);
    expect(err.code).toBe('network_error');
    expect(down.seen).toHaveLength(2);
  });

  it('turns an error page that is not a problem document into an http_<status> error', async () => {
    const f = scripted(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const err = await createClient({ baseUrl: BASE, fetch: f.fetch, retries: 0 })
      .me()
      .catch((e) => e);
    expect(err).toBeInstanceOf(HeatsourceError);
    expect(err).toMatchObject({ status: 502, code: 'http_502', title: 'Bad Gateway' });
  });

  it('parses Retry-After as seconds or as an HTTP date', () => {
    expect(sdk.parseRetryAfter('7')).toBe(7);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(sdk.parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(sdk.parseRetryAfter('soon')).toBeNull();
    expect(sdk.parseRetryAfter(null)).toBeNull();
  });
});

describe('timeouts and cancellation', () => {
  it('gives up on an attempt after timeoutMs, and retries a GET', async () => {
    const server = await listen(() => {
      // never answers
    });
    const started = Date.now();
    const err = await createClient({ baseUrl: server.url, timeoutMs: 150, retries: 1, backoff: fast })
      .me()
      .catch((e) => e);
    expect(err).toBeInstanceOf(HeatsourceTimeoutError);
    expect(err).toMatchObject({ code: 'timeout', timeoutMs: 150 });
    expect(server.hits()).toBe(2);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('aborts on the caller’s signal, even while waiting to retry', async () => {
    const f = scripted(problem(503, 'service_unavailable', { 'retry-after': '30' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    const started = Date.now();
    const err = await createClient({ baseUrl: BASE, fetch: f.fetch })
      .me({ signal: controller.signal })
      .catch((e) => e);
    expect(err).toEqual(new Error('user left'));
    expect(f.seen).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('the endpoint table', () => {
  it('is the contract’s list of operations: one endpoint and one client method per operation', () => {
    const byOperation = new Map(Object.entries(ENDPOINTS).map(([method, e]) => [e.operation, { method, e }]));
    const client = createClient({ baseUrl: 'http://127.0.0.1:9' }) as unknown as Record<string, unknown>;
    for (const op of OPERATIONS) {
      const found = byOperation.get(op.name as never);
      expect(found, `${op.name} has no SDK endpoint`).toBeDefined();
      expect(found!.e).toMatchObject({ method: op.method, path: op.path, response: op.response, auth: true });
      expect(found!.e.idempotent, op.name).toBe(op.idempotency !== 'none');
      expect(typeof client[found!.method], found!.method).toBe('function');
    }
    // The OpenAPI document is the one endpoint that is no operation.
    expect(Object.keys(ENDPOINTS)).toHaveLength(OPERATIONS.length + 1);
    expect(ENDPOINTS.openapi).toMatchObject({ operation: null, path: '/v1/openapi.json', auth: false });
  });
});
