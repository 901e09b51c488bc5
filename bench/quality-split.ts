/**
 * The manuals whose free-text questions are held out while search rules are written: a seeded draw, so
 * the split is fixed before any question is read, works on any set of answer keys, and names no manual.
 * Rules and data written while reading the in-sample questions are measured on the held-out ones; the
 * bench prints held-out figures only as counts, never their questions or misses (unless asked to).
 */
import crypto from 'node:crypto';

/** Changing the seed draws another split; figures measured on the old split no longer count as held out. */
export const HOLDOUT_SEED = 'heatsource-search-holdout';
/** One manual in three is held out. */
export const HOLDOUT_SHARE = 1 / 3;

/** The held-out manuals among `documents` (names without `.pdf`): the first third by seeded hash. */
export function heldOutManuals(documents: readonly string[], seed = HOLDOUT_SEED): Set<string> {
  const count = Math.round(documents.length * HOLDOUT_SHARE);
  const drawn = [...new Set(documents)]
    .map((d) => ({ d, h: crypto.createHash('sha256').update(`${seed}:${d}`).digest('hex') }))
    .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0));
  return new Set(drawn.slice(0, count).map((x) => x.d));
}
