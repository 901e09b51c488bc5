import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { projectPath } from '../../project-path.js';

/**
 * The units table as written in data/units.yaml, not yet checked (units.ts checks it). Its own module so
 * that the field app's browser build can put the table, parsed at build time, in its place.
 */
export function readUnitsTable(): unknown {
  return parseYaml(readFileSync(projectPath('data', 'units.yaml'), 'utf8'));
}
