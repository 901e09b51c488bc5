import { articlesAnywhere, negationsAnywhere, sidesAnywhere } from '../../text/stopwords.js';
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

/*
 * How a phrase of the knowledge is found in what a technician wrote. Written by hand because it is ours:
 * the phrases are short trade wordings in five languages and the texts one or two sentences, so a
 * word-by-word walk is all it takes, with three allowances that make a phrase written one way match the
 * same words written another:
 * - articles and the genitive "of" are passed over on both sides ("pression d eau" finds "pression de
 *   l eau" and "pression eau"; the lists are data, data/text/stop-words.json);
 * - a word is compared without a plural or feminine ending ("purgeurs" with "purgeur", "bouchee" with
 *   "bouche"): a final "s" (not "ss"), then up to two final "e", on words of five letters or more;
 * - one word may stand between two words of a phrase ("ecart de temperature entre depart et retour"
 *   holds "ecart ... depart retour"), unless it is a negation: "debit pas normal" never reads as
 *   "debit normal"; or a word naming another side of the machine: "pression HP chute" never reads as
 *   "pression chute", a water circuit's loss.
 * A word ending in "*" in the knowledge is a prefix, compared with the word as written.
 */

interface Phrase {
  /** Each word as written (a "*" prefix keeps its star) and in its compared form, articles left out. */
  words: { raw: string; form: string }[];
}

/** A text's words as phrases are compared with them: articles left out, each word's position kept. */
interface WordsView {
  raw: string[];
  form: string[];
  /** The position of each kept word in the text's words. */
  at: number[];
  /** Words a phrase never skips over: negations, and the refrigerant side's HP and BP. */
  barrier: boolean[];
}

/** The ending a word is compared without: plural "s", then feminine or silent "e" (twice for "-ee"). */
export function comparedForm(word: string): string {
  let w = word;
  if (w.length >= 5 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  for (let i = 0; i < 2 && w.length >= 5 && w.endsWith('e'); i++) w = w.slice(0, -1);
  return w;
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
  const articles = articlesAnywhere();
  const all = normaliseText(phrase).split(' ').filter(Boolean);
  // A phrase made only of articles (none is written so, but a maintainer could) is matched as written.
  const kept = all.some((w) => !articles.has(w)) ? all.filter((w) => !articles.has(w)) : all;
  const result = {
    words: kept.map((raw) => ({ raw, form: raw.endsWith('*') ? raw : comparedForm(raw) })),
  };
  if (compiled.size >= COMPILED_MAX) compiled.clear();
  compiled.set(phrase, result);
  return result;
}

/** Views by the word array they were made from: one description is matched against every phrase. */
const views = new WeakMap<readonly string[], WordsView>();

function viewOf(words: readonly string[]): WordsView {
  const known = views.get(words);
  if (known) return known;
  const articles = articlesAnywhere();
  const negations = negationsAnywhere();
  const sides = sidesAnywhere();
  const view: WordsView = { raw: [], form: [], at: [], barrier: [] };
  words.forEach((w, i) => {
    if (articles.has(w)) return;
    view.raw.push(w);
    view.form.push(comparedForm(w));
    view.at.push(i);
    view.barrier.push(negations.has(w) || sides.has(w));
  });
  views.set(words, view);
  return view;
}

function wordMatches(pattern: { raw: string; form: string }, view: WordsView, k: number): boolean {
  if (pattern.raw.endsWith('*')) return view.raw[k]!.startsWith(pattern.raw.slice(0, -1));
  return pattern.form === view.form[k];
}

/** Where the phrase occurs in the words: each occurrence as the positions of its first and last word. */
function occurrences(phrase: Phrase, words: readonly string[]): { first: number; last: number }[] {
  const n = phrase.words.length;
  const found: { first: number; last: number }[] = [];
  if (n === 0) return found;
  const view = viewOf(words);
  const size = view.form.length;
  for (let i = 0; i < size; i++) {
    if (!wordMatches(phrase.words[0]!, view, i)) continue;
    let k = i;
    let whole = true;
    for (let j = 1; j < n && whole; j++) {
      const pattern = phrase.words[j]!;
      if (k + 1 < size && wordMatches(pattern, view, k + 1)) k += 1;
      else if (k + 2 < size && !view.barrier[k + 1] && wordMatches(pattern, view, k + 2)) k += 2;
      else whole = false;
    }
    if (whole) found.push({ first: view.at[i]!, last: view.at[k]! });
  }
  return found;
}

function phraseOccurs(phrase: Phrase, words: readonly string[]): boolean {
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
    return occurrences(phrase, words).map(({ first, last }) => ({ start: first, end: last + 1, length }));
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
    const key = compiled.words.map((w) => w.form).join(' ');
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
