import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/contract/sessions.js';
import { freshUserEnv, runCliAsync } from '../helpers/cli.js';
import { connectClient, demoBundle, type McpTestServer, startMcpServer } from '../mcp/harness.js';
import { ensureSdkBuilt } from '../sdk/build.js';
import { ensureBuiltOnce } from './built.js';

/**
 * A reading may carry its unit on every surface: REST over a listening server, MCP through the official
 * client, the published SDK, and the built CLI. It is converted to the unit the step asks for, shown converted with the
 * reading as given, and an unknown unit is refused naming it.
 */
let server: McpTestServer;
let bundle: { bundle: string; dispose: () => void };
let authorization: string;
let mcp: Client;

beforeAll(async () => {
  await ensureBuiltOnce();
  bundle = await demoBundle();
  server = await startMcpServer(bundle.bundle);
  authorization = (await server.api.key('units')).authorization;
  mcp = await connectClient(server.mcpUrl, { authorization });
}, 300_000);
afterAll(async () => {
  await mcp?.close();
  await server?.close();
  bundle?.dispose();
});

const E9 = { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' };

async function rest(
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: Session & { detail?: string } }> {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, json: (await res.json()) as Session & { detail?: string } };
}

describe('readings with units', () => {
  it('REST: converts "20 psi" for a step in bar, records it as given, and refuses an unknown unit', async () => {
    const started = await rest('POST', '/v2/diagnostic-sessions', E9);
    expect(started.status).toBe(201);
    const s = started.json as Session;
    expect(s.next_action!.expected.unit).toBe('bar');
    const wrong = await rest('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: s.next_action!.id,
      value: '3 furlongs',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.detail).toContain('furlongs');
    const ok = await rest('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: s.next_action!.id,
      value: '20 psi',
    });
    expect(ok.status).toBe(200);
    expect((ok.json as Session).history[0]).toMatchObject({ value: 1.379, given: '20 psi' });
  });

  it('REST: takes readings at the start with their unit', async () => {
    const started = await rest('POST', '/v2/diagnostic-sessions', {
      ...E9,
      readings: [{ quantity: 'water_pressure', value: '150 kPa' }],
    });
    expect(started.status).toBe(201);
    // The pressure is known (1.5 bar): the session does not ask for it.
    expect((started.json as Session).next_action?.id).not.toBe('read_water_pressure');
    const refused = await rest('POST', '/v2/diagnostic-sessions', {
      ...E9,
      readings: [{ quantity: 'water_pressure', value: '150 stone' }],
    });
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toContain('stone');
  });

  it('MCP: the same conversion through the official client', async () => {
    const started = await mcp.callTool({ name: 'start_diagnostic_session', arguments: E9 });
    const s = started.structuredContent as unknown as Session;
    const answered = await mcp.callTool({
      name: 'respond_to_diagnostic_session',
      arguments: { session_id: s.id, action_id: s.next_action!.id, value: '0.2 MPa' },
    });
    expect(answered.isError).toBeFalsy();
    expect((answered.structuredContent as unknown as Session).history[0]).toMatchObject({
      value: 2,
      given: '0.2 MPa',
    });
  });

  it('SDK: a reading with its unit is converted, and an unknown unit refused naming it', async () => {
    ensureSdkBuilt();
    const sdk = await import('@heatsource/sdk');
    const hs = sdk.createClient({ baseUrl: server.base, apiKey: authorization.replace(/^Bearer /, '') });
    const s = await sdk.startDiagnosticSession(hs, { ...E9, equipment: 'air_water' });
    expect(s.next_action!.expected.unit).toBe('bar');
    const refused = await hs
      .respondToDiagnosticSession(s.id, { action_id: s.next_action!.id, value: '3 furlongs' })
      .then(
        () => null,
        (e: unknown) => e as { status?: number; message?: string },
      );
    expect(refused?.status).toBe(422);
    expect(JSON.stringify(refused)).toContain('furlongs');
    const next = await hs.respondToDiagnosticSession(s.id, { action_id: s.next_action!.id, value: '20 psi' });
    expect(next.history[0]).toMatchObject({ value: 1.379, given: '20 psi' });
  });

  it('CLI: a unit typed after the number is converted, shown converted, and an unknown one refused', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-units-'));
    const run = (args: string[], input = '') => runCliAsync(args, { input, env: freshUserEnv(home) });
    try {
      const common = ['--bundle', bundle.bundle, '--state', path.join(home, 'state.sqlite'), '--json'];
      const startE9 = () =>
        run(['session', 'start', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', ...common]);
      const start = await startE9();
      expect(start.status, start.stderr).toBe(0);
      const s = JSON.parse(start.stdout) as Session;
      const bad = await run(['session', 'respond', s.id, '3 furlongs', ...common]);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('furlongs');
      // 0.2 psi is 0.0138 bar: a near-empty circuit, not 0.2 bar.
      const low = await run(['session', 'respond', s.id, '0.2 psi', ...common]);
      expect(low.status, low.stderr).toBe(0);
      expect((JSON.parse(low.stdout) as Session).history[0]).toMatchObject({
        value: 0.0138,
        given: '0.2 psi',
      });
      const summary = await run(['session', 'summary', s.id, ...common.filter((a) => a !== '--json')]);
      expect(summary.stdout).toContain('0.0138 bar (given as 0.2 psi)');
      // Answered in text mode, the reading is read back as recorded: converted, with what was typed.
      const text = common.filter((a) => a !== '--json');
      const again = await startE9();
      const told = await run([
        'session',
        'respond',
        (JSON.parse(again.stdout) as Session).id,
        '20 psi',
        ...text,
      ]);
      expect(told.status, told.stderr).toBe(0);
      expect(told.stdout).toContain('Recorded: 1.379 bar (given as 20 psi)');
      // An unknown brand, interactively: said once, then the kind asked in plain words, and a session runs.
      const unknown = await run(
        ['troubleshoot', '--bundle', bundle.bundle, '--state', path.join(home, 'state.sqlite')],
        'Acme\nX1\nE1\n\n1\nquit\n',
      );
      expect(unknown.status, unknown.stderr).toBe(0);
      expect(unknown.stdout.match(/No manual of the Acme X1 is known/g)).toHaveLength(1);
      expect(unknown.stdout).toContain('Does the unit heat water');
      expect(unknown.stdout).toContain('General advice (not quoted from a manual).');
      expect(unknown.stdout).not.toContain('validation_failed');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }, 120_000);
});
