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
