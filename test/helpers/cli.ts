import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin', 'run.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `heatsource` binary (tests run after `npm run build`). */
export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function spawnCli(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The environment of a technician who has never logged in: a home of their own, no source configured. */
export function freshUserEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '1', ...extra };
  env.HEATSOURCE_CONFIG = path.join(home, 'no-config.json');
  for (const name of ['HEATSOURCE_URL', 'HEATSOURCE_API_KEY', 'HEATSOURCE_BUNDLE', 'HEATSOURCE_STATE'])
    delete env[name];
  return env;
}

/**
 * Runs the built binary without blocking the test's event loop (a server in the same process keeps
 * answering), writing `input` to its stdin; `nodeArgs` go before the script (e.g. `--import` a preload).
 */
export function runCliAsync(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      cwd: ROOT,
      env: options.env ?? { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
