import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Replica, startReplica } from '../../bench/cluster.js';
import { buildFixtureBundle } from '../api/fixture.js';
import { runCli } from '../helpers/cli.js';
import { ensureBuiltOnce } from '../sessions-api/built.js';
import { UNIT } from '../sessions-api/helpers.js';

/** DEPLOY.md's bundle rollout: an immutable file swapped by rename, reopened on SIGHUP, under load. */
let dir: string;
let live: string;
let replica: Replica;

beforeAll(async () => {
  await ensureBuiltOnce();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-rollout-'));
  live = path.join(dir, 'corpus.bundle');
  fs.copyFileSync(await buildFixtureBundle(), live);
  replica = await startReplica(live, path.join(dir, 'state.sqlite'));
}, 300_000);

afterAll(() => {
  if (replica && replica.child.exitCode === null) replica.child.kill('SIGKILL');
});

async function builtAt(): Promise<string> {
  const r = (await (await fetch(`${replica.url}/readyz`)).json()) as { bundle: { built_at: string } };
  return r.bundle.built_at;
}

/** The diagnostic above as an MCP tool call of either protocol era. */
function mcpDiagnose(
  era: 'modern' | 'legacy',
  key: string,
): { headers: Record<string, string>; body: string } {
  const args = { brand: UNIT.brand, model: UNIT.model, error_code: 'E01' };
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  if (era === 'legacy') {
    return {
      headers: { ...headers, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'diagnose', arguments: args },
      }),
    };
  }
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'rollout', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    headers: {
      ...headers,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'diagnose',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'diagnose', arguments: args, _meta },
    }),
  };
}

describe('bundle rollout by rename and SIGHUP', () => {
  it('serves the new bundle after SIGHUP without failing a request, and keeps the old one on a bad file', async () => {
    // A key of an account without a rate limit: the load below is about the rollout, and on a fast
    // machine six workers would otherwise meet the default limit per key.
    const created = runCli([
      'keys',
      'create',
      '--account',
      'rollout',
      '--mode',
      'test',
      '--rate-limit',
      '0',
      '--state',
      path.join(dir, 'state.sqlite'),
      '--json',
    ]);
    expect(created.status, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const before = await builtAt();
    // A second bundle, built later (so its built_at differs), published beside the live one.
    await new Promise((r) => setTimeout(r, 20));
    const next = `${live}.tmp`;
    fs.copyFileSync(await buildFixtureBundle(), next);

    const statuses: number[] = [];
    let stop = false;
    const worker = async () => {
      while (!stop && statuses.length < 5_000) {
        const r = await fetch(`${replica.url}/v1/diagnostic`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ brand: UNIT.brand, model: UNIT.model, error_code: 'E01' }),
        });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
    };
    // The same call over MCP, in both eras, answered by the endpoint's long-lived servers: a tool result
    // (not a JSON-RPC error, not an isError result) on either side of the swap.
    const mcpFailures: string[] = [];
    let mcpCalls = 0;
    const mcpWorker = async (era: 'modern' | 'legacy') => {
      while (!stop && mcpCalls < 5_000) {
        const r = await fetch(`${replica.url}/mcp`, { method: 'POST', ...mcpDiagnose(era, key) });
        const text = await r.text();
        mcpCalls++;
        const result =
          r.status === 200 ? (JSON.parse(text) as { result?: { isError?: boolean } }).result : undefined;
        if (!result || result.isError) mcpFailures.push(`${era} ${r.status} ${text.slice(0, 200)}`);
      }
    };
    const load = Promise.all([
      ...Array.from({ length: 4 }, worker),
      mcpWorker('modern'),
      mcpWorker('legacy'),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    fs.renameSync(next, live);
    replica.child.kill('SIGHUP');
    const until = Date.now() + 10_000;
    while ((await builtAt()) === before && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await load;
    expect(await builtAt()).not.toBe(before);
    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(mcpCalls).toBeGreaterThan(2);
    expect(mcpFailures).toEqual([]);

    // A file that is not a bundle: the replica says why and keeps serving the one it has.
    const served = await builtAt();
    fs.writeFileSync(`${live}.bad`, 'not a bundle');
    fs.renameSync(`${live}.bad`, live);
    replica.child.kill('SIGHUP');
    const deadline = Date.now() + 10_000;
    while (!/SIGHUP: cannot open/.test(replica.stderr()) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(replica.stderr()).toMatch(/SIGHUP: cannot open .*still serving the previous bundle/);
    expect(await builtAt()).toBe(served);
    const after = await fetch(`${replica.url}/v1/diagnostic`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ brand: UNIT.brand, model: UNIT.model, error_code: 'E01' }),
    });
    expect(after.status).toBe(200);
    for (const era of ['modern', 'legacy'] as const) {
      const mcp = await fetch(`${replica.url}/mcp`, { method: 'POST', ...mcpDiagnose(era, key) });
      expect(mcp.status, era).toBe(200);
      expect(await mcp.json(), era).toMatchObject({
        id: 1,
        result: { structuredContent: { brand: expect.any(String) } },
      });
    }
  });
});
