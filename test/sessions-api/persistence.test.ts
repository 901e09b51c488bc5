import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/contract/sessions.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { ROOT } from '../api/build.js';
import { buildFixtureBundle, testApi } from '../api/fixture.js';
import { ensureBuiltOnce } from './built.js';
import { answerFor, UNIT } from './helpers.js';

let bundle: string;
let dir: string;

beforeAll(async () => {
  await ensureBuiltOnce();
  bundle = await buildFixtureBundle();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-sessions-'));
}, 300_000);

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

describe('sessions survive the server', () => {
  it('continue after a restart on the same state file', async () => {
    const stateFile = path.join(dir, 'restart.sqlite');
    const one = await testApi(bundle, { stateFile });
    const { authorization } = await one.key('acme');
    const headers = { authorization, 'content-type': 'application/json' };
    const started = (
      await one.request({ method: 'POST', url: '/v2/diagnostic-sessions', headers, payload: UNIT })
    ).json() as Session;
    const answered = (
      await one.request({
        method: 'POST',
        url: `/v2/diagnostic-sessions/${started.id}/responses`,
        headers,
        payload: { action_id: started.next_action!.id, value: answerFor(started.next_action!) },
      })
    ).json() as Session;
    await one.close();

    const two = await testApi(bundle, { stateFile });
    try {
      const read = await two.request({
        method: 'GET',
        url: `/v2/diagnostic-sessions/${started.id}`,
        headers: { authorization },
      });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(answered);
      const next = await two.request({
        method: 'POST',
        url: `/v2/diagnostic-sessions/${started.id}/responses`,
        headers,
        payload: { action_id: answered.next_action!.id, unknown: true },
      });
      expect(next.statusCode).toBe(200);
      expect((next.json() as Session).history).toHaveLength(2);
    } finally {
      await two.close();
    }
  });

  it('continue after the server process is killed with SIGKILL mid-session', async () => {
    const stateFile = path.join(dir, 'kill.sqlite');
    const store = new SqliteStateStore(stateFile);
    const account = await store.createAccount({ name: 'acme' });
    const { secret } = await store.createKey(account.id, 'test');
    await store.close();
    const first = await serve(stateFile);
    const api = client(first.url, secret);
    const started = (await api('POST', '/v2/diagnostic-sessions', UNIT)) as Session;
    let s = started;
    for (let i = 0; i < 2; i++) {
      s = (await api('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
        action_id: s.next_action!.id,
        value: answerFor(s.next_action!),
      })) as Session;
    }
    // One more answer in flight when the process dies: it is either wholly recorded or not at all.
    const inFlight = api('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: s.next_action!.id,
      value: answerFor(s.next_action!),
    }).catch(() => null);
    await new Promise((r) => setTimeout(r, 2));
    first.child.kill('SIGKILL');
    await first.exit;
    const acknowledged = (await inFlight) as Session | null;

    const second = await serve(stateFile);
    const again = client(second.url, secret);
    const read = (await again('GET', `/v2/diagnostic-sessions/${s.id}`)) as Session;
    if (acknowledged) expect(read).toEqual(acknowledged);
    else expect([2, 3]).toContain(read.history.length);
    expect(read.history.slice(0, 2)).toEqual(s.history);
    s = read;
    const next = (await again('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
      action_id: read.next_action!.id,
      value: answerFor(read.next_action!),
    })) as Session;
    expect(next.history.map((h) => h.action_id)).toEqual([
      ...s.history.map((h) => h.action_id),
      read.next_action!.id,
    ]);
    second.child.kill('SIGTERM');
    await second.exit;
  }, 120_000);
});

interface Served {
  child: ChildProcess;
  url: string;
  exit: Promise<unknown>;
}

/** `heatsource serve` in a child process on a free port, over a state that already has a key. */
function serve(stateFile: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, 'bin', 'run.js'),
      'serve',
      '--bundle',
      bundle,
      '--state',
      stateFile,
      '--port',
      '0',
      '--log-level',
      'silent',
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  const exit = new Promise((resolve) => child.on('exit', resolve));
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 60_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const url = /at (http:\/\/\S+)/.exec(err)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, exit });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

function client(base: string, key: string) {
  return async (method: 'GET' | 'POST', url: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(base + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as unknown;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}
