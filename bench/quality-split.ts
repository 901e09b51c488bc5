/**
 * Splits drawn before any question is read, by a seeded digest alone, so they work on any set of answer
 * keys and name nothing from the data:
 *
 * - the manuals whose free-text questions were held out while the search rules of 2026-11-25 were written
 *   (a third of the manuals, `heldOutManuals`);
 * - a half of the questions themselves, by question id (`heldOutQuestions`), for the search round of
 *   2026-11-26: rules are written while reading the working half's misses only.
 *
 * The bench prints held-out figures only as counts, never their questions or misses (unless asked to).
 */
import { orderBySeed } from './seeded-order.js';

/** Changing the seed draws another split; figures measured on the old split no longer count as held out. */
export const HOLDOUT_SEED = 'heatsource-search-holdout';
/** One manual in three is held out. */
export const HOLDOUT_SHARE = 1 / 3;
/** The seed of the question halves (drawn by the same rule as the sessions split, seeded-order.ts). */
export const QUESTION_SEED = 'heatsource-search-questions-1';

/** The held-out manuals among `documents` (names without `.pdf`): the first third by seeded hash. */
export function heldOutManuals(documents: readonly string[], seed = HOLDOUT_SEED): Set<string> {
  const count = Math.round(documents.length * HOLDOUT_SHARE);
  return new Set(orderBySeed(documents, seed, ':').slice(0, count));
}

/**
 * The held-out half of the questions (by their key ids): ordered by the digest of seed and id, the first
 * half (rounded up) is the working half, the rest held out.
 */
export function heldOutQuestions(ids: readonly string[], seed = QUESTION_SEED): Set<string> {
  const ordered = orderBySeed(ids, seed);
  return new Set(ordered.slice(Math.ceil(ordered.length / 2)));
}
