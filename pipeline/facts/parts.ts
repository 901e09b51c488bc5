import { anyOf, readerWords } from './reader-words.js';

/**
 * Names of heat-pump parts in the corpus languages (data/layout/reader-words.yaml, parts). A code's part is the first of them its description
 * names, with the words that qualify it there ("water inlet temp. sensor", "sensor de temperatura
 * ambiente"), as printed.
 */
const PART = new RegExp(`^(?:${anyOf(readerWords.parts.names)})$`, 'iu');
/** German and Dutch compounds that end in a part name ("Temperatursensor", "Wasserpumpe"). */
const COMPOUND = new RegExp(String.raw`\p{L}{3,}(?:${anyOf(readerWords.parts.compound_endings)})$`, 'iu');

/** Words that end a part's qualifiers when read backwards. */
const STOP = new RegExp(`^(?:${anyOf(readerWords.parts.stop_words)})$`, 'i');
/** Prepositions that introduce a qualifier after the part name (Romance languages, Dutch). */
const AFTER = new RegExp(`^(?:${anyOf(readerWords.parts.qualifier_openers)})$`, 'i');

export function partOf(text: string): { name: string; reference: string | null } | null {
  const words = text.split(/\s+/).filter(Boolean);
  const at = words.findIndex((w) => {
    const bare = w.replace(/^[(]+|[(),.:;]+$/g, '');
    return PART.test(bare) || COMPOUND.test(bare);
  });
  if (at < 0) return null;
  // "fan motor", "P.C. board": a two-word part name read as one.
  let end = at;
  const next = words[at + 1]?.replace(/[(),.:;]+$/g, '') ?? '';
  if (/^(?:motors?|boards?|switch(?:es)?|valves?|controllers?)$/i.test(next)) end = at + 1;
  let start = at;
  for (let i = at - 1; i >= 0 && at - i <= 4; i--) {
    const w = words[i]!;
    if (STOP.test(w) || /[,;:>)]$/.test(w) || /^[\d<(]/.test(w)) break;
    start = i;
  }
  if (AFTER.test(words[end + 1] ?? '')) {
    for (let i = end + 1; i < words.length && i <= end + 4; i++) {
      if (i > end + 1 && STOP.test(words[i]!)) break;
      end = i;
      if (/[,;:.]$/.test(words[i]!)) break;
    }
  }
  const name = words
    .slice(start, end + 1)
    .join(' ')
    .replace(/[,;:.]+$/, '')
    .trim();
  const reference = words
    .slice(start, end + 1)
    .find((w) => /^\(?[A-Z]{1,4}\d{0,2}(?:\/[A-Z]{1,4}\d{0,2})*\)?$/.test(w) && /[A-Z]{2}|\d/.test(w));
  return { name, reference: reference?.replace(/[()]/g, '') ?? null };
}
