import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectPath } from '../src/project-path.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';

/** A `heatsource serve` child process over a bundle, with a fresh state and one account's key. */
export interface ServeProcess {
  server: ChildProcess;
  /** Where it listens, as it printed it. */
  base: string;
  /** `Bearer <key>` of an account without quota or rate limit. */
  authorization: string;
  /** Stops the server and removes its state. */
  stop(): Promise<void>;
}

/**
 * Starts `heatsource serve` as an operator would, in a process of its own (so that its memory and CPU
 * can be read from /proc apart from the load's), on a free loopback port, its log to /dev/null.
 * `env` entries are NAME=VALUE.
 */
export async function startServeProcess(
  bundle: string,
  name: string,
  env: readonly string[] = [],
): Promise<ServeProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `heatsource-${name}-`));
  const stateFile = path.join(dir, 'state.sqlite');
  const store = new SqliteStateStore(stateFile);
  const account = await store.createAccount({ name, quota_limit: null, rate_limit_per_minute: null });
  const { secret } = await store.createKey(account.id, 'test');
  await store.close();
  const childEnv = { ...process.env };
  for (const kv of env) {
    const at = kv.indexOf('=');
    childEnv[kv.slice(0, at)] = kv.slice(at + 1);
  }
  const out = fs.openSync('/dev/null', 'w');
  const server = spawn(
    process.execPath,
    [projectPath('bin', 'run.js'), 'serve', '--bundle', bundle, '--state', stateFile, '--port', '0'],
    { stdio: ['ignore', out, 'pipe'], env: childEnv },
  );
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    let err = '';
    const base = await new Promise<string>((resolve, reject) => {
      server.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /at (http:\/\/\S+)/.exec(err);
        if (m) resolve(m[1]!);
      });
      server.on('exit', () => reject(new Error(`serve exited: ${err}`)));
    });
    return { server, base, authorization: `Bearer ${secret}`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** A process's resident memory in MB, from /proc; 0 once it has exited. */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0; // it exited meanwhile
  }
}
