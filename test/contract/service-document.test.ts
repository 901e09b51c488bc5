import type * as Sdk from '@heatsource/sdk';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS, type OperationSpec } from '../../src/contract/operations.js';
import { FIX } from '../api/fixture.js';
import { ensureSdkBuilt } from '../sdk/build.js';
import {
  mcpClient,
  type RestAnswer,
  rest,
  restRequestOf,
  type ServiceUnderTest,
  startService,
  withoutIds,
} from './harness.js';

/**
 * The service document (../shared/SERVICE-CONTRACT.md), section by section: one test per rule it states,
 * each named by the line it checks, against a listening server, through the official MCP client and the
 * SDK. A rule the document leaves "not shown" is the project's decision (docs/API.md), not tested here
 * as if it were the document's.
 */

ensureSdkBuilt();
const sdk: typeof Sdk = await import('@heatsource/sdk');

let svc: ServiceUnderTest;
let auth: Record<string, string>;
let mcp: Client;

beforeAll(async () => {
  svc = await startService();
  auth = { authorization: `Bearer ${svc.liveKey}` };
  mcp = await mcpClient(svc.mcpUrl, auth);
}, 120_000);
afterAll(async () => {
  await mcp?.close();
  await svc?.close();
});

const UNIT = { brand: FIX.brand, model: 'DT-A100-E' };
const E9 = { ...UNIT, error_code: 'E9' };

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  rest(svc.baseUrl, 'POST', url, { headers: { ...auth, ...headers }, body });
const get = (url: string, headers: Record<string, string> = {}) =>
  rest(svc.baseUrl, 'GET', url, { headers: { ...auth, ...headers } });

interface ToolResult {
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
const tool = async (name: string, args: Record<string, unknown>) =>
  (await mcp.callTool({ name, arguments: args })) as ToolResult;

async function charges(operation?: string): Promise<number> {
  const ledger = await svc.api.state.ledger({ account_id: svc.accountId });
  return ledger.filter((e) => operation === undefined || e.operation === operation).length;
}

function spec(name: string): OperationSpec {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
}

/** A raw JSON-RPC POST to {mcp_url}, as the document writes it: Content-Type application/json. */
async function rpc(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return rest(svc.baseUrl, 'POST', '/mcp', {
    headers: { ...auth, accept: 'application/json, text/event-stream', ...headers },
    body: { jsonrpc: '2.0', id: 1, method, params },
  });
}

describe('1. What the service does', () => {
  it('"It returns sourced results: a manual excerpt, steps and a citation."', async () => {
    const res = await post('/v1/diagnostic', E9);
    expect(res.status).toBe(200);
    const body = res.json as {
      excerpt: { text: string; document_id: string; page: number };
      steps: { text: string }[];
      citation: { document_id: string; page: number; snapshot_url: string };
    };
    expect(body.excerpt.text).toContain('E9');
    expect(body.steps.length).toBeGreaterThan(0);
    expect(body.citation).toMatchObject({ document_id: body.excerpt.document_id, page: body.excerpt.page });
    // The cited page exists: its snapshot is served.
    const page = await get(new URL(body.citation.snapshot_url, svc.baseUrl).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^image\//);
  });

  it('"MCP (JSON-RPC 2.0 over HTTP POST) at {mcp_url}."', async () => {
    const res = await rpc('tools/list', {});
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
  });

  it('"A machine-readable OpenAPI description is served at {base_url}/v1/openapi.json."', async () => {
    const res = await get('/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json?.openapi).toMatch(/^3\./);
    expect(Object.keys(res.json?.paths as object).length).toBeGreaterThan(0);
  });
});

describe('2. Resources and their fields', () => {
  it('"The field is named `error_code` in the request body."', async () => {
    const res = await post('/v1/diagnostic', E9);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ state: 'answer', error_code: 'E9' });
  });

  it('"brand | string | Manufacturer name." "model | string | Model name." (sent together with error_code)', async () => {
    // The three fields sent together, as strings, are the whole request the document shows.
    const res = await post('/v1/diagnostic', { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' });
    expect(res.status).toBe(200);
    const wrongType = await post('/v1/diagnostic', { ...E9, error_code: 9 });
    expect(wrongType.status).toBe(400);
  });

  it('"A v1 result contains a manual excerpt, steps and a citation."', async () => {
    const body = (await post('/v1/diagnostic', E9)).json!;
    expect(body).toHaveProperty('excerpt');
    expect(body).toHaveProperty('steps');
    expect(body).toHaveProperty('citation');
  });

  it('"A v2 result contains the fields `status` and `diagnostic`. `diagnostic` is null when `status` = `no_exact_source`."', async () => {
    const exact = (await post('/v2/diagnostic', E9)).json!;
    expect(exact).toHaveProperty('status');
    expect(exact.diagnostic).not.toBeNull();
    // DT-C400-M has only a manual that is not approved.
    const none = (await post('/v2/diagnostic', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' }))
      .json!;
    expect(none).toMatchObject({ status: 'no_exact_source', diagnostic: null });
  });

  it('"q | /v1/search | Required query parameter: the search text."', async () => {
    expect((await get('/v1/search?q=water%20flow')).status).toBe(200);
    const missing = await get('/v1/search');
    expect(missing.status).toBe(400);
  });
});

describe('3. States and transitions', () => {
  it('"No approved manual exists for the exact model (SKU) | `status` = `no_exact_source`, `diagnostic` = null; the request is not billable."', async () => {
    const before = await charges();
    const res = await post('/v2/diagnostic', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' });
    expect(res.json).toMatchObject({ status: 'no_exact_source', diagnostic: null, billable: false });
    expect(await charges()).toBe(before);
  });

  it('"An approved exact-model manual covers the SKU | An answer from that manual is returned"', async () => {
    const body = (await post('/v2/diagnostic', E9)).json as {
      diagnostic: { excerpt: { document_id: string } };
      sources: { document_id: string; approved: boolean }[];
    };
    expect(body.sources.every((s) => s.approved)).toBe(true);
    expect(body.sources.map((s) => s.document_id)).toContain(body.diagnostic.excerpt.document_id);
  });

  it('"Input matches a model exactly or by alias | Model resolved."', async () => {
    expect((await post('/v2/models/resolve', { model: 'DT-A100-E' })).json).toMatchObject({
      status: 'resolved',
      model: { name: 'DT-A100-E', match: 'exact' },
    });
    expect((await post('/v2/models/resolve', { model: 'DT-A100-TR' })).json).toMatchObject({
      status: 'resolved',
      model: { name: 'DT-A100-E', match: 'alias' },
    });
  });

  it('"Input is the name of a product range | Never resolved: resolution is by exact model or alias only."', async () => {
    for (const body of [{ model: 'Alpha' }, { brand: FIX.brand, model: 'Alpha' }]) {
      const res = (await post('/v2/models/resolve', body)).json!;
      expect(res).toMatchObject({ status: 'unresolved', model: null });
    }
    // Nor is a close name: never fuzzy.
    expect((await post('/v2/models/resolve', { model: 'DT-A100' })).json).toMatchObject({
      status: 'unresolved',
    });
  });

  it('"The operations on a session are create, read, respond, close and summarize"', async () => {
    const created = await post('/v2/diagnostic-sessions', E9);
    expect(created.status).toBe(201);
    const s = created.json as { id: string; next_action: { id: string } };
    expect((await get(`/v2/diagnostic-sessions/${s.id}`)).status).toBe(200);
    const responded = await post(`/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: s.next_action.id,
      unknown: true,
    });
    expect(responded.status).toBe(200);
    expect((await post(`/v2/diagnostic-sessions/${s.id}/close`, {})).json).toMatchObject({
      status: 'closed',
    });
    expect((await get(`/v2/diagnostic-sessions/${s.id}/summary`)).json).toMatchObject({ status: 'closed' });
  });
});

describe('4. Endpoints', () => {
  it('"Request bodies are JSON (`Content-Type: application/json`)."', async () => {
    const before = await charges();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await rest(svc.baseUrl, 'POST', '/v1/diagnostic', {
        headers: { ...auth, 'content-type': type },
        body: E9,
      });
      // Which 4xx is the project's choice (docs/API.md); that the body is refused is the document's.
      expect(res.status, type).toBeGreaterThanOrEqual(400);
      expect(res.status, type).toBeLessThan(500);
    }
    expect(await charges()).toBe(before);
  });

  /** Section 4's tables, row by row: method, path as written, and a request the row describes. */
  const ROWS: [method: 'GET' | 'POST', path: string, url: () => Promise<string>, body?: unknown][] = [
    ['POST', '/v1/diagnostic', async () => '/v1/diagnostic', E9],
    ['GET', '/v1/search', async () => '/v1/search?q=flow%20switch'],
    ['GET', '/v1/procedure/:chunkId', async () => `/v1/procedure/${FIX.procedureChunk}`],
    ['GET', '/v1/error-codes/:brand/:code', async () => '/v1/error-codes/Demotherm/E9'],
    ['GET', '/v1/products/:brand/:model', async () => '/v1/products/Demotherm/DT-A100-E'],
    ['GET', '/v1/pdf-snapshot/:documentId/:page', async () => `/v1/pdf-snapshot/${FIX.alpha}/2`],
    ['GET', '/v1/registry', async () => '/v1/registry'],
    ['GET', '/v1/me', async () => '/v1/me'],
    ['GET', '/v1/openapi.json', async () => '/v1/openapi.json'],
    ['POST', '/v2/diagnostic', async () => '/v2/diagnostic', E9],
    ['POST', '/v2/models/resolve', async () => '/v2/models/resolve', { model: 'DT-A100-E' }],
    ['GET', '/v2/models/:model_id/coverage', async () => '/v2/models/demotherm:DTA100E/coverage'],
    ['POST', '/v2/diagnostic-sessions', async () => '/v2/diagnostic-sessions', E9],
    [
      'GET',
      '/v2/diagnostic-sessions/:session_id',
      async () => `/v2/diagnostic-sessions/${await newSession()}`,
    ],
    [
      'POST',
      '/v2/diagnostic-sessions/:session_id/close',
      async () => `/v2/diagnostic-sessions/${await newSession()}/close`,
      {},
    ],
    [
      'GET',
      '/v2/diagnostic-sessions/:session_id/summary',
      async () => `/v2/diagnostic-sessions/${await newSession()}/summary`,
    ],
  ];
  async function newSession(): Promise<string> {
    return ((await post('/v2/diagnostic-sessions', E9)).json as { id: string }).id;
  }

  it.each(ROWS)('"| %s | %s |" answers', async (method, _path, url, body) => {
    const res = method === 'GET' ? await get(await url()) : await post(await url(), body);
    expect(res.status, Buffer.from(res.bytes).toString('utf8').slice(0, 300)).toBeLessThan(300);
  });

  it('"| POST | /v2/diagnostic-sessions/:session_id/responses | Submit a typed response. |"', async () => {
    const s = (await post('/v2/diagnostic-sessions', E9)).json as {
      id: string;
      next_action: { id: string; expected: { type: string } };
    };
    const res = await post(`/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: s.next_action.id,
      unknown: true,
    });
    expect(res.status).toBe(200);
    // Typed: a value of another type than the pending action expects is refused.
    const next = (res.json as { next_action: { id: string; expected: { type: string } } | null }).next_action;
    expect(next).not.toBeNull();
    const wrong = next!.expected.type === 'number' ? 'not a number' : 12345;
    const typed = await post(`/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: next!.id,
      value: wrong,
    });
    expect(typed.status).toBe(422);
  });

  it('"POST | /v1/diagnostic/turn | … Header `Idempotency-Key` is required."', async () => {
    const first = { ...E9, message: 'the heating stops' };
    const without = await post('/v1/diagnostic/turn', first);
    expect(without.status).toBeGreaterThanOrEqual(400);
    expect(without.status).toBeLessThan(500);
    const withKey = await post('/v1/diagnostic/turn', first, { 'idempotency-key': 'conformance-turn-1' });
    expect(withKey.status).toBe(200);
  });

  it('"Creating a session is charged once against the quota."', async () => {
    const before = await charges('start_diagnostic_session');
    await post('/v2/diagnostic-sessions', E9);
    expect(await charges('start_diagnostic_session')).toBe(before + 1);
  });

  it('"functions startDiagnosticSession, respondToDiagnosticSession, closeDiagnosticSession and getDiagnosticSessionSummary"', async () => {
    const hs = sdk.createClient({ baseUrl: svc.baseUrl, apiKey: svc.liveKey });
    const s = await sdk.startDiagnosticSession(hs, E9);
    expect(s.status).toBe('active');
    const next = await sdk.respondToDiagnosticSession(hs, s.id, {
      action_id: s.next_action!.id,
      unknown: true,
    });
    expect(next.history).toHaveLength(1);
    expect((await sdk.closeDiagnosticSession(hs, s.id)).status).toBe('closed');
    expect((await sdk.getDiagnosticSessionSummary(hs, s.id)).path).toHaveLength(1);
    // The document's request, through the SDK as through REST.
    expect((await hs.diagnose(E9)).state).toBe('answer');
  });

  it('"Request envelope | Object with `jsonrpc` ("2.0"), `id`, `method`, `params` (object)." "Method `tools/list` | `params` is an empty object; returns the available tools."', async () => {
    const res = await rpc('tools/list', {});
    const tools = (res.json!.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(OPERATIONS.map((o) => o.name)));
  });

  it('"Transport | JSON-RPC 2.0 carried by HTTP POST, with `Content-Type: application/json`."', async () => {
    // Written from the document alone: no Accept header, no initialize first.
    const res = await rest(svc.baseUrl, 'POST', '/mcp', {
      headers: auth,
      body: { jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ jsonrpc: '2.0', id: 7 });
  });

  it('"Tools named | `diagnose` (lookup), `diagnose_guided` (guided, beta; …), and further tools returned by `tools/list`."', async () => {
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toContain('diagnose');
    expect(names).toContain('diagnose_guided');
  });

  it('"Tool calls | Method `tools/call`; returns the same payloads as the REST equivalents."', async () => {
    const viaMcp = await tool('diagnose', E9);
    expect(viaMcp.structuredContent).toEqual((await post('/v1/diagnostic', E9)).json);
  });

  it('"`diagnose_guided` (guided, beta; `Idempotency-Key` or `request_id` required)"', async () => {
    const first = { ...E9, message: 'the heating stops' };
    const without = await tool('diagnose_guided', first);
    expect(without.isError).toBe(true);
    const withRequestId = await tool('diagnose_guided', { ...first, request_id: 'conformance-guided-1' });
    expect(withRequestId.isError ?? false).toBe(false);
    const header = await rpc(
      'tools/call',
      { name: 'diagnose_guided', arguments: first },
      { 'idempotency-key': 'conformance-guided-2' },
    );
    expect((header.json!.result as ToolResult).isError ?? false).toBe(false);
  });

  it('"GET with `Accept: text/event-stream` | Answered with status 405. … No stream is offered."', async () => {
    const res = await rest(svc.baseUrl, 'GET', '/mcp', { headers: { ...auth, accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('content-type') ?? '').not.toContain('text/event-stream');
  });

  it('"Header `MCP-Protocol-Version` | Optional. When absent, the value `2025-06-18` applies."', async () => {
    const call = { name: 'diagnose', arguments: E9 };
    const absent = await rpc('tools/call', call);
    const stated = await rpc('tools/call', call, { 'mcp-protocol-version': '2025-06-18' });
    const older = await rpc('tools/call', call, { 'mcp-protocol-version': '2025-03-26' });
    expect(absent.status).toBe(200);
    expect(absent.json).toEqual(stated.json);
    // 2025-06-18 is what applies, not an older revision: its resource links are there, 2025-03-26 has none.
    const types = (r: RestAnswer) => (r.json!.result as ToolResult).content.map((c) => c.type);
    expect(types(absent)).toContain('resource_link');
    expect(types(older)).not.toContain('resource_link');
  });
});

/**
 * "An agent calling through REST or MCP receives the same payloads as a direct REST call." One input per
 * operation of the service; every operation must have one, so a new operation cannot skip the check.
 */
describe('1. Same payloads through REST and MCP, for every operation', () => {
  const SESSION_INPUT = { ...E9 };
  const inputs: Record<string, () => Promise<Record<string, unknown>[]> | Record<string, unknown>[]> = {
    diagnose: () => [
      E9,
      { ...UNIT, error_code: 'Z99' },
      { brand: 'Demotherm', model: 'Alpha', error_code: 'E9' },
    ],
    diagnose_strict: () => [E9, { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' }],
    search: () => [{ q: 'water flow' }],
    get_procedure: () => [{ chunk_id: FIX.procedureChunk }],
    get_error_code: () => [{ brand: 'Demotherm', code: 'E9' }],
    get_product: () => [{ brand: 'Demotherm', model: 'DT-A100-E' }],
    get_registry: () => [{}],
    whoami: () => [{}],
    resolve_model: () => [{ model: 'DT-A100-TR' }, { brand: FIX.brand, model: 'Alpha' }],
    get_model_coverage: () => [{ model_id: 'demotherm:DTA100E' }],
  };

  it('has an input for every operation', () => {
    const covered = new Set([
      ...Object.keys(inputs),
      'get_pdf_snapshot',
      'export_offline_pack',
      'diagnose_guided',
      'start_diagnostic_session',
      'get_diagnostic_session',
      'respond_to_diagnostic_session',
      'undo_diagnostic_session',
      'close_diagnostic_session',
      'get_diagnostic_session_summary',
    ]);
    expect(OPERATIONS.map((o) => o.name).filter((n) => !covered.has(n))).toEqual([]);
  });

  it.each(Object.keys(inputs))('%s', async (name) => {
    const op = spec(name);
    for (const input of await inputs[name]!()) {
      const req = restRequestOf(op, input);
      const viaRest = op.method === 'GET' ? await get(req.url) : await post(req.url, req.body);
      const viaMcp = await tool(name, input);
      expect(viaMcp.structuredContent, `${name} ${JSON.stringify(input)}`).toEqual(viaRest.json);
      expect(viaMcp.isError ?? false).toBe(viaRest.status >= 400);
    }
  });

  it('get_pdf_snapshot: the same image', async () => {
    const viaRest = await get(`/v1/pdf-snapshot/${FIX.alpha}/2`);
    const viaMcp = await tool('get_pdf_snapshot', { document_id: FIX.alpha, page: 2 });
    const image = viaMcp.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe(viaRest.headers.get('content-type'));
    expect(Buffer.from(image.data!, 'base64').equals(Buffer.from(viaRest.bytes))).toBe(true);
    expect(viaMcp.structuredContent).toMatchObject({ document_id: FIX.alpha, page: 2 });
  });

  it('the session operations and diagnose_guided: the same payloads, ids aside', async () => {
    const viaRest = await post('/v2/diagnostic-sessions', SESSION_INPUT);
    const viaMcp = await tool('start_diagnostic_session', SESSION_INPUT);
    expect(withoutIds(viaMcp.structuredContent)).toEqual(withoutIds(viaRest.json));
    const a = viaRest.json as { id: string; next_action: { id: string } };
    const b = viaMcp.structuredContent as { id: string };
    const pairs: [string, (id: string) => Promise<RestAnswer>, Record<string, unknown>][] = [
      ['get_diagnostic_session', (id) => get(`/v2/diagnostic-sessions/${id}`), {}],
      [
        'respond_to_diagnostic_session',
        (id) =>
          post(`/v2/diagnostic-sessions/${id}/responses`, { action_id: a.next_action.id, unknown: true }),
        { action_id: a.next_action.id, unknown: true },
      ],
      ['undo_diagnostic_session', (id) => post(`/v2/diagnostic-sessions/${id}/undo`, {}), {}],
      ['close_diagnostic_session', (id) => post(`/v2/diagnostic-sessions/${id}/close`, {}), {}],
      ['get_diagnostic_session_summary', (id) => get(`/v2/diagnostic-sessions/${id}/summary`), {}],
    ];
    for (const [name, viaRestOf, extra] of pairs) {
      const r = await viaRestOf(a.id);
      const m = await tool(name, { session_id: b.id, ...extra });
      expect(withoutIds(m.structuredContent), name).toEqual(withoutIds(r.json));
    }
    const first = { ...E9, message: 'the heating stops' };
    const turnRest = await post('/v1/diagnostic/turn', first, { 'idempotency-key': 'parity-turn-rest' });
    const turnMcp = await tool('diagnose_guided', { ...first, request_id: 'parity-turn-mcp' });
    expect(withoutIds(turnMcp.structuredContent)).toEqual(withoutIds(turnRest.json));
  });
});

describe('5. Authentication', () => {
  it('"Every REST call and every MCP call carries the header `Authorization: Bearer <API_KEY>`."', async () => {
    const restWithout = await rest(svc.baseUrl, 'POST', '/v1/diagnostic', { body: E9 });
    expect(restWithout.status).toBe(401);
    const mcpWithout = await rest(svc.baseUrl, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(mcpWithout.status).toBe(401);
  });

  it('"An API key for live use begins with the prefix `ak_live_`."', async () => {
    expect(svc.liveKey.startsWith('ak_live_')).toBe(true);
    const me = (await get('/v1/me')).json as { key: { prefix: string; mode: string } };
    expect(me.key.mode).toBe('live');
    expect(me.key.prefix.startsWith('ak_live_')).toBe(true);
  });
});

describe('6. Events', () => {
  it('"the MCP endpoint offers no server-sent event stream"', async () => {
    // Even a client that accepts a stream gets one JSON answer.
    const res = await rpc('tools/call', { name: 'diagnose', arguments: E9 });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const get405 = await rest(svc.baseUrl, 'GET', '/mcp', {
      headers: { ...auth, accept: 'text/event-stream' },
    });
    expect(get405.status).toBe(405);
  });
});

describe('7. Errors', () => {
  it('"GET on the MCP address with `Accept: text/event-stream` | HTTP 405."', async () => {
    expect(
      (await rest(svc.baseUrl, 'GET', '/mcp', { headers: { accept: 'text/event-stream' } })).status,
    ).toBe(405);
  });

  it('"`POST /v1/diagnostic/turn` without `Idempotency-Key` | The call is invalid; the header is mandatory"', async () => {
    const before = await charges();
    const res = await post('/v1/diagnostic/turn', { ...E9, message: 'it stops' });
    expect(res.status).toBe(400);
    expect(await charges()).toBe(before);
  });

  it('"`diagnose_guided` without `Idempotency-Key` or `request_id` | The call is invalid; one of them is mandatory."', async () => {
    const before = await charges();
    const res = await tool('diagnose_guided', { ...E9, message: 'it stops' });
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ status: 400 });
    expect(await charges()).toBe(before);
  });

  it('"v2 diagnostic for a SKU without an approved exact manual | Not an error: a normal result with `status` = `no_exact_source` and `diagnostic` = null."', async () => {
    const res = await post('/v2/diagnostic', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'no_exact_source', diagnostic: null });
    const viaMcp = await tool('diagnose_strict', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' });
    expect(viaMcp.isError ?? false).toBe(false);
  });
});

describe('8. Limits', () => {
  it('"Creating a diagnostic session is charged once against the quota, regardless of the number of later responses."', async () => {
    const before = await charges();
    let s = (await post('/v2/diagnostic-sessions', E9)).json as {
      id: string;
      status: string;
      next_action: { id: string } | null;
    };
    let responses = 0;
    while (s.status === 'active' && s.next_action && responses < 8) {
      const r = await post(`/v2/diagnostic-sessions/${s.id}/responses`, {
        action_id: s.next_action.id,
        unknown: true,
      });
      expect(r.status).toBe(200);
      s = r.json as typeof s;
      responses++;
    }
    await get(`/v2/diagnostic-sessions/${s.id}`);
    await post(`/v2/diagnostic-sessions/${s.id}/close`, {});
    await get(`/v2/diagnostic-sessions/${s.id}/summary`);
    expect(responses).toBeGreaterThan(1);
    expect(await charges()).toBe(before + 1);
  });

  it('"A v2 diagnostic answering `no_exact_source` is not billable."', async () => {
    const before = await charges();
    await post('/v2/diagnostic', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' });
    await tool('diagnose_strict', { brand: FIX.brand, model: 'DT-C400-M', error_code: 'H7' });
    expect(await charges()).toBe(before);
  });
});

describe('9. Versioning', () => {
  it('"REST v1 | Prefix {base_url}/v1" "REST v2 | Prefix {base_url}/v2"', () => {
    for (const op of OPERATIONS) expect(op.path, op.name).toMatch(/^\/v[12]\//);
    const v2 = OPERATIONS.filter((o) => o.path.startsWith('/v2/')).map((o) => o.path);
    expect(v2).toContain('/v2/diagnostic');
    expect(v2).toContain('/v2/diagnostic-sessions');
  });

  it('"Machine-readable description | {base_url}/v1/openapi.json."', async () => {
    // Open, as a description is read before a key exists.
    const res = await rest(svc.baseUrl, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
  });
});

/**
 * "A machine-readable OpenAPI description is served at {base_url}/v1/openapi.json.": it describes what
 * the server accepts, so the requests the server accepts validate against it, and requests it refuses
 * for their shape do not.
 */
describe('1. The OpenAPI description matches what the server accepts', () => {
  let doc: {
    paths: Record<string, Record<string, { requestBody?: unknown; parameters?: Param[] }>>;
  } & Record<string, unknown>;
  interface Param {
    name: string;
    in: 'path' | 'query' | 'header';
    required?: boolean;
    schema: unknown;
  }
  let ajv: Ajv2020;

  beforeAll(async () => {
    doc = (await rest(svc.baseUrl, 'GET', '/v1/openapi.json')).json as typeof doc;
    ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false });
    ajv.addSchema(doc, 'openapi.json');
  });

  const pointer = (...parts: string[]) =>
    `openapi.json#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const openapiPath = (op: OperationSpec) => op.path.replace(/:([a-z_]+)/g, '{$1}');

  function bodyValid(op: OperationSpec, body: unknown): boolean {
    const validate = ajv.getSchema(
      pointer('paths', openapiPath(op), 'post', 'requestBody', 'content', 'application/json', 'schema'),
    );
    if (!validate) throw new Error(`no request body schema for ${op.name}`);
    return validate(body) as boolean;
  }

  it('lists every operation the server serves, with its method', () => {
    for (const op of OPERATIONS) {
      expect(doc.paths[openapiPath(op)]?.[op.method.toLowerCase()], op.name).toBeDefined();
    }
  });

  const accepted: [name: string, body: Record<string, unknown>][] = [
    ['diagnose', E9],
    ['diagnose', { brand: 'Demotherm', error_code: 'E9', language: 'en' }],
    ['diagnose_strict', E9],
    ['diagnose_guided', { ...E9, message: 'the heating stops' }],
    ['resolve_model', { model: 'DT-A100-E' }],
    ['resolve_model', { brand: 'Demotherm', model: 'DT-A100-E' }],
    ['start_diagnostic_session', E9],
    ['start_diagnostic_session', { ...UNIT, equipment: 'air_water', symptom: 'no heat' }],
  ];
  it.each(accepted)('a %s body the server accepts validates: %j', async (name, body) => {
    const op = spec(name);
    const res = await post(op.path, body, { 'idempotency-key': `openapi-${name}-${Math.random()}` });
    expect(res.status, JSON.stringify(res.json)).toBeLessThan(300);
    expect(bodyValid(op, body)).toBe(true);
  });

  const refused: [name: string, body: Record<string, unknown>][] = [
    ['diagnose', { ...UNIT, code: 'E9' }],
    ['diagnose', { ...E9, colour: 'red' }],
    ['diagnose', { model: 'DT-A100-E', error_code: 'E9' }],
    ['diagnose_strict', { ...UNIT, code: 'E9' }],
    ['resolve_model', { brand: 'Demotherm' }],
    ['start_diagnostic_session', { ...UNIT, code: 'E9' }],
  ];
  it.each(refused)('a %s body the server refuses does not validate: %j', async (name, body) => {
    const op = spec(name);
    const res = await post(op.path, body, { 'idempotency-key': `openapi-${name}-${Math.random()}` });
    expect(res.status).toBe(400);
    expect(bodyValid(op, body)).toBe(false);
  });

  it('the parameters of GET requests the server accepts validate against their schemas', async () => {
    const requests: [string, Record<string, string>][] = [
      ['search', { q: 'water flow', limit: '5' }],
      ['get_error_code', { brand: 'Demotherm', code: 'E9' }],
      ['get_product', { brand: 'Demotherm', model: 'DT-A100-E' }],
      ['get_procedure', { chunk_id: FIX.procedureChunk }],
      ['get_model_coverage', { model_id: 'demotherm:DTA100E' }],
      ['get_pdf_snapshot', { document_id: FIX.alpha, page: '2', width: '200' }],
    ];
    const coercing = new Ajv2020({ strict: false, coerceTypes: true });
    for (const [name, values] of requests) {
      const op = spec(name);
      const res = await get(restRequestOf(op, values).url);
      expect(res.status, name).toBe(200);
      const params = doc.paths[openapiPath(op)]!.get!.parameters ?? [];
      for (const [key, value] of Object.entries(values)) {
        const param = params.find((p) => p.name === key && p.in !== 'header');
        expect(param, `${name}: ${key} is not described`).toBeDefined();
        const validate = coercing.compile({ ...(param!.schema as object), $schema: undefined });
        expect(validate(value), `${name}: ${key}=${value}`).toBe(true);
      }
      for (const p of params.filter((p) => p.required))
        expect(values, `${name} needs ${p.name}`).toHaveProperty(p.name);
    }
  });
});
