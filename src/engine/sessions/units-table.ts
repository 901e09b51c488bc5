import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { projectPath } from '../../project-path.js';

/**
 * The units table as written in data/units.yaml, not yet checked (units.ts checks it). Its own module so
 * that the field app's browser build can put the table, parsed at build time, in its place.
 */
export function readUnitsTable(): unknown {
  // yaml is loaded with the table (the first guided session), not when the server starts.
  const { parse: parseYaml } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parseYaml(readFileSync(projectPath('data', 'units.yaml'), 'utf8'));
}
