import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root, found from this module's location whether it runs from sources (src/) or from the
 * build (dist/src/): the nearest folder above holding the root package.json with data/.
 */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (
      fs.existsSync(path.join(dir, 'package.json')) &&
      fs.existsSync(path.join(dir, 'data', 'brands.yaml'))
    ) {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the heatsource project root (data/brands.yaml)');
    dir = parent;
  }
}

export const PROJECT_ROOT = findRoot();

export function projectPath(...parts: string[]): string {
  return path.join(PROJECT_ROOT, ...parts);
}
