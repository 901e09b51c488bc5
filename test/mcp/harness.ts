import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ensureDemoBundle } from '../../pipeline/ingest/demo.js';
import type { OperationSpec } from '../../src/contract/operations.js';
import { type McpRoutesOptions, mcpRoutes } from '../../src/mcp/index.js';
import type { BuildAppOptions } from '../../src/serve/app.js';
import { type TestApi, testApi } from '../api/fixture.js';

const CACHE = path.join(os.tmpdir(), 'heatsource-mcp-tests', 'demo.bundle');

/**
 * A private copy of the demo bundle (the fictional Demotherm manuals). Built once and kept in the temporary
 * folder, so that later suites only check its stamp; each suite works on its own copy.
 */
export async function demoBundle(): Promise<{ bundle: string; dispose: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-mcp-'));
  const bundle = path.join(dir, 'demo.bundle');
  if (fs.existsSync(CACHE)) fs.copyFileSync(CACHE, bundle);
  const built = await ensureDemoBundle({ bundle, jobs: 2 });
  if (built.rebuilt) {
    fs.mkdirSync(path.dirname(CACHE), { recursive: true });
    const temp = `${CACHE}.${process.pid}.tmp`;
    fs.copyFileSync(bundle, temp);
    fs.renameSync(temp, CACHE);
  }
  return { bundle, dispose: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface McpTestServer {
  api: TestApi;
  /** http://127.0.0.1:PORT */
  base: string;
  /** The MCP endpoint URL. */
  mcpUrl: string;
  close(): Promise<void>;
}

/**
 * The REST app over a bundle with the MCP endpoint mounted, listening on a loopback port. Mounts MCP
 * itself, with `options.mcp`, unless the app factory already serves it.
 */
export async function startMcpServer(
  bundle: string,
  options: Partial<BuildAppOptions> & { mcp?: Partial<McpRoutesOptions> } = {},
): Promise<McpTestServer> {
  const { mcp, ...appOptions } = options;
  // Handed to the app factory as well, for when it mounts the endpoint itself (BuildAppOptions.mcp).
  const api = await testApi(bundle, { ...appOptions, mcp } as Partial<BuildAppOptions>);
  const mcpPath = mcp?.path ?? '/mcp';
  if (!api.app.hasRoute({ method: 'POST', url: mcpPath })) {
    const hs = api.app.heatsource;
    await mcpRoutes(api.app, {
      services: hs.services,
      auth: hs.authenticate,
      metrics: hs.metrics,
      requireLoopbackHost: appOptions.auth === false,
      ...mcp,
    });
  }
  const address = await api.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    api,
    base: address,
    mcpUrl: `${address}${mcpPath}`,
    close: () => api.close(),
  };
}

/** An official SDK client connected over Streamable HTTP, sending the given headers (e.g. the API key). */
export async function connectClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'heatsource-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** The REST request that corresponds to a tool call: path parameters filled in, the rest as query or body. */
export function restRequest(
  op: OperationSpec,
  input: Record<string, unknown>,
): { method: 'GET' | 'POST'; url: string; body?: Record<string, unknown> } {
  const rest: Record<string, unknown> = { ...input };
  const url = op.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (op.method === 'POST') return { method: 'POST', url, body: rest };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) query.set(k, String(v));
  const qs = query.toString();
  return { method: 'GET', url: qs ? `${url}?${qs}` : url };
}

/** POSTs one raw JSON-RPC body (or any string) to the endpoint. */
export async function rawPost(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: () => Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}
