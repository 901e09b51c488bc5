import type { Keywords } from './knowledge-schema.js';

/** Lower case, no accents, words separated by single spaces (apostrophes and hyphens split words). */
export function normaliseText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}*]+/gu, ' ')
    .trim();
}

export function tokens(text: string): string[] {
  const norm = normaliseText(text).replace(/\*/g, ' ');
  return norm ? norm.split(' ') : [];
}

interface Phrase {
  words: string[];
}

/**
 * Phrases already compiled. The phrases come from the knowledge (a few thousand), and every session
 * matches its description against all of them, so each is normalised once; the bound keeps a caller
 * who matches text of their own from growing it without end.
 */
const compiled = new Map<string, Phrase>();
const COMPILED_MAX = 20_000;

function compilePhrase(phrase: string): Phrase {
  const known = compiled.get(phrase);
  if (known) return known;
  const result = { words: normaliseText(phrase).split(' ').filter(Boolean) };
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(phrase, result);
  return result;
}

function wordMatches(pattern: string, token: string): boolean {
  if (pattern.endsWith('*')) return token.startsWith(pattern.slice(0, -1));
  return pattern === token;
}

/** Where the phrase occurs in the words: the index of each occurrence's first word. */
function occurrences(phrase: Phrase, words: string[]): number[] {
  const n = phrase.words.length;
  const at: number[] = [];
  if (n === 0) return at;
  for (let i = 0; i + n <= words.length; i++) {
    if (phrase.words.every((pattern, j) => wordMatches(pattern, words[i + j]!))) at.push(i);
  }
  return at;
}

function phraseOccurs(phrase: Phrase, words: string[]): boolean {
  return occurrences(phrase, words).length > 0;
}

/** Every occurrence of every phrase, as word ranges [start, end) with the phrase's length in words. */
export function phraseSpans(
  phrases: string[],
  words: string[],
): { start: number; end: number; length: number }[] {
  return phrases.flatMap((text) => {
    const phrase = compilePhrase(text);
    const length = phrase.words.length;
    return occurrences(phrase, words).map((start) => ({ start, end: start + length, length }));
  });
}

export function allPhrases(keywords: Keywords): string[] {
  return [...keywords.en, ...keywords.fr, ...keywords.de, ...keywords.es, ...keywords.nl];
}

/** Whether any phrase of any language occurs in the text's words. */
export function anyPhraseOccurs(keywords: Keywords, words: string[]): boolean {
  return allPhrases(keywords).some((p) => phraseOccurs(compilePhrase(p), words));
}

/**
 * How well a text matches a keyword set: the summed word counts of the distinct phrases that occur,
 * so that a specific phrase ("pump fuse") outweighs a generic one ("pump").
 */
export function keywordScore(keywords: Keywords, words: string[]): number {
  const seen = new Set<string>();
  let score = 0;
  for (const phrase of allPhrases(keywords)) {
    const compiled = compilePhrase(phrase);
    const key = compiled.words.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    if (phraseOccurs(compiled, words)) score += compiled.words.length;
  }
  return score;
}

/** The ids whose keywords match the text best (all of them on a tie), or none when nothing matches. */
export function bestMatches<T extends { id: string; keywords: Keywords }>(items: T[], text: string): T[] {
  const words = tokens(text);
  let best = 0;
  let winners: T[] = [];
  for (const item of items) {
    const score = keywordScore(item.keywords, words);
    if (score > best) {
      best = score;
      winners = [item];
    } else if (score === best && score > 0) {
      winners.push(item);
    }
  }
  return winners;
}
