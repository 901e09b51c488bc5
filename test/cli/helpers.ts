import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoBundle } from '../../pipeline/ingest/demo.js';
import { FORMAT_VERSION } from '../../src/bundle/schema.js';
import { ensureBuilt } from '../api/build.js';
import { withDirLock } from '../helpers/dir-lock.js';
import { ensureSdkBuilt, ROOT, withBuildLock } from '../sdk/build.js';

export { ROOT };
export const BIN = path.join(ROOT, 'bin', 'run.js');

/** The SDK, then the project (the terminal imports the built SDK), when either is older than its sources. */
export function ensureCliBuilt(): void {
  ensureSdkBuilt();
  withBuildLock(() => ensureBuilt());
}

/**
 * The demo bundle built into a temporary folder shared by the terminal suites; rebuilt only when the demo
 * sources, the extractor or the bundle format changed (ensureDemoBundle compares a stamp).
 */
export async function demoBundle(): Promise<string> {
  // One folder per bundle format: checkouts of another format on the same machine rebuild their own.
  const dir = path.join(os.tmpdir(), `heatsource-cli-tests-f${FORMAT_VERSION}`);
  fs.mkdirSync(dir, { recursive: true });
  const bundle = path.join(dir, 'demo.bundle');
  await withDirLock(path.join(dir, 'demo.lock'), { staleMs: 200_000, waitMs: 240_000 }, () =>
    ensureDemoBundle({ bundle, jobs: 2 }),
  );
  return bundle;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for images written to stdout. */
  bytes: Buffer;
}

/**
 * Runs the built `heatsource` binary without blocking this process (the server under test answers from
 * it). The environment is cleaned of the variables that choose a source, so that each test names its own.
 */
export function heatsource(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { cwd?: string } = {},
): Promise<Run> {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of ['HEATSOURCE_URL', 'HEATSOURCE_API_KEY', 'HEATSOURCE_BUNDLE', 'FORCE_COLOR'])
    delete base[k];
  base.HEATSOURCE_CONFIG = path.join(os.tmpdir(), 'heatsource-cli-tests', 'no-such-config.json');
  const merged: NodeJS.ProcessEnv = { ...base };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete merged[k];
    else merged[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: merged,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const bytes = Buffer.concat(out);
      resolve({ code, stdout: bytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), bytes });
    });
  });
}

/** A failure ends with one line on stderr, and never a stack trace. */
export function oneLine(stderr: string): string {
  const lines = stderr.trimEnd().split('\n');
  if (lines.length !== 1 || /\n\s+at /.test(stderr))
    throw new Error(`expected one line on stderr, got:\n${stderr}`);
  return lines[0]!;
}
