import { fold } from '../src/text/normalise.js';

function tokens(text: string): Set<string> {
  return new Set(
    fold(text.normalize('NFKC'))
      .split(/[^\p{L}\p{N}]+/u)
      .filter((t) => t.length > 0),
  );
}

/**
 * How well an extracted title matches the key's meaning: the Dice coefficient of their token sets
 * (case, accents and ligatures folded), so that a title padded with a neighbouring cell scores lower.
 */
export function meaningOverlap(title: string, meaning: string): number {
  const a = tokens(title);
  const b = tokens(meaning);
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return (2 * common) / (a.size + b.size);
}

function sequence(text: string): string[] {
  return fold(text.normalize('NFKC'))
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

/**
 * Whether an excerpt holds the meaning as one run of words: the meaning's words, in order and next to
 * each other (case, accents and punctuation aside), somewhere in the excerpt. An excerpt that
 * interleaves table columns splits the meaning and fails.
 */
export function holdsAsRun(excerpt: string, meaning: string): boolean {
  const want = sequence(meaning);
  const have = sequence(excerpt);
  if (want.length === 0) return false;
  outer: for (let i = 0; i + want.length <= have.length; i++) {
    for (let j = 0; j < want.length; j++) if (have[i + j] !== want[j]) continue outer;
    return true;
  }
  return false;
}
