import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { fingerprint } from '../../src/engine/billing.js';
import { ownerGone, processOwner } from '../../src/state/process-owner.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { startServe } from '../helpers/serve.js';
import { ensureBuilt, ROOT } from './build.js';
import { buildFixtureBundle } from './fixture.js';

const body = { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' };
const children: ChildProcess[] = [];

let dir: string;
let bundle: string;

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-crash-'));
  bundle = await buildFixtureBundle();
}, 180_000);
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** Runs `script` (ESM) in a new Node process; resolves with what it printed once it prints `ready`. */
function holder(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; out: string }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready')) resolve({ child, out });
    });
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('exit', () => reject(new Error(`holder exited: ${out} ${err}`)));
  });
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe('process owners', () => {
  it('knows this process alive and a process that ended gone', async () => {
    expect(ownerGone(processOwner())).toBe(false);
    expect(ownerGone(null)).toBe(false);
    // Another machine cannot be checked: its lease is left to expire.
    expect(ownerGone(`elsewhere.example|b00t|${process.pid}|1`)).toBe(false);
    const { child, out } = await holder(
      `import { processOwner } from './dist/src/state/process-owner.js';
       console.log(processOwner()); console.log('ready'); setInterval(() => {}, 1000);`,
      {},
    );
    const owner = out.split('\n')[0]!;
    expect(owner.split('|')[2]).toBe(String(child.pid));
    expect(ownerGone(owner)).toBe(false);
    await kill9(child);
    expect(ownerGone(owner)).toBe(true);
  });
});

describe('a retry after kill -9', () => {
  it('is served at once by the restarted server, not refused as in flight', async () => {
    const stateFile = path.join(dir, 'state.sqlite');
    const store = new SqliteStateStore(stateFile);
    const account = await store.createAccount({ name: 'crash', rate_limit_per_minute: null });
    const { key, secret } = await store.createKey(account.id, 'test');
    await store.close();
    const op = OPERATIONS.find((o) => o.name === 'diagnose')!;
    const print = fingerprint(op.name, op.input.parse(body));
    const ref = { scope: `key:${key.id}`, key: 'retry-after-crash' };

    // A server process that began the request and holds its key, as one does mid-request.
    const { child: held } = await holder(
      `import { SqliteStateStore } from './dist/src/state/sqlite-store.js';
       const s = new SqliteStateStore(process.env.STATE);
       const begin = await s.beginIdempotent(${JSON.stringify(ref)}, ${JSON.stringify(print)});
       console.log(begin.kind === 'started' ? 'ready' : 'unexpected ' + begin.kind);
       setInterval(() => {}, 1000);`,
      { STATE: stateFile },
    );
    const observer = new SqliteStateStore(stateFile);
    expect((await observer.beginIdempotent(ref, print)).kind).toBe('in_flight');
    expect(await observer.reclaimAbandonedIdempotency()).toBe(0);
    await observer.close();

    await kill9(held);

    const server = await startServe(['--log-level', 'silent', '--bundle', bundle, '--state', stateFile]);
    children.push(server.child);
    const res = await fetch(`${server.url}/v1/diagnostic`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        'idempotency-key': ref.key,
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { state: string }).state).toBe('answer');
    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);

    const after = new SqliteStateStore(stateFile);
    expect(await after.ledger({ account_id: account.id })).toHaveLength(1);
    await after.close();
  });
});
