import { type JsonSource, readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/**
 * The stop-word file as read, not yet checked (stopwords.ts checks it). Its own module so that the field
 * app's browser build can put the file, read at build time, in its place.
 */
export function readStopWordsSource(file = projectPath('data', 'text', 'stop-words.json')): JsonSource {
  return readJsonSource(file);
}
