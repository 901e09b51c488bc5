import fs from 'node:fs';
import { projectPath } from '../project-path.js';

/**
 * The question-type file as read, not yet checked (question-types.ts checks it). Its own module so that
 * the field app's browser build can put the file, read at build time, in its place.
 */
export function readQuestionTypesSource(file = projectPath('data', 'search', 'question-types.json')): {
  name: string;
  raw: unknown;
} {
  try {
    return { name: file, raw: JSON.parse(fs.readFileSync(file, 'utf8')) };
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}
