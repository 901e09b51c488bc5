import { type JsonSource, readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/**
 * The question-type file as read, not yet checked (question-types.ts checks it). Its own module so that
 * the field app's browser build can put the file, read at build time, in its place.
 */
export function readQuestionTypesSource(
  file = projectPath('data', 'search', 'question-types.json'),
): JsonSource {
  return readJsonSource(file);
}
