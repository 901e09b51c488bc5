import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildFixtureBundle, type TestApi, testApi } from '../api/fixture.js';

/**
 * What the conformance suite talks to: the server as `heatsource serve` builds it (REST v1, v2 and the
 * MCP endpoint at /mcp), listening on a loopback port, over the fixture bundle.
 */
export interface ServiceUnderTest {
  api: TestApi;
  /** {base_url}: scheme and host, no path. */
  baseUrl: string;
  /** {mcp_url}. */
  mcpUrl: string;
  /** A live key (`ak_live_…`) of a fresh account. */
  liveKey: string;
  accountId: string;
  close(): Promise<void>;
}

export async function startService(): Promise<ServiceUnderTest> {
  const api = await testApi(await buildFixtureBundle());
  const key = await api.key('conformance', { mode: 'live' });
  const baseUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    api,
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    liveKey: key.secret,
    accountId: key.accountId,
    close: () => api.close(),
  };
}

/** The official MCP client (Streamable HTTP), sending the given headers with every request. */
export async function mcpClient(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'conformance', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export interface RestAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for a body that is not JSON. */
  json: Record<string, unknown> | null;
  bytes: Uint8Array;
}

/** One REST call over HTTP, the body sent as JSON. */
export async function rest(
  baseUrl: string,
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<RestAnswer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers,
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: Record<string, unknown> | null = null;
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    json = JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>;
  }
  return { status: res.status, headers: res.headers, json, bytes };
}

/** A REST request for an operation's input: path parameters filled in, the rest as query (GET) or body (POST). */
export function restRequestOf(
  op: { method: 'GET' | 'POST'; path: string },
  input: Record<string, unknown>,
): { url: string; body?: Record<string, unknown> } {
  const rest: Record<string, unknown> = { ...input };
  const url = op.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  if (op.method === 'POST') return { url, body: rest };
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) query.set(k, String(v));
  const qs = query.toString();
  return { url: qs ? `${url}?${qs}` : url };
}

/** Session and conversation ids differ from one call to the next; everything else must not. */
export function withoutIds(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/ds_[A-Za-z0-9_-]{10,}/g, 'ds_…'));
}
