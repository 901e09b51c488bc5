/**
 * Words of accent-folded text: letters and digits joined by inner hyphens, dots or slashes ("r-32",
 * "mmw-up0271lq-e", "1.5"). Apostrophes split ("d'eau" -> "d", "eau").
 */
export const WORD = /[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*/gu;

/** One part of a word; `bound` when the word has several parts ("sous" in "sous-refroidissement"). */
export interface WordPart {
  text: string;
  bound: boolean;
  /** The index of the word the part belongs to. */
  word: number;
}

/** The parts of every word in order, the stream that stemming and phrase matching work on. */
export function wordParts(folded: string): WordPart[] {
  const out: WordPart[] = [];
  (folded.match(WORD) ?? []).forEach((word, index) => {
    const parts = word.split(/[-./]/).filter(Boolean);
    for (const text of parts) out.push({ text, bound: parts.length > 1, word: index });
  });
  return out;
}

export function hasDigit(term: string): boolean {
  return /\d/.test(term);
}
