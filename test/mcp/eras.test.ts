import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBundle, type McpTestServer, rawPost, restRequest, startMcpServer } from './harness.js';

let dispose: () => void;
let server: McpTestServer;
let auth: Record<string, string>;
const clients: Client[] = [];

type Mode = 'legacy' | 'auto' | { pin: string };

/** The official v2 client, in the given version negotiation mode, sending the API key. */
async function connect(mode: Mode): Promise<Client> {
  const client = new Client({ name: 'heatsource-tests', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(new URL(server.mcpUrl), {
    requestInit: { headers: auth },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  const demo = await demoBundle();
  dispose = demo.dispose;
  server = await startMcpServer(demo.bundle);
  auth = { authorization: (await server.api.key('eras')).authorization };
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.close();
  dispose?.();
});

/** The REST answer to the request a tool call stands for. */
async function rest(tool: string, args: Record<string, unknown>) {
  const op = server.api.app.heatsource.services.operation(tool)!;
  const req = restRequest(op, args);
  return server.api.request({ method: req.method, url: req.url, headers: auth, payload: req.body });
}

const DIAGNOSE = { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' };

describe('one endpoint, both protocol eras, with the official v2 client', () => {
  for (const [label, mode, expected] of [
    ['pinned to 2026-07-28', { pin: '2026-07-28' }, '2026-07-28'],
    ['in auto mode', 'auto', '2026-07-28'],
    ['in legacy mode (2025 handshake)', 'legacy', '2025-11-25'],
  ] as const) {
    it(`${label}: connects at ${expected}, lists the tools and gets the REST payload`, async () => {
      const client = await connect(mode);
      expect(client.getNegotiatedProtocolVersion()).toBe(expected);
      expect(client.getServerVersion()?.name).toBe('heatsource');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('diagnose');

      const result = await client.callTool({ name: 'diagnose', arguments: DIAGNOSE });
      const answer = await rest('diagnose', DIAGNOSE);
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(answer.json());
      // Every cited page is linked, as a resource the client can read.
      const links = (result.content as { type: string; uri?: string }[]).filter(
        (c) => c.type === 'resource_link',
      );
      expect(links.length).toBeGreaterThan(0);
      const page = await client.readResource({ uri: links[0]!.uri! });
      expect(page.contents[0]).toMatchObject({ uri: links[0]!.uri, mimeType: 'text/plain' });
    });
  }

  it('answers a failing call with the REST problem document, in both eras', async () => {
    for (const mode of [{ pin: '2026-07-28' }, 'legacy'] as const) {
      const client = await connect(mode);
      const args = { brand: 'Demotherm', model: 'DT-AW080-M' };
      const result = await client.callTool({ name: 'diagnose', arguments: args });
      const answer = await rest('diagnose', args);
      expect(result.isError).toBe(true);
      expect(answer.statusCode).toBe(400);
      expect(result.structuredContent).toEqual(answer.json());
    }
  });

  it('refuses an unknown resource with its URI: -32602 on 2026-07-28 (SEP-2164), -32002 on the 2025 revisions', async () => {
    const uri = 'heatsource://documents/no-such-manual/pages/1';
    const modern = await connect({ pin: '2026-07-28' });
    await expect(modern.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
      const legacy = await rawPost(
        server.mcpUrl,
        { jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri } },
        { ...auth, 'mcp-protocol-version': version },
      );
      expect(legacy.json(), version).toMatchObject({ id: 3, error: { code: -32002, data: { uri } } });
    }
    // The official client of the 2025 era reads it as resource-not-found.
    const client = await connect('legacy');
    await expect(client.readResource({ uri })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('what hosts need to call tools without asking', () => {
  it('annotates every tool: title, read-only and idempotent look-ups, closed world', async () => {
    const client = await connect({ pin: '2026-07-28' });
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ openWorldHint: false });
      expect(typeof tool.annotations?.title, tool.name).toBe('string');
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe('boolean');
      expect(typeof tool.annotations?.idempotentHint, tool.name).toBe('boolean');
    }
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const lookup of ['diagnose', 'diagnose_strict', 'search', 'get_error_code', 'whoami']) {
      expect(byName.get(lookup), lookup).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    }
    for (const step of ['start_diagnostic_session', 'respond_to_diagnostic_session']) {
      if (!byName.has(step)) continue;
      expect(byName.get(step), step).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    }
  });

  it('gives list results cache hints on 2026-07-28, and none on 2025 revisions', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    for (const method of ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
      const modern = await rawPost(
        server.mcpUrl,
        { jsonrpc: '2.0', id: 1, method, params: { _meta: meta } },
        { ...auth, 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
      );
      expect(modern.status, method).toBe(200);
      expect(modern.json().result, method).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'private' });
      const legacy = await rawPost(server.mcpUrl, { jsonrpc: '2.0', id: 1, method }, auth);
      expect(legacy.json().result, method).not.toHaveProperty('ttlMs');
    }
  });
});

describe('the troubleshooting prompt and completion', () => {
  it('lists the prompt and starts a guided session with the arguments given', async () => {
    for (const mode of [{ pin: '2026-07-28' }, 'legacy'] as const) {
      const client = await connect(mode);
      const { prompts } = await client.listPrompts();
      expect(prompts).toEqual([
        expect.objectContaining({ name: 'troubleshoot_error_code', title: 'Troubleshoot an error code' }),
      ]);
      const prompt = await client.getPrompt({
        name: 'troubleshoot_error_code',
        arguments: { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' },
      });
      const text = (prompt.messages[0]!.content as { type: string; text: string }).text;
      expect(prompt.messages[0]!.role).toBe('user');
      expect(text).toContain('start_diagnostic_session');
      // The session request it asks for is one the tool accepts: call it and get a session.
      const request = JSON.parse(/\{[\s\S]*?\n\}/.exec(text)![0]) as Record<string, unknown>;
      expect(request).toEqual({ brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' });
      const started = await client.callTool({ name: 'start_diagnostic_session', arguments: request });
      expect(started.isError, JSON.stringify(started.structuredContent)).toBeFalsy();
      expect(started.structuredContent).toMatchObject({ id: expect.any(String), status: expect.any(String) });
    }
  });

  it('completes brands, the models of the chosen brand, and document ids, from the bundle', async () => {
    const client = await connect({ pin: '2026-07-28' });
    const ref = { type: 'ref/prompt' as const, name: 'troubleshoot_error_code' };
    const brands = await client.complete({ ref, argument: { name: 'brand', value: 'demo' } });
    expect(brands.completion.values).toEqual(['Demotherm']);
    const models = await client.complete({
      ref,
      argument: { name: 'model', value: 'DT-AW' },
      context: { arguments: { brand: 'Demotherm' } },
    });
    expect(models.completion.values).toContain('DT-AW080-M');
    expect(models.completion.values.every((m) => m.toUpperCase().includes('DT-AW'))).toBe(true);
    const none = await client.complete({
      ref,
      argument: { name: 'model', value: 'DT-AW' },
      context: { arguments: { brand: 'Nobrand' } },
    });
    expect(none.completion.values).toEqual(models.completion.values);
    const docs = await client.complete({
      ref: { type: 'ref/resource', uri: 'heatsource://documents/{document_id}/pages/{page}' },
      argument: { name: 'document_id', value: '' },
    });
    const { resources } = await client.listResources();
    const ids = new Set(resources.map((r) => r.name.split('/')[0]));
    expect(new Set(docs.completion.values)).toEqual(ids);
  });
});
