/**
 * The one rule every held-out split of the benches draws by: keys ordered by the SHA-256 of a seed and
 * the key, so a split depends on the seed and the keys' names alone, never on what the cases or
 * questions say, and changing the seed draws another split.
 */
import crypto from 'node:crypto';

/** `keys` without repeats, ordered by the hex digest of `seed`, `separator` and the key. */
export function orderBySeed(keys: readonly string[], seed: string, separator = '\u0000'): string[] {
  return [...new Set(keys)]
    .map((k) => ({ k, h: crypto.createHash('sha256').update(`${seed}${separator}${k}`).digest('hex') }))
    .sort((a, b) => (a.h < b.h ? -1 : a.h > b.h ? 1 : 0))
    .map((x) => x.k);
}
