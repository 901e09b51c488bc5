import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { toolInputSchema } from '../../src/mcp/tool-schemas.js';
import { MAX_PARAM_LENGTH } from '../../src/serve/app.js';
import { mcpPost, rawExchange } from '../helpers/raw-http.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

let api: TestApi;
let base: string;
let authorization: string;

// Short limits, so that the stalled connections below are cut within the test's time.
const TIMEOUTS = { headersMs: 600, requestMs: 1200, keepAliveMs: 1000, idleMs: 5000, checkEveryMs: 100 };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle(), { timeouts: TIMEOUTS });
  authorization = (await api.key('hostile')).authorization;
  base = await api.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => api.close());

function expectProblem(status: number, type: string | undefined, body: string, code: string) {
  expect(type ?? '').toMatch(/^application\/problem\+json/);
  const doc = JSON.parse(body) as { status: number; code: string; type: string; title: string };
  expect(doc.code).toBe(code);
  expect(doc.status).toBe(status);
  expect(doc.type).toBe(`urn:heatsource:problem:${code}`);
  return doc;
}

const mcpCall = (name: string, args: Record<string, unknown>) =>
  mcpPost(`${base}/mcp`, authorization, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });

describe('stalled and slow clients', () => {
  it('cuts a request whose body never finishes, with 408 request_timeout', async () => {
    const head =
      'POST /v1/diagnostic HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Authorization: ${authorization}\r\nContent-Length: 1000\r\n\r\n{`;
    const r = await rawExchange(base, head, 8000);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(8000);
    expect(r.status).toBe(408);
    expectProblem(408, r.headers['content-type'], r.body, 'request_timeout');
  });

  it('cuts a request without a key whose headers never finish', async () => {
    const r = await rawExchange(base, 'GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Slow: ', 8000);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(8000);
  });

  it('closes an idle keep-alive connection', async () => {
    const r = await rawExchange(base, 'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n', 8000);
    expect(r.status).toBe(200);
    expect(r.closed).toBe(true);
  });
});

describe('every error is a problem document', () => {
  it('answers a path that does not decode', async () => {
    const res = await fetch(`${base}/v1/procedure/%`, { headers: { authorization } });
    expect(res.status).toBe(400);
    expectProblem(400, res.headers.get('content-type') ?? '', await res.text(), 'validation_failed');
  });

  it('answers malformed HTTP', async () => {
    for (const raw of [
      'GARBAGE\r\n\r\n',
      'GET / HTTP/9.9\r\n\r\n',
      'GET /v1/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'POST /v1/diagnostic HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
      'POST /v1/diagnostic HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ]) {
      const r = await rawExchange(base, raw, 4000);
      expect(r.status, raw).toBe(400);
      expectProblem(400, r.headers['content-type'], r.body, 'malformed_request');
      expect(r.closed).toBe(true);
    }
  });

  it('answers headers larger than the server takes with 431', async () => {
    const r = await rawExchange(
      base,
      `GET /v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
      4000,
    );
    expect(r.status).toBe(431);
    expectProblem(431, r.headers['content-type'], r.body, 'headers_too_large');
  });

  it('answers a body too large, bad JSON and a wrong content type', async () => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${base}/v1/diagnostic`, {
        method: 'POST',
        headers: { authorization, 'content-type': type },
        body,
      });
    let res = await post(JSON.stringify({ brand: 'x'.repeat(100_000) }));
    expect(res.status).toBe(413);
    expectProblem(413, res.headers.get('content-type') ?? '', await res.text(), 'payload_too_large');
    res = await post('{"brand":');
    expectProblem(400, res.headers.get('content-type') ?? '', await res.text(), 'malformed_json');
    res = await post('brand=x', 'text/plain');
    expectProblem(415, res.headers.get('content-type') ?? '', await res.text(), 'unsupported_media_type');
  });
});

describe('identifiers: REST and MCP agree', () => {
  it('sets the router limit above every path parameter the schemas accept', () => {
    for (const op of OPERATIONS) {
      const props = (toolInputSchema(op).schema.properties ?? {}) as Record<string, { maxLength?: number }>;
      for (const [, name] of op.path.matchAll(/:([a-z_]+)/g)) {
        const max = props[name!]?.maxLength;
        if (max !== undefined) expect(max, `${op.name}.${name}`).toBeLessThan(MAX_PARAM_LENGTH);
      }
    }
  });

  it('answers an id longer than the router default as the schema says, over REST and MCP', async () => {
    for (const [length, code] of [
      [101, 'chunk_not_found'],
      [300, 'chunk_not_found'],
      [301, 'validation_failed'],
      [MAX_PARAM_LENGTH + 5, 'validation_failed'],
    ] as const) {
      const id = `${FIX.alpha}.${'x'.repeat(length - FIX.alpha.length - 1)}`;
      const res = await fetch(`${base}/v1/procedure/${id}`, { headers: { authorization } });
      const rest = expectProblem(
        code === 'chunk_not_found' ? 404 : 400,
        res.headers.get('content-type') ?? '',
        await res.text(),
        code,
      );
      const mcp = await mcpCall('get_procedure', { chunk_id: id });
      const result = mcp.body.result as { isError?: boolean; structuredContent: { code: string } };
      expect(result.isError).toBe(true);
      expect(result.structuredContent.code, `length ${length}`).toBe(rest.code);
    }
  });

  it('refuses a lone surrogate in an id argument as a validation error, not an internal one', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['get_procedure', { chunk_id: 'x\ud800' }],
      ['get_error_code', { brand: FIX.brand, code: 'E\udc00' }],
      ['get_product', { brand: 'D\ud800', model: 'DT-A100-E' }],
      ['get_pdf_snapshot', { document_id: '\udfff', page: 1 }],
      ['get_model_coverage', { model_id: 'm\ud800' }],
      ['get_diagnostic_session', { session_id: 's\ud800' }],
    ];
    for (const [name, args] of calls) {
      const r = await mcpCall(name, args);
      expect(r.status).toBe(200);
      expect(r.body.error, name).toBeUndefined();
      const result = r.body.result as { isError?: boolean; structuredContent: { code: string } };
      expect(result.isError, name).toBe(true);
      expect(result.structuredContent.code, name).toBe('validation_failed');
    }
    // The same through REST's JSON body.
    const res = await fetch(`${base}/v2/models/resolve`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: '{"brand":"Demotherm","model":"DT\\ud800"}',
    });
    expectProblem(400, res.headers.get('content-type') ?? '', await res.text(), 'validation_failed');
  });

  it('refuses a lone surrogate in the brand, model or text of a billable request, over REST and MCP, unbilled', async () => {
    const key = await api.key('surrogates');
    const bodies: [string, string, string, Record<string, unknown>][] = [
      [
        'diagnose',
        'POST',
        '/v1/diagnostic',
        { brand: FIX.brand, model: 'DT-AW080-M\ud800', error_code: 'E9' },
      ],
      ['diagnose', 'POST', '/v1/diagnostic', { brand: 'Demo\udfff', error_code: 'E9' }],
      ['diagnose_strict', 'POST', '/v2/diagnostic', { brand: FIX.brand, model: 'M\ud800', error_code: 'E9' }],
      [
        'diagnose_guided',
        'POST',
        '/v1/diagnostic/turn',
        { brand: FIX.brand, model: 'M\ud800', message: 'E9' },
      ],
      [
        'start_diagnostic_session',
        'POST',
        '/v2/diagnostic-sessions',
        { brand: 'B\ud800', model: 'M', equipment: 'air_water' },
      ],
      [
        'start_diagnostic_session',
        'POST',
        '/v2/diagnostic-sessions',
        { brand: FIX.brand, model: 'M\ud800', equipment: 'air_water' },
      ],
    ];
    for (const [tool, method, path, body] of bodies) {
      // JSON.stringify writes a lone surrogate as its escape (`\ud800`), as a client sends it.
      const json = JSON.stringify(body);
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: key.authorization,
          'content-type': 'application/json',
          'idempotency-key': `s-${Math.random()}`,
        },
        body: json,
      });
      expectProblem(400, res.headers.get('content-type') ?? '', await res.text(), 'validation_failed');
      const r = await mcpPost(`${base}/mcp`, key.authorization, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: tool, arguments: JSON.parse(json) },
      });
      const result = r.body.result as { isError?: boolean; structuredContent: { code: string } };
      expect(result.isError, `${tool} ${json}`).toBe(true);
      expect(result.structuredContent.code, `${tool} ${json}`).toBe('validation_failed');
    }
    const me = await fetch(`${base}/v1/me`, { headers: { authorization: key.authorization } });
    expect(((await me.json()) as { quota: { used: number } }).quota.used).toBe(0);
  });

  it('refuses a __proto__ or constructor key by name: REST validation_failed, MCP -32602, never dropped', async () => {
    const good = `"brand":"${FIX.brand}","model":"DT-AW080-M","error_code":"E9"`;
    for (const body of [
      `{"__proto__":{"x":1},${good}}`,
      `{"__proto__":1,${good}}`,
      `{"constructor":{"prototype":{}},${good}}`,
    ]) {
      const res = await fetch(`${base}/v1/diagnostic`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      });
      const doc = expectProblem(
        400,
        res.headers.get('content-type') ?? '',
        await res.text(),
        'validation_failed',
      ) as {
        errors?: { field: string }[];
      };
      expect(doc.errors?.map((e) => e.field).join(' '), body).toMatch(/__proto__|constructor/);
    }
    for (const args of [`{"__proto__":{"x":1},${good}}`, `{"__proto__":"x",${good}}`]) {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
        body: `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"diagnose","arguments":${args}}}`,
      });
      const reply = (await res.json()) as { id: number; error?: { code: number; message: string } };
      expect(reply.id).toBe(4);
      expect(reply.error?.code, args).toBe(-32602);
      expect(reply.error?.message).toContain('arguments.__proto__');
    }
  });
});
