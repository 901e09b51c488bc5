import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './cli.js';

/** ../shared beside the project: real manuals and answer keys, present in CI, absent elsewhere. */
export const SHARED = path.resolve(ROOT, '..', 'shared');
export const CORPUS = path.join(SHARED, 'corpus');
export const ANSWERS = path.join(SHARED, 'eval', 'answers');
export const HVAC_BENCH = path.join(SHARED, 'hvac-bench');

export const hasCorpus = fs.existsSync(CORPUS) && fs.readdirSync(CORPUS).some((f) => f.endsWith('.pdf'));

/** Says once, visibly, why a real-corpus suite is skipped. */
export function noteSkip(suite: string, dir: string): void {
  if (!fs.existsSync(dir)) console.warn(`[skip] ${suite}: ${dir} is absent; real-corpus checks did not run`);
}
