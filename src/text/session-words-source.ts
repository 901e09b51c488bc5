import { type JsonSource, readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/**
 * The session word file as read, not yet checked (session-words.ts checks it). Its own module so that
 * the field app's browser build can put the file, read at build time, in its place.
 */
export function readSessionWordsSource(file = projectPath('data', 'cli', 'session-words.json')): JsonSource {
  return readJsonSource(file);
}
