import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBundle, type McpTestServer, rawPost, startMcpServer } from './harness.js';

// The frequent MCP requests are answered by long-lived SDK servers shared by every client (src/mcp/exchange.ts);
// these tests hold them to what one fresh server per request gave: each client its own answer, its own
// caller billed, the same bytes as the SDK's stateless path, and a server that answers after a restart.

let dispose: () => void;
let bundle: string;
let server: McpTestServer;

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ANSWERED = { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E1' };

type Era = 'modern' | 'legacy';

/** A tools/call as a client of the era sends it, with its standard headers. */
function toolCall(
  era: Era,
  id: unknown,
  name: string,
  args: Record<string, unknown>,
  key: string,
): { body: Record<string, unknown>; headers: Record<string, string> } {
  if (era === 'modern') {
    return {
      body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, _meta: META } },
      headers: {
        authorization: key,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
    };
  }
  return {
    body: { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } },
    headers: { authorization: key, 'mcp-protocol-version': '2025-11-25' },
  };
}

async function call(era: Era, id: unknown, name: string, args: Record<string, unknown>, key: string) {
  const { body, headers } = toolCall(era, id, name, args, key);
  return rawPost(server.mcpUrl, body, headers);
}

async function quotaUsed(key: string): Promise<number> {
  const res = await fetch(`${server.base}/v1/me`, { headers: { authorization: key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { quota: { used: number } }).quota.used;
}

beforeAll(async () => {
  const demo = await demoBundle();
  dispose = demo.dispose;
  bundle = demo.bundle;
  server = await startMcpServer(bundle);
});

afterAll(async () => {
  await server?.close();
  dispose?.();
});

describe('exchanges on the long-lived servers', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`${era}: concurrent requests from two accounts with the same ids each get their own answer`, async () => {
      const alice = (await server.api.key(`alice-${era}`)).authorization;
      const bob = (await server.api.key(`bob-${era}`)).authorization;
      const sent = Array.from({ length: 24 }, (_, i) => ({
        who: i % 2 === 0 ? `alice-${era}` : `bob-${era}`,
        key: i % 2 === 0 ? alice : bob,
        id: i % 3 === 0 ? 'same' : 1,
      }));
      const answers = await Promise.all(sent.map((s) => call(era, s.id, 'whoami', {}, s.key)));
      answers.forEach((answer, i) => {
        expect(answer.status).toBe(200);
        const message = answer.json() as {
          id: unknown;
          result: { structuredContent: { account: { name: string } } };
        };
        expect(message.id).toBe(sent[i]!.id);
        expect(message.result.structuredContent.account.name).toBe(sent[i]!.who);
      });
    });

    it(`${era}: each concurrent billable call is billed to the key that sent it`, async () => {
      const alice = (await server.api.key(`payer-a-${era}`)).authorization;
      const bob = (await server.api.key(`payer-b-${era}`)).authorization;
      const keys = [alice, alice, alice, alice, alice, bob, bob];
      const answers = await Promise.all(keys.map((key) => call(era, 7, 'diagnose', ANSWERED, key)));
      for (const answer of answers) {
        const message = answer.json() as {
          id: unknown;
          result: { isError?: boolean; structuredContent: { state: string } };
        };
        expect(message.id).toBe(7);
        expect(message.result.isError).toBeFalsy();
        expect(message.result.structuredContent.state).toBe('answer');
      }
      expect(await quotaUsed(alice)).toBe(5);
      expect(await quotaUsed(bob)).toBe(2);
    });
  }

  it('answers as the SDK stateless path does (2026-07-28: a Base64 Mcp-Name is served by that path)', async () => {
    const key = (await server.api.key('same-bytes')).authorization;
    const cases: [string, Record<string, unknown>][] = [
      ['whoami', {}],
      ['diagnose', { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' }],
      ['diagnose', { brand: 'Demotherm' }],
      ['no_such_tool', {}],
    ];
    for (const [name, args] of cases) {
      const { body, headers } = toolCall('modern', 3, name, args, key);
      const fast = await rawPost(server.mcpUrl, body, headers);
      const encoded = `=?base64?${Buffer.from(name).toString('base64')}?=`;
      const sdk = await rawPost(server.mcpUrl, body, { ...headers, 'mcp-name': encoded });
      expect(fast.status, name).toBe(sdk.status);
      expect(fast.headers.get('content-type'), name).toBe(sdk.headers.get('content-type'));
      expect(fast.text, name).toBe(sdk.text);
    }
    // A header the SDK refuses is still refused by it.
    const { body, headers } = toolCall('modern', 4, 'whoami', {}, key);
    const mismatch = await rawPost(server.mcpUrl, body, { ...headers, 'mcp-name': 'diagnose' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.json()).toMatchObject({ id: 4, error: { code: -32020 } });
    // So is an Mcp-Name that is not valid Base64, even on a call whose body names no tool.
    const nameless = { ...body, params: { arguments: {}, _meta: META } };
    const invalid = await rawPost(server.mcpUrl, nameless, { ...headers, 'mcp-name': '=?base64?%%%?=' });
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toMatchObject({ id: 4, error: { code: -32020 } });
  });

  it('answers as the SDK stateless path does (2025-03-26: a batch is served by that path)', async () => {
    const key = (await server.api.key('same-bytes-legacy')).authorization;
    const requests = [
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 'x',
        method: 'tools/call',
        params: { name: 'diagnose', arguments: { brand: 'X' } },
      },
      { jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'heatsource://nowhere' } },
      { jsonrpc: '2.0', id: 8, method: 'prompts/get', params: { name: 'no-such-prompt' } },
      { jsonrpc: '2.0', id: 9, method: 'tools/list', params: { cursor: 'c' } },
    ];
    for (const request of requests) {
      const fast = await rawPost(server.mcpUrl, request, {
        authorization: key,
        'mcp-protocol-version': '2025-03-26',
      });
      const batch = await rawPost(server.mcpUrl, [request], { authorization: key });
      expect(fast.status, request.method).toBe(200);
      expect(batch.status, request.method).toBe(200);
      // The SDK answers a batch holding one request with that one response, not an array.
      expect(fast.text, request.method).toBe(batch.text);
    }
  });

  it('answers each repeat of a look-up with the bytes of the SDK stateless path, under the client id', async () => {
    // A repeated look-up answers the same tool result, whose serialisation the long-lived servers reuse:
    // every repeat, whatever its id (numbers, strings needing escapes), must still be the SDK's bytes.
    const key = (await server.api.key('repeats')).authorization;
    const ids: unknown[] = [11, 'r"1\\', 12, 'r"1\\', 0];
    for (const id of ids) {
      const modern = toolCall('modern', id, 'diagnose', ANSWERED, key);
      const fast = await rawPost(server.mcpUrl, modern.body, modern.headers);
      const encoded = `=?base64?${Buffer.from('diagnose').toString('base64')}?=`;
      const sdk = await rawPost(server.mcpUrl, modern.body, { ...modern.headers, 'mcp-name': encoded });
      expect(fast.status).toBe(200);
      expect(fast.text).toBe(sdk.text);
      expect(fast.json()).toMatchObject({ id, result: { structuredContent: { state: 'answer' } } });

      const legacy = toolCall('legacy', id, 'diagnose', ANSWERED, key);
      const headers = { authorization: key, 'mcp-protocol-version': '2025-03-26' };
      const single = await rawPost(server.mcpUrl, legacy.body, headers);
      const batch = await rawPost(server.mcpUrl, [legacy.body], { authorization: key });
      expect(single.status).toBe(200);
      expect(single.text).toBe(batch.text);
      expect(single.json()).toMatchObject({ id, result: { structuredContent: { state: 'answer' } } });
    }
  });

  it('answers after the server is closed and another one started on the same bundle', async () => {
    const first = await startMcpServer(bundle);
    const firstKey = (await first.api.key('restart')).authorization;
    const whoami = toolCall('modern', 1, 'whoami', {}, firstKey);
    const before = await rawPost(first.mcpUrl, whoami.body, whoami.headers);
    expect(before.status).toBe(200);
    await first.close();

    const second = await startMcpServer(bundle);
    try {
      const key = (await second.api.key('restart')).authorization;
      for (const era of ['modern', 'legacy'] as const) {
        const { body, headers } = toolCall(era, 1, 'diagnose', ANSWERED, key);
        const answer = await rawPost(second.mcpUrl, body, headers);
        expect(answer.status, era).toBe(200);
        expect(answer.json(), era).toMatchObject({
          id: 1,
          result: { structuredContent: { state: 'answer' } },
        });
      }
    } finally {
      await second.close();
    }
  });
});
