import { fold } from '../text/normalise.js';
import { isLanguage, isStopWordAnywhere, LANGUAGES, type Language, STOP_WORDS } from '../text/stopwords.js';
import { isCompoundLanguage, isKnownPart, splitCompound } from './compounds.js';
import { collectConcepts, conceptsOfStem, stemStream } from './glossary.js';
import { detectQueryLanguage } from './query-language.js';
import { hasDigit, WORD, type WordPart, wordParts } from './tokens.js';

/**
 * Turns text into exact index terms. Codes and model names ("A5-00", "MMW-UP0271LQ-E", "P 12") must match as
 * exact tokens, so a token mixing letters and digits is also indexed with its separators removed, next to
 * its parts. Everything is case- and accent-folded.
 */
export function analyze(text: string): string[] {
  return analyzeFolded(fold(text));
}

function analyzeFolded(folded: string): string[] {
  const out: string[] = [];
  for (const word of folded.match(WORD) ?? []) {
    const parts = word.split(/[-./]/).filter(Boolean);
    if (parts.length > 1) {
      // The joined form keeps "H-LINK", "R-32" and "A5-00" exact; plain numbers ("1.5") are not joined.
      const joined = parts.join('');
      if (/\p{L}/u.test(joined)) out.push(joined);
      for (const part of parts) if (keep(part)) out.push(part);
    } else if (keep(word)) {
      out.push(word);
    }
  }
  // "P 12", "Er 07", "THP 120": a short letter prefix followed by a number is also one code token.
  for (const m of folded.matchAll(CODE_PAIR)) out.push(`${m[1]}${m[2]}`);
  return out;
}

const CODE_PAIR = /\b([a-z]{1,4})\s(\d{1,4})\b/g;

function keep(term: string): boolean {
  return term.length > 1 || /\d/.test(term);
}

/** Index term of a stem: tagged with its language so stems of different languages never collide. */
export function stemTerm(lang: Language, stemmed: string): string {
  return `${lang}:${stemmed}`;
}

/** Index term of a glossary concept: the same in every language, which is what carries a query across. */
export function conceptTerm(id: string): string {
  return `~${id}`;
}

/**
 * The views of a text: exact folded forms (codes joined), language-tagged stems, glossary concepts, and
 * pairs of neighbouring stems (function words skipped), which reward a question's words standing together.
 */
export interface AnalyzedText {
  exact: string[];
  stems: string[];
  concepts: string[];
  pairs: string[];
}

/**
 * Analyses manual text in its language ("mul" or an unknown language: every supported one). Function
 * words are dropped from every view; codes stay in the exact view only. `pairs: false` leaves out the
 * pairs of neighbouring stems (a snippet does not score them).
 */
export function analyzeText(text: string, language: string, options: { pairs?: boolean } = {}): AnalyzedText {
  return analyzeFoldedText(fold(text), language, options);
}

function languagesOf(language: string): readonly Language[] {
  return isLanguage(language) ? [language] : LANGUAGES;
}

function stopTest(langs: readonly Language[]): (w: string) => boolean {
  return (w: string) => langs.some((l) => STOP_WORDS[l].has(w));
}

function analyzeFoldedText(folded: string, language: string, options: { pairs?: boolean }): AnalyzedText {
  const langs = languagesOf(language);
  const isStop = stopTest(langs);
  const exact = analyzeFolded(folded).filter((t) => hasDigit(t) || !isStop(t));
  const parts = wordParts(folded);
  const stems: string[] = [];
  const concepts: string[] = [];
  const pairs: string[] = [];
  for (const lang of langs) {
    const stream = addLanguageViews(parts, lang, isStop, stems, concepts, pairs);
    if (options.pairs === false) continue;
    for (let i = 0; i + 1 < stream.length; i++) pairs.push(pairTerm(lang, stream[i]!, stream[i + 1]!));
  }
  return { exact, stems, concepts: concepts.map(conceptTerm), pairs };
}

/** One word's terms (exact, stems, concepts) and, per language analysed, its stems in order. */
interface WordTerms {
  terms: readonly string[];
  streams: readonly (readonly string[])[];
}

/** Words whose analysis is kept; the memo is emptied when full (a manual's vocabulary is far smaller). */
const WORD_MEMO_MAX = 50_000;
const wordMemo = new Map<string, WordTerms>();

/**
 * The terms of a line of manual text in its language, exact forms, stems and concepts (no pairs): the
 * same set as those three views of `analyzeText`, built word by word from a memo of each word's analysis,
 * as choosing a snippet analyses every line of each result's chunk and words repeat. What spans words is
 * found on the line: codes written as a prefix and a number ("P 12") and glossary phrases of several
 * words (from the words' stems in order). A plain Map emptied when full rather than an LRU: a hit must
 * cost less than analysing the word again.
 */
export function lineTerms(line: string, language: string): Set<string> {
  const langs = languagesOf(language);
  const folded = fold(line);
  const out = new Set<string>();
  const streams: string[][] = langs.map(() => []);
  for (const word of folded.match(WORD) ?? []) {
    const key = `${language}\u0000${word}`;
    let known = wordMemo.get(key);
    if (!known) {
      const a = analyzeFoldedText(word, language, { pairs: false });
      const isStop = stopTest(langs);
      const parts = wordParts(word);
      known = {
        terms: [...a.exact, ...a.stems, ...a.concepts],
        streams: langs.map((lang) => stemStream(parts, lang, isStop)),
      };
      if (wordMemo.size >= WORD_MEMO_MAX) wordMemo.clear();
      wordMemo.set(key, known);
    }
    for (const t of known.terms) out.add(t);
    known.streams.forEach((stream, i) => {
      for (const s of stream) streams[i]!.push(s);
    });
  }
  // Most lines of a manual hold no digit, and so no prefix-and-number code: the scan is skipped there.
  if (hasDigit(folded)) for (const m of folded.matchAll(CODE_PAIR)) out.add(`${m[1]}${m[2]}`);
  langs.forEach((lang, i) => {
    const concepts: string[] = [];
    collectConcepts(streams[i]!, lang, concepts);
    for (const id of concepts) out.add(conceptTerm(id));
  });
  return out;
}

/** Index term of two neighbouring stems. */
export function pairTerm(lang: Language, first: string, second: string): string {
  return `${lang}:${first}+${second}`;
}

function addLanguageViews(
  parts: readonly WordPart[],
  lang: Language,
  isStop: (w: string) => boolean,
  stems: string[],
  concepts: string[],
  pairs: string[],
): string[] {
  const stream = stemStream(parts, lang, isStop);
  for (const s of stream) {
    if (hasDigit(s) || s.length < 2) continue;
    stems.push(stemTerm(lang, s));
    const split = isCompoundLanguage(lang) && s.length >= 7 ? splitCompound(s, lang) : null;
    if (split) {
      for (const part of split.parts) {
        stems.push(stemTerm(lang, part));
        concepts.push(...conceptsOfStem(part, lang));
      }
      pairs.push(pairTerm(lang, split.modifier, split.head));
    }
  }
  collectConcepts(stream, lang, concepts);
  return stream;
}

/**
 * One word of a question (or one glossary phrase of it) with its alternatives: the exact form, the parts
 * of a compound code, the language-tagged stems, the glossary concepts. A document matches the word when
 * it holds any of them.
 */
export interface QueryWord {
  /** The folded word, or the joined form of a code written in parts ("MMW-UP0271LQ-E", "THP 120"). */
  exact: string[];
  /** The parts of such a code ("mmw", "up0271lq"; "thp", "120"): weaker evidence than the whole. */
  parts: string[];
  stems: string[];
  concepts: string[];
  /** The word holds a digit: a code, model name or value, matched exactly only. */
  code: boolean;
}

/** A question analysed for every language at once, since its language is not given. */
export interface AnalyzedQuery {
  words: QueryWord[];
  /** Folded surface forms and joined codes, function words of any language dropped. */
  exact: string[];
  /** The exact terms that hold a digit: codes, model names, values. */
  codes: string[];
  /** Tagged stems of each word under every language's stemmer. */
  stems: string[];
  concepts: string[];
  /** Neighbouring words of the question, each with its pair term in every language. */
  pairs: string[][];
  /** The language the question is most likely written in, or null. */
  language: Language | null;
}

export function analyzeQuery(q: string): AnalyzedQuery {
  const folded = fold(q);
  const words: QueryWord[] = [];
  const seen = new Set<string>();
  const add = (word: QueryWord) => {
    const key = JSON.stringify(word);
    if (
      seen.has(key) ||
      word.exact.length + word.parts.length + word.stems.length + word.concepts.length === 0
    ) {
      return;
    }
    seen.add(key);
    words.push(word);
  };
  const matches = [...folded.matchAll(WORD)];
  const wordPairs: string[][] = [];
  const parts = wordParts(folded);
  const language = detectQueryLanguage(
    q,
    parts.map((p) => p.text),
  );
  const capitalPrefixes = capitalCodePrefixes(q);
  for (let i = 0; i < matches.length; i++) {
    const raw = matches[i]![0];
    const next = matches[i + 1];
    // "THP 120", "P 12": a short letter prefix and a number written apart are one code, unless the prefix
    // is a function word written in lower case ("at 25 °C", "in 3 minutes", "de 5 bar"): "Er 07" is a code.
    if (
      next &&
      /^[a-z]{1,4}$/.test(raw) &&
      /^\d{1,4}$/.test(next[0]) &&
      isSingleSpace(folded, matches[i]!, next) &&
      (!isStopWordAnywhere(raw) || capitalPrefixes.has(`${raw} ${next[0]}`))
    ) {
      add({ exact: [`${raw}${next[0]}`], parts: [raw, next[0]], stems: [], concepts: [], code: true });
      i++;
      continue;
    }
    const terms = analyzeFolded(raw).filter((t) => hasDigit(t) || !isStopWordAnywhere(t));
    if (terms.length === 0) continue;
    const stems: string[] = [];
    const concepts: string[] = [];
    // A compound's known parts are words of their own ("compressorfrequentie" asks for a compressor and a
    // frequency), so that a page writing them apart matches as many words as one writing the compound.
    const compoundParts = new Map<string, { stems: string[]; concepts: string[] }>();
    const compoundPairs: string[] = [];
    for (const lang of LANGUAGES) {
      const stream = stemStream(wordParts(raw), lang, isStopWordAnywhere);
      for (const s of stream) {
        if (hasDigit(s) || s.length < 2) continue;
        stems.push(stemTerm(lang, s));
        // A compound that is a word of its own ("koudemiddel", "warmtepomp") is not asked for by parts.
        // Nor is a word of a question written in another language: Dutch would read English "pressure"
        // as "pres|uur" and ask for an hour, German "Wärmepumpe" as "warm|epump" under Dutch rules; a
        // question whose language is not recognised is split under both.
        if (!isCompoundLanguage(lang) || (language && language !== lang)) continue;
        if (s.length < 7 || isKnownPart(s, lang)) continue;
        const split = splitCompound(s, lang);
        if (!split) continue;
        compoundPairs.push(pairTerm(lang, split.modifier, split.head));
        for (const part of split.parts) {
          const entry = compoundParts.get(part) ?? { stems: [], concepts: [] };
          entry.stems.push(stemTerm(lang, part));
          entry.concepts.push(...conceptsOfStem(part, lang));
          compoundParts.set(part, entry);
        }
      }
      collectConcepts(stream, lang, concepts);
    }
    add({
      exact: terms.slice(0, 1),
      parts: unique(terms.slice(1)),
      stems: unique(stems),
      concepts: unique(concepts).map(conceptTerm),
      code: hasDigit(raw),
    });
    for (const entry of compoundParts.values()) {
      add({
        exact: [],
        parts: [],
        stems: unique(entry.stems),
        concepts: unique(entry.concepts).map(conceptTerm),
        code: false,
      });
    }
    if (compoundPairs.length > 0) wordPairs.push(unique(compoundPairs));
  }
  // Glossary phrases of several words ("heat exchanger", "pression d'eau") are words of their own.
  const single = new Set(words.flatMap((w) => w.concepts));
  const phrases: string[] = [];
  const streams = LANGUAGES.map((lang) => {
    const stream = stemStream(parts, lang, isStopWordAnywhere);
    collectConcepts(stream, lang, phrases);
    return stream;
  });
  const pairs: string[][] = [...wordPairs];
  // The parts of one code ("KX-010TB1") are no pair of neighbouring words: the code is matched whole,
  // and a pair of its parts would count it a second time.
  const codeOf = codeOfPart(parts);
  for (let i = 0; i + 1 < (streams[0]?.length ?? 0); i++) {
    if (codeOf[i] !== undefined && codeOf[i] === codeOf[i + 1]) continue;
    pairs.push(unique(LANGUAGES.map((lang, l) => pairTerm(lang, streams[l]![i]!, streams[l]![i + 1]!))));
  }
  for (const id of unique(phrases)) {
    const term = conceptTerm(id);
    if (!single.has(term)) add({ exact: [], parts: [], stems: [], concepts: [term], code: false });
  }
  const exact = unique(words.flatMap((w) => [...w.exact, ...w.parts]));
  return {
    words,
    exact,
    codes: exact.filter(hasDigit),
    stems: unique(words.flatMap((w) => w.stems)),
    concepts: unique(words.flatMap((w) => w.concepts)),
    pairs,
    language,
  };
}

/**
 * For each part that the stem streams keep (stemStream drops the same unbound function words in every
 * language), the index of its word when that word is a code written in several parts, else undefined.
 */
function codeOfPart(parts: readonly WordPart[]): (number | undefined)[] {
  const codes = new Set<number>();
  for (const p of parts) if (p.bound && hasDigit(p.text)) codes.add(p.word);
  return parts
    .filter((p) => p.bound || !isStopWordAnywhere(p.text))
    .map((p) => (codes.has(p.word) ? p.word : undefined));
}

/** Letter prefixes and numbers of a question written with a capital ("Er 07", "E 12"), folded. */
function capitalCodePrefixes(q: string): Set<string> {
  const out = new Set<string>();
  for (const m of q.matchAll(/(?<![\p{L}\p{N}])(\p{Lu}\p{L}{0,3})\s(\d{1,4})(?![\p{L}\p{N}])/gu)) {
    out.add(`${fold(m[1]!)} ${m[2]}`);
  }
  return out;
}

function isSingleSpace(text: string, a: RegExpMatchArray, b: RegExpMatchArray): boolean {
  const end = (a.index ?? 0) + a[0].length;
  return /^\s$/.test(text.slice(end, b.index ?? end));
}

function unique(terms: readonly string[]): string[] {
  return [...new Set(terms)];
}
