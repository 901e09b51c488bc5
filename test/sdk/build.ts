import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirLockSync } from '../helpers/dir-lock.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SDK_DIR = path.join(ROOT, 'sdk');
export const SDK_ENTRY = path.join(SDK_DIR, 'dist', 'index.js');

function newest(dir: string, keep: (name: string) => boolean): number {
  if (!fs.existsSync(dir)) return 0;
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .reduce((m, e) => Math.max(m, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs), 0);
}

/**
 * Runs `fn` while holding a lock shared by the test files of this project (they run in parallel
 * processes): two compilers writing the same dist/ at once would leave it half-written.
 */
export function withBuildLock<T>(fn: () => T): T {
  const lock = path.join(
    os.tmpdir(),
    `heatsource-build-${Buffer.from(ROOT).toString('hex').slice(-24)}.lock`,
  );
  // A lock left by a killed run is older than any build takes.
  return withDirLockSync(lock, { staleMs: 240_000, waitMs: 300_000 }, fn);
}

/** Builds the SDK (contract copy + tsc) when dist/ is missing or older than its sources or the contract. */
export function ensureSdkBuilt(): void {
  const isTs = (n: string) => n.endsWith('.ts');
  const stale = () => {
    if (!fs.existsSync(SDK_ENTRY)) return true;
    const built = newest(path.join(SDK_DIR, 'dist'), (n) => n.endsWith('.js'));
    const sources = Math.max(
      newest(path.join(ROOT, 'src', 'contract'), isTs),
      ...fs
        .readdirSync(path.join(SDK_DIR, 'src'))
        .filter(isTs)
        .map((f) => fs.statSync(path.join(SDK_DIR, 'src', f)).mtimeMs),
    );
    return built < sources;
  };
  if (!stale()) return;
  withBuildLock(() => {
    if (!stale()) return;
    const copy = spawnSync(process.execPath, [path.join(SDK_DIR, 'scripts', 'copy-contract.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (copy.status !== 0) throw new Error(`copying the contract failed: ${copy.stderr}`);
    // Compiled beside dist/ and swapped in, so that a process loading the SDK meanwhile (a terminal run by
    // another suite) never sees half the files of a build.
    const next = path.join(SDK_DIR, `dist.next-${process.pid}`);
    const old = path.join(SDK_DIR, `dist.old-${process.pid}`);
    fs.rmSync(next, { recursive: true, force: true });
    const tsc = spawnSync(
      process.execPath,
      [
        path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'sdk/tsconfig.json',
        '--outDir',
        next,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (tsc.status !== 0) {
      fs.rmSync(next, { recursive: true, force: true });
      throw new Error(`the SDK does not compile:\n${tsc.stdout}${tsc.stderr}`);
    }
    const dist = path.join(SDK_DIR, 'dist');
    if (fs.existsSync(dist)) fs.renameSync(dist, old);
    fs.renameSync(next, dist);
    fs.rmSync(old, { recursive: true, force: true });
  });
}
