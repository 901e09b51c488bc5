import * as sdk from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { routedAsLegacyRequest } from '../../src/mcp/exchange.js';
import { connectClient, demoBundle, type McpTestServer, rawPost, startMcpServer } from './harness.js';

// A 2025-era request reaches its long-lived server after the SDK's classifier has been asked about it in
// its batch form (src/mcp/exchange.ts, `routedAsLegacyRequest`), whose shape check tries the request schema
// first, instead of as one message, whose two response parses fail on every request. These tests hold the
// batch form to the single-message classification's routing, and the route to asking it that way.

const classified: unknown[] = [];
vi.mock('@modelcontextprotocol/server', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@modelcontextprotocol/server')>();
  return {
    ...actual,
    classifyInboundRequest: (request: Parameters<typeof actual.classifyInboundRequest>[0]) => {
      classified.push(request.body);
      return actual.classifyInboundRequest(request);
    },
  };
});

const CLAIM = 'io.modelcontextprotocol/protocolVersion';
const ENVELOPE = {
  [CLAIM]: '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Bodies of the methods the long-lived servers answer, well and badly formed. */
const BODIES: Record<string, unknown>[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'diagnose', arguments: { brand: 'X' } } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 0, method: 'ping', params: { _meta: { progressToken: 3 } } },
  { jsonrpc: '2.0', method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [CLAIM]: 7 } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [CLAIM]: '2025-11-25' } } },
  { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: 'x' } },
];

const HEADERS: (string | undefined)[] = [undefined, '2025-03-26', '2025-06-18', '2025-11-25'];

describe("the 2025-era route's classification", () => {
  it('routes exactly the bodies the single-message classification routes to the 2025 era as plain requests', () => {
    let served = 0;
    for (const body of BODIES) {
      for (const version of HEADERS) {
        const request = { httpMethod: 'POST', protocolVersionHeader: version };
        const single = sdk.classifyInboundRequest({ ...request, body });
        const expected = single.kind === 'legacy' && single.reason === 'no-claim';
        expect(routedAsLegacyRequest(request, body), `${JSON.stringify(body)} under ${version}`).toBe(
          expected,
        );
        if (expected) served++;
      }
    }
    // The table holds bodies of both kinds.
    expect(served).toBeGreaterThanOrEqual(3 * HEADERS.length);
    expect(served).toBeLessThan(BODIES.length * HEADERS.length);
  });
});

describe('a 2025-era client on the long-lived server', () => {
  let dispose: () => void;
  let server: McpTestServer;

  beforeAll(async () => {
    const demo = await demoBundle();
    dispose = demo.dispose;
    server = await startMcpServer(demo.bundle);
  });

  afterAll(async () => {
    await server?.close();
    dispose?.();
  });

  it('is classified in the batch form only, and gets its answer', async () => {
    const key = (await server.api.key('legacy-route')).authorization;
    const client = await connectClient(server.mcpUrl, { authorization: key });
    try {
      classified.length = 0;
      const result = await client.callTool({
        name: 'diagnose',
        arguments: { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E1' },
      });
      expect(result.structuredContent).toMatchObject({ state: 'answer' });
      const calls = classified.filter((b) => JSON.stringify(b).includes('"tools/call"'));
      expect(calls).toHaveLength(1);
      expect(Array.isArray(calls[0])).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('leaves a body the batch form refuses to the single-message classification and the SDK', async () => {
    const key = (await server.api.key('legacy-refused')).authorization;
    const headers = { authorization: key, 'mcp-protocol-version': '2025-11-25' };
    // A notification of a method the long-lived servers answer: accepted, nothing to answer.
    const notification = await rawPost(server.mcpUrl, { jsonrpc: '2.0', method: 'ping' }, headers);
    expect(notification.status).toBe(202);
    // A modern envelope under a 2025 header: the SDK's refusal.
    const claim = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: ENVELOPE } };
    const refused = await rawPost(server.mcpUrl, claim, headers);
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ id: 2, error: {} });
  });
});
