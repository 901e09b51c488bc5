import { fold } from '../text/normalise.js';
import { type Language, STOP_WORDS } from '../text/stopwords.js';
import { concepts } from './glossary-terms.js';
import { stem } from './stemmers.js';
import { hasDigit, type WordPart, wordParts } from './tokens.js';

/**
 * Stems of the words of a text, function words dropped unless they are part of a hyphenated word
 * ("sous-refroidissement", "stand-by" keep their first part); numbers are kept as they are.
 */
export function stemStream(
  parts: readonly WordPart[],
  lang: Language,
  isStop: (w: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const { text, bound } of parts) {
    if (!bound && isStop(text)) continue;
    out.push(hasDigit(text) ? text : stem(text, lang));
  }
  return out;
}

interface PhraseTable {
  /** Space-joined stem sequence -> concept ids. */
  phrases: Map<string, string[]>;
  /** First stems of the phrases of several words: only there can a longer match start. */
  starts: Set<string>;
  maxWords: number;
}

function buildTable(lang: Language): PhraseTable {
  const phrases = new Map<string, string[]>();
  const starts = new Set<string>();
  let maxWords = 1;
  const stop = STOP_WORDS[lang];
  for (const concept of concepts()) {
    for (const term of concept[lang]) {
      const parts = wordParts(fold(term));
      const stems = stemStream(parts, lang, (w) => stop.has(w));
      // "switch on", "water in": without its function word the phrase would mean something else.
      if (stems.length === 0 || (stems.length === 1 && parts.length > 1)) continue;
      const key = stems.join(' ');
      const ids = phrases.get(key) ?? [];
      if (!ids.includes(concept.id)) ids.push(concept.id);
      phrases.set(key, ids);
      maxWords = Math.max(maxWords, stems.length);
      if (stems.length > 1) starts.add(stems[0]!);
    }
  }
  return { phrases, starts, maxWords };
}

// Built per language on first use: a look-up that never analyses text (most terminal commands) should
// not pay for stemming the whole glossary at start-up.
const tables = new Map<Language, PhraseTable>();

function tableOf(lang: Language): PhraseTable {
  let table = tables.get(lang);
  if (!table) {
    table = buildTable(lang);
    tables.set(lang, table);
  }
  return table;
}

/**
 * Adds the concepts named in a stem sequence: every glossary phrase of the language found in it, of any
 * length, overlapping ones included ("water pressure" gives water-pressure, water and pressure).
 */
export function collectConcepts(stems: readonly string[], lang: Language, out: string[]): void {
  const { phrases, starts, maxWords } = tableOf(lang);
  for (let i = 0; i < stems.length; i++) {
    const single = phrases.get(stems[i]!);
    if (single) out.push(...single);
    if (!starts.has(stems[i]!)) continue;
    let key = stems[i]!;
    for (let n = 2; n <= maxWords && i + n <= stems.length; n++) {
      key = `${key} ${stems[i + n - 1]}`;
      const ids = phrases.get(key);
      if (ids) out.push(...ids);
    }
  }
}

/** The concepts of one stem (a word or a compound part). */
export function conceptsOfStem(stemmed: string, lang: Language): readonly string[] {
  return tableOf(lang).phrases.get(stemmed) ?? [];
}

/** Concepts named by a text in a language, for inspection and tests. */
export function conceptsOf(text: string, lang: Language): string[] {
  const out: string[] = [];
  const stop = STOP_WORDS[lang];
  collectConcepts(
    stemStream(wordParts(fold(text)), lang, (w) => stop.has(w)),
    lang,
    out,
  );
  return [...new Set(out)];
}
