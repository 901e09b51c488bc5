import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Worker threads need compiled JavaScript. From dist/ the worker sits next to this module; from the
 * TypeScript sources (vitest) it is the compiled copy under <repo>/dist, produced by `npm run build`.
 */
export function renderWorkerUrl(moduleUrl: string = import.meta.url): URL {
  if (!moduleUrl.endsWith('.ts')) return new URL('./render-worker.js', moduleUrl);
  const repoRoot = new URL('../../', moduleUrl);
  const compiled = new URL('dist/pipeline/snapshots/render-worker.js', repoRoot);
  if (!existsSync(fileURLToPath(compiled))) {
    throw new Error(
      `snapshot render worker not compiled: ${fileURLToPath(compiled)} is missing; run \`npm run build\` first`,
    );
  }
  return compiled;
}
