import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { demoBundle, type McpTestServer, rawPost, startMcpServer } from './harness.js';

let dispose: () => void;
let server: McpTestServer;
let open: McpTestServer;
let auth: Record<string, string>;

const initialize = (protocolVersion: unknown = '2025-11-25', id: unknown = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const request = (method: string, params?: Record<string, unknown>, id: unknown = 7) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

beforeAll(async () => {
  const demo = await demoBundle();
  dispose = demo.dispose;
  server = await startMcpServer(demo.bundle, { mcp: { allowedOrigins: ['https://console.example.org'] } });
  auth = { authorization: (await server.api.key('raw')).authorization };
  open = await startMcpServer(demo.bundle, { auth: false });
});

afterAll(async () => {
  await server?.close();
  await open?.close();
  dispose?.();
});

/** A POST with an arbitrary Host header, which fetch does not let one set. */
function postWithHost(url: string, host: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('lifecycle', () => {
  it('echoes a supported protocol revision and answers its latest otherwise, with no session', async () => {
    for (const [asked, answered] of [
      ['2025-03-26', '2025-03-26'],
      ['2025-06-18', '2025-06-18'],
      ['2025-11-25', '2025-11-25'],
      ['2024-11-05', '2025-11-25'],
      ['2099-01-01', '2025-11-25'],
    ]) {
      const res = await rawPost(server.mcpUrl, initialize(asked), auth);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const body = res.json();
      expect(body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { protocolVersion: answered } });
      expect((body.result as { capabilities: unknown }).capabilities).toEqual({
        tools: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
        prompts: { listChanged: false },
        completions: {},
      });
    }
  });

  it('answers ping with an empty result, echoing a string id', async () => {
    const res = await rawPost(server.mcpUrl, request('ping', undefined, 'abc'), auth);
    expect(res.json()).toEqual({ jsonrpc: '2.0', id: 'abc', result: {} });
  });

  it('accepts notifications and responses with 202 and no body', async () => {
    for (const message of [
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3, reason: 'gone' } },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 5, result: {} },
      { jsonrpc: '2.0', id: 6, error: { code: -32601, message: 'no' } },
    ]) {
      const res = await rawPost(server.mcpUrl, message, auth);
      expect(res.status, JSON.stringify(message)).toBe(202);
      expect(res.text).toBe('');
    }
  });

  it('needs no session: tools/call works on a fresh connection without initialize', async () => {
    const res = await rawPost(
      server.mcpUrl,
      request('tools/call', { name: 'get_registry', arguments: { limit: 1 } }),
      { ...auth, 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 'anything' },
    );
    expect(res.status).toBe(200);
    expect(
      (res.json().result as { structuredContent: { brands: unknown[] } }).structuredContent.brands,
    ).toHaveLength(1);
  });
});

describe('transport rules', () => {
  it('answers GET (whatever it accepts), DELETE and PUT with 405 and Allow: POST', async () => {
    for (const [method, accept] of [
      ['GET', 'text/event-stream'],
      ['GET', 'application/json'],
      ['GET', '*/*'],
      ['DELETE', 'application/json'],
      ['PUT', 'application/json'],
    ] as const) {
      const res = await fetch(server.mcpUrl, { method, headers: { accept, ...auth } });
      expect(res.status, `${method} ${accept}`).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.headers.get('content-type')).not.toMatch(/event-stream/);
      await res.arrayBuffer();
    }
  });

  it('takes a missing MCP-Protocol-Version as 2025-06-18, accepts the three revisions, refuses others with 400', async () => {
    for (const version of [undefined, '2025-03-26', '2025-06-18', '2025-11-25']) {
      const headers = version ? { ...auth, 'mcp-protocol-version': version } : auth;
      expect((await rawPost(server.mcpUrl, request('ping'), headers)).status, String(version)).toBe(200);
    }
    // Refused by the SDK, each answer echoing the request id.
    for (const version of ['2024-11-05', '2026-01-01', 'banana', '']) {
      const res = await rawPost(server.mcpUrl, request('ping'), { ...auth, 'mcp-protocol-version': version });
      expect(res.status, version).toBe(400);
      expect(res.json(), version).toMatchObject({ jsonrpc: '2.0', id: 7, error: {} });
    }
  });

  it('answers batches of 2025-03-26 clients, and refuses them for later revisions with -32600', async () => {
    const batch = [request('ping', undefined, 1), request('tools/list', undefined, 2)];
    // 2025-03-26 had no MCP-Protocol-Version header: a batch without one comes from such a client.
    for (const headers of [auth, { ...auth, 'mcp-protocol-version': '2025-03-26' }]) {
      const res = await rawPost(server.mcpUrl, batch, headers);
      expect(res.status).toBe(200);
      const answers = res.json() as unknown as { id: number; result: Record<string, unknown> }[];
      expect(answers.map((a) => a.id).sort()).toEqual([1, 2]);
      expect(answers.find((a) => a.id === 2)!.result.tools).toBeInstanceOf(Array);
    }
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await rawPost(server.mcpUrl, batch, { ...auth, 'mcp-protocol-version': version });
      expect(res.status, version).toBe(400);
      expect(res.json()).toMatchObject({ id: null, error: { code: -32600 } });
    }
  });

  it('answers malformed JSON with -32700 and a message that is not JSON-RPC with -32600', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": "ping"', '', 'null']) {
      const res = await rawPost(server.mcpUrl, body, auth);
      expect(res.status, body).toBe(400);
      expect(res.json().error, body).toMatchObject({ code: body === 'null' ? -32600 : -32700 });
    }
    for (const message of [
      { id: 1, method: 'ping' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 42 },
      { jsonrpc: '2.0', id: { x: 1 }, method: 'ping' },
      { jsonrpc: '2.0', id: 1 },
    ]) {
      const res = await rawPost(server.mcpUrl, message, auth);
      expect(res.status, JSON.stringify(message)).toBe(400);
      expect(res.json().error, JSON.stringify(message)).toMatchObject({ code: -32600 });
    }
    // An id that could be read is echoed even when the message is refused.
    expect((await rawPost(server.mcpUrl, { id: 4, method: 'ping' }, auth)).json()).toMatchObject({ id: 4 });
  });

  it('answers an unknown method with -32601', async () => {
    for (const method of ['resources/subscribe', 'logging/setLevel', 'tools/run']) {
      const res = await rawPost(server.mcpUrl, request(method, {}), auth);
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ id: 7, error: { code: -32601 } });
    }
  });

  it('answers params that fail the protocol schema with -32602 naming the field, in both eras, never -32603', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const cases = [
      ['completion/complete', { ref: 42 }, 'ref'],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'brand', value: '' } },
        null,
      ],
      [
        'completion/complete',
        { ref: { type: 'ref/resource', uri: 'x://{y}' }, argument: { name: 'y', value: '' } },
        null,
      ],
      ['prompts/get', { name: 42 }, 'name'],
      ['prompts/get', {}, 'name'],
      ['resources/read', { uri: 42 }, 'uri'],
      ['tools/list', { cursor: 42 }, 'cursor'],
      ['resources/list', { cursor: 42 }, 'cursor'],
      ['prompts/list', { cursor: {} }, 'cursor'],
      ['resources/templates/list', { cursor: 5 }, 'cursor'],
    ] as const;
    for (const [method, params, field] of cases) {
      const what = `${method} ${JSON.stringify(params)}`;
      const legacy = await rawPost(server.mcpUrl, request(method, params), auth);
      const modern = await rawPost(server.mcpUrl, request(method, { ...params, _meta: meta }), {
        ...auth,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
      });
      for (const [era, res] of [
        ['2025', legacy],
        ['2026', modern],
      ] as const) {
        expect(res.status, `${era} ${what}`).toBe(200);
        const error = res.json().error as {
          code: number;
          message: string;
          data?: { errors?: { field: string }[] };
        };
        expect(error.code, `${era} ${what}`).toBe(-32602);
        expect(error.message, `${era} ${what}`).not.toMatch(/^\s*\[/);
        if (field)
          expect(
            error.data?.errors?.map((e) => e.field),
            `${era} ${what}`,
          ).toContain(field);
      }
    }
    for (const params of [
      { protocolVersion: 42, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: 'raw' },
    ]) {
      const res = await rawPost(server.mcpUrl, { jsonrpc: '2.0', id: 5, method: 'initialize', params }, auth);
      expect(res.json(), JSON.stringify(params)).toMatchObject({ id: 5, error: { code: -32602 } });
    }
  });

  it('answers bad params and unknown tools with -32602', async () => {
    for (const [method, params] of [
      ['tools/call', {}],
      ['tools/call', { name: 'no_such_tool', arguments: {} }],
      ['tools/call', { name: 'diagnose', arguments: 'brand=x' }],
      ['tools/call', { name: 42 }],
      ['resources/list', { cursor: 'not-ours' }],
      ['tools/list', { cursor: 'x' }],
      ['prompts/get', { name: 'no_such_prompt' }],
      ['prompts/get', { name: 'troubleshoot_error_code', arguments: { brand: 'Demotherm' } }],
    ] as const) {
      const res = await rawPost(server.mcpUrl, request(method, params), auth);
      expect(res.status, `${method} ${JSON.stringify(params)}`).toBe(200);
      expect(res.json(), `${method} ${JSON.stringify(params)}`).toMatchObject({
        id: 7,
        error: { code: -32602 },
      });
    }
    const arrayParams = await rawPost(
      server.mcpUrl,
      { jsonrpc: '2.0', id: 9, method: 'ping', params: [1] },
      auth,
    );
    expect(arrayParams.status).toBe(400);
    expect(arrayParams.json()).toMatchObject({ id: 9, error: { code: -32600 } });
  });

  it('answers invalid tool arguments with an isError result carrying the REST problem document', async () => {
    const res = await rawPost(
      server.mcpUrl,
      request('tools/call', { name: 'diagnose', arguments: { brand: 'Demotherm' } }),
      auth,
    );
    const result = res.json().result as { isError: boolean; structuredContent: Record<string, unknown> };
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'error_code', message: 'is required' }],
    });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await rawPost(server.mcpUrl, JSON.stringify(request('ping')), {
      ...auth,
      'content-type': 'text/plain',
    });
    expect(res.status).toBe(415);
    expect(res.json()).toMatchObject({ error: { code: -32600 } });
  });
});

describe('security', () => {
  it('needs a valid API key: 401 with WWW-Authenticate and the REST problem document', async () => {
    const missing = await rawPost(server.mcpUrl, initialize());
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(missing.json()).toMatchObject({ status: 401, code: 'authentication_required', instance: '/mcp' });
    const bad = await rawPost(server.mcpUrl, initialize(), { authorization: 'Bearer ak_test_nope' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(bad.json()).toMatchObject({ code: 'invalid_api_key' });
    // Notifications too.
    const note = await rawPost(server.mcpUrl, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(note.status).toBe(401);
  });

  it('refuses a present Origin that is not allowed with 403, and allows listed and loopback ones', async () => {
    for (const origin of ['https://evil.example.com', 'null', 'http://localhost.evil.example', 'garbage']) {
      const res = await rawPost(server.mcpUrl, request('ping'), { ...auth, origin });
      expect(res.status, origin).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: -32600 } });
    }
    for (const origin of [
      'https://console.example.org',
      'http://localhost:5173',
      'http://127.0.0.1:8080',
      'http://[::1]:3000',
    ]) {
      expect((await rawPost(server.mcpUrl, request('ping'), { ...auth, origin })).status, origin).toBe(200);
    }
  });

  it('without keys (loopback only) runs every call as the local account and refuses foreign Host headers', async () => {
    const me = await rawPost(open.mcpUrl, request('tools/call', { name: 'whoami', arguments: {} }));
    expect(me.status).toBe(200);
    expect((me.json().result as { structuredContent: unknown }).structuredContent).toMatchObject({
      account: { name: 'local' },
      key: null,
    });
    const port = new URL(open.mcpUrl).port;
    expect(await postWithHost(open.mcpUrl, `evil.example.com:${port}`, request('ping'))).toBe(403);
    expect(await postWithHost(open.mcpUrl, `localhost:${port}`, request('ping'))).toBe(200);
    expect(await postWithHost(open.mcpUrl, `127.0.0.1:${port}`, request('ping'))).toBe(200);
  });
});

describe('content by protocol revision', () => {
  const diagnose = request('tools/call', {
    name: 'diagnose',
    arguments: { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' },
  });
  const call = async (version: string) => {
    const res = await rawPost(server.mcpUrl, diagnose, { ...auth, 'mcp-protocol-version': version });
    return res.json().result as { content: { type: string; uri?: string }[]; structuredContent: unknown };
  };
  /** Every distinct page the body cites (the answer's page, its procedure's page, ...). */
  const citedPages = (body: unknown): string[] => {
    const found = new Set<string>();
    const walk = (v: unknown) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const uri = (v as { resource_uri?: unknown }).resource_uri;
        if (typeof uri === 'string') found.add(uri);
        Object.values(v).forEach(walk);
      }
    };
    walk(body);
    return [...found].sort();
  };

  it('links each cited page once for clients of 2025-06-18 and later, not for 2025-03-26 ones', async () => {
    for (const version of ['2025-11-25', '2025-06-18']) {
      const result = await call(version);
      const links = result.content.filter((c) => c.type === 'resource_link').map((c) => c.uri!);
      expect(result.content[0]!.type).toBe('text');
      expect(links.length).toBeGreaterThan(0);
      expect([...links].sort()).toEqual(citedPages(result.structuredContent));
    }
    expect((await call('2025-03-26')).content.map((c) => c.type)).toEqual(['text']);
  });
});

describe('tools follow the service layer', () => {
  it('lists one tool per operation of the contract, in its order, and calls them by name', async () => {
    const list = await rawPost(server.mcpUrl, request('tools/list'), auth);
    const tools = (list.json().result as { tools: { name: string; inputSchema: unknown }[] }).tools;
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((op) => op.name));
    expect(tools.find((t) => t.name === 'get_error_code')).toMatchObject({
      inputSchema: { type: 'object', required: ['brand', 'code'] },
    });
    const res = await rawPost(
      server.mcpUrl,
      request('tools/call', { name: 'get_error_code', arguments: { brand: 'Demotherm', code: 'E9' } }),
      auth,
    );
    const result = res.json().result as {
      content: { type: string; text: string }[];
      structuredContent: unknown;
    };
    expect(result.structuredContent).toMatchObject({ code: 'E9' });
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it('counts billable units in the metrics as REST does', async () => {
    const billable = async () => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      return Number(/^heatsource_billable_units_total\{operation="diagnose"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await billable();
    const call = (code: string) =>
      rawPost(
        server.mcpUrl,
        request('tools/call', {
          name: 'diagnose',
          arguments: { brand: 'Demotherm', model: 'DT-AW080-M', error_code: code },
        }),
        auth,
      );
    await call('E9');
    await call('Z77');
    expect(await billable()).toBe(before + 1);
  });
});
