import { fold } from '../text/normalise.js';

/**
 * Turns text into index terms. Codes and model names ("A5-00", "MMW-UP0271LQ-E", "P 12") must match as
 * exact tokens, so a token mixing letters and digits is also indexed with its separators removed, next to
 * its parts. Everything is case- and accent-folded.
 */
export function analyze(text: string): string[] {
  const out: string[] = [];
  const folded = fold(text);
  // Words: letters/digits joined by inner hyphens, dots or slashes ("r-32", "mmw-up0271lq-e", "1.5").
  const words = folded.match(/[\p{L}\p{N}]+(?:[-./][\p{L}\p{N}]+)*/gu) ?? [];
  for (const word of words) {
    const parts = word.split(/[-./]/).filter(Boolean);
    if (parts.length > 1) {
      const joined = parts.join('');
      if (/\d/.test(joined) && /\p{L}/u.test(joined)) out.push(joined);
      for (const part of parts) if (keep(part)) out.push(part);
    } else if (keep(word)) {
      out.push(word);
    }
  }
  // "P 12", "Er 07": a short letter prefix followed by a number is also one code token.
  for (const m of folded.matchAll(/\b([a-z]{1,2})\s(\d{1,4})\b/g)) out.push(`${m[1]}${m[2]}`);
  return out;
}

function keep(term: string): boolean {
  return term.length > 1 || /\d/.test(term);
}
