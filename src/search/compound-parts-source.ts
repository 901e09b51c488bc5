import { type JsonSource, readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/**
 * The compound-parts file as read, not yet checked (compounds.ts checks it). Its own module so that the
 * field app's browser build can put the file, read at build time, in its place.
 */
export function readCompoundPartsSource(
  file = projectPath('data', 'search', 'compound-parts.json'),
): JsonSource {
  return readJsonSource(file);
}
