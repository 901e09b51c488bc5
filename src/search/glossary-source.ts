import { type JsonSource, readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/**
 * The glossary file as read, not yet checked (glossary-terms.ts checks it). Its own module so that the
 * field app's browser build can put the file, read at build time, in its place.
 */
export function readGlossarySource(file = projectPath('data', 'search', 'glossary.json')): JsonSource {
  return readJsonSource(file);
}
