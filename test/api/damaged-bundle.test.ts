import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

/**
 * A bundle written to in place under a listening server (a copy onto the live file instead of a rename):
 * every operation that reads it answers a 503 problem document, never a 500 or an answer read from
 * damaged pages; MCP answers a JSON-RPC error that is not -32603; /readyz fails so that a balancer stops
 * sending traffic; /v1/me, which reads the state store only, still answers. The server of the first suite
 * stats its bundle on every request (interval 0), so that each operation is checked right after the
 * write; the last suite keeps the default interval and shows the watch on the file telling the write.
 */

let api: TestApi;
let base: string;
let dir: string;
let live: string;
let authorization: string;
let sessionId: string;
let n = 0;

const unit = { brand: FIX.brand, model: 'DT-A100-E' };

/** One valid request per operation that reads the bundle; the session operations use one open session. */
function requestFor(name: string): { method: string; url: string; body?: unknown } | undefined {
  const s = () => `/v2/diagnostic-sessions/${sessionId}`;
  const table: Record<string, () => { method: string; url: string; body?: unknown }> = {
    diagnose: () => ({ method: 'POST', url: '/v1/diagnostic', body: { ...unit, error_code: 'E9' } }),
    diagnose_guided: () => ({ method: 'POST', url: '/v1/diagnostic/turn', body: { ...unit, message: 'E9' } }),
    search: () => ({ method: 'GET', url: '/v1/search?q=flow%20switch' }),
    get_procedure: () => ({ method: 'GET', url: `/v1/procedure/${FIX.procedureChunk}` }),
    get_error_code: () => ({ method: 'GET', url: `/v1/error-codes/${FIX.brand}/E9` }),
    get_product: () => ({ method: 'GET', url: `/v1/products/${FIX.brand}/DT-A100-E` }),
    get_pdf_snapshot: () => ({ method: 'GET', url: `/v1/pdf-snapshot/${FIX.alpha}/1` }),
    export_offline_pack: () => ({ method: 'GET', url: `/v1/offline-pack?brands=${FIX.brand}` }),
    get_registry: () => ({ method: 'GET', url: '/v1/registry' }),
    diagnose_strict: () => ({ method: 'POST', url: '/v2/diagnostic', body: { ...unit, error_code: 'E9' } }),
    resolve_model: () => ({ method: 'POST', url: '/v2/models/resolve', body: unit }),
    get_model_coverage: () => ({ method: 'GET', url: '/v2/models/demotherm:DTA100E/coverage' }),
    start_diagnostic_session: () => ({
      method: 'POST',
      url: '/v2/diagnostic-sessions',
      body: { ...unit, equipment: 'air_water', error_code: 'E9' },
    }),
    get_diagnostic_session: () => ({ method: 'GET', url: s() }),
    respond_to_diagnostic_session: () => ({
      method: 'POST',
      url: `${s()}/responses`,
      body: { action_id: 'a', unknown: true },
    }),
    undo_diagnostic_session: () => ({ method: 'POST', url: `${s()}/undo`, body: {} }),
    close_diagnostic_session: () => ({ method: 'POST', url: `${s()}/close`, body: {} }),
    get_diagnostic_session_summary: () => ({ method: 'GET', url: `${s()}/summary` }),
  };
  return table[name]?.();
}

async function send(r: { method: string; url: string; body?: unknown }) {
  const res = await fetch(`${base}${r.url}`, {
    method: r.method,
    headers: {
      authorization,
      ...(r.body === undefined
        ? {}
        : { 'content-type': 'application/json', 'idempotency-key': `damaged-${++n}` }),
    },
    body: r.body === undefined ? undefined : JSON.stringify(r.body),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

async function mcp(era: '2025' | '2026', method: string, params: Record<string, unknown>) {
  const headers: Record<string, string> = {
    authorization,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era === '2026' ? '2026-07-28' : '2025-11-25',
  };
  let p = params;
  if (era === '2026') {
    headers['mcp-method'] = method;
    const name = method === 'resources/read' ? params.uri : params.name;
    if (typeof name === 'string') headers['mcp-name'] = name;
    p = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'damaged', version: '0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    };
  }
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: p }),
  });
  type Reply = {
    error?: { code: number; data?: unknown };
    result?: { isError?: boolean; structuredContent?: unknown };
  };
  return { status: res.status, body: JSON.parse(await res.text()) as Reply };
}

beforeAll(async () => {
  const bundle = await buildFixtureBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-damaged-live-'));
  live = path.join(dir, 'live.bundle');
  fs.copyFileSync(bundle, live);
  api = await testApi(live, { readerOptions: { intactCheckMs: 0 } });
  authorization = (await api.key('damaged')).authorization;
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  const started = await send(requestFor('start_diagnostic_session')!);
  expect(started.status, started.text).toBe(201);
  sessionId = (JSON.parse(started.text) as { id: string }).id;
}, 120_000);
afterAll(async () => {
  await api.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a bundle written to in place under a listening server', () => {
  const reading = OPERATIONS.filter((op) => op.name !== 'whoami');

  it('has a request for every operation that reads the bundle, each answered before the damage', async () => {
    for (const op of reading) {
      const r = requestFor(op.name);
      expect(r, `no request for ${op.name}`).toBeDefined();
      const res = await send(r!);
      expect(res.status, `${op.name}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.status, `${op.name}: ${res.text.slice(0, 200)}`).not.toBe(400);
    }
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it('then answers every reading operation with a 503 problem document naming no path', async () => {
    const fd = fs.openSync(live, 'r+');
    fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(fs.fstatSync(fd).size / 2));
    fs.closeSync(fd);
    for (const op of reading) {
      const res = await send(requestFor(op.name)!);
      expect(res.status, `${op.name}: ${res.text.slice(0, 200)}`).toBe(503);
      expect(res.type).toMatch(/^application\/problem\+json/);
      const doc = JSON.parse(res.text) as { code: string; status: number; type: string };
      expect(doc).toMatchObject({ code: 'service_unavailable', status: 503 });
      expect(doc.type).toBe('urn:heatsource:problem:service_unavailable');
      expect(res.text).not.toContain(dir);
    }
  });

  it('fails /readyz, and still answers /v1/me from the state store', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await fetch(`${base}/v1/me`, { headers: { authorization } })).status).toBe(200);
  });

  it('answers MCP resources/read with a JSON-RPC error that is not -32603, and tools with a 503 tool error, in both eras', async () => {
    for (const era of ['2025', '2026'] as const) {
      const read = await mcp(era, 'resources/read', { uri: `heatsource://documents/${FIX.alpha}/pages/1` });
      expect(read.status).toBeLessThan(500);
      expect(read.body.error, JSON.stringify(read.body)).toBeDefined();
      expect(read.body.error?.code).not.toBe(-32603);
      expect(read.body.error?.data).toMatchObject({ code: 'service_unavailable', status: 503 });
      const tool = await mcp(era, 'tools/call', {
        name: 'diagnose',
        arguments: { ...unit, error_code: 'E9' },
      });
      expect(tool.status).toBeLessThan(500);
      expect(tool.body.result?.isError, JSON.stringify(tool.body)).toBe(true);
      expect(tool.body.result?.structuredContent).toMatchObject({ code: 'service_unavailable', status: 503 });
    }
  });
});

describe('a bundle written to in place under a server that stats it at most once an hour', () => {
  it('answers 503 from the watch on the file, without waiting for the interval', async () => {
    const bundle = await buildFixtureBundle();
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-damaged-watch-'));
    const file = path.join(own, 'live.bundle');
    fs.copyFileSync(bundle, file);
    const watched = await testApi(file, { readerOptions: { intactCheckMs: 3_600_000 } });
    try {
      const key = (await watched.key('watched')).authorization;
      const url = `${await watched.app.listen({ host: '127.0.0.1', port: 0 })}/v1/search?q=flow%20switch`;
      const status = async () => (await fetch(url, { headers: { authorization: key } })).status;
      expect(await status()).toBe(200);
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, Math.floor(fs.fstatSync(fd).size / 2));
      fs.closeSync(fd);
      // The watch reports the write on a later turn of the event loop: asked again until it has.
      await expect.poll(status, { timeout: 10_000, interval: 20 }).toBe(503);
      // Once seen, the damage stays seen: every later request is refused too.
      expect(await status()).toBe(503);
    } finally {
      await watched.close();
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});
