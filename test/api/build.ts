import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function newestSource(dir: string): number {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .reduce((m, e) => Math.max(m, fs.statSync(path.join(e.parentPath, e.name)).mtimeMs), 0);
}

/**
 * Compiles the project when `dist/` is missing or older than the sources: the CLI tests run the built
 * binary and snapshot rendering runs the compiled worker. Type errors elsewhere in the tree still emit
 * JavaScript, and the typecheck runs on its own, so the compiler's exit status is not a verdict here.
 */
export function ensureBuilt(): void {
  const probe = path.join(ROOT, 'dist', 'commands', 'serve.js');
  const sources = Math.max(...['commands', 'src', 'pipeline'].map(newestSource));
  if (fs.existsSync(probe) && fs.statSync(probe).mtimeMs >= sources) return;
  spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' });
  // The command manifest describes the compiled commands: a stale one would hide a new flag or command.
  spawnSync(process.execPath, ['dist/scripts/oclif-manifest.js'], { cwd: ROOT, stdio: 'ignore' });
}
