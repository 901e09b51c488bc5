import { z } from 'zod';
import { checkJsonSource } from '../json-check.js';
import { fold } from './normalise.js';
import { readStopWordsSource } from './stop-words-source.js';

/**
 * Function words per language (data/text/stop-words.json). They carry no meaning for retrieval and, left
 * in, they let long passages outscore short precise ones. Data, not code: a maintainer adds a word without
 * touching search.
 */
export type Language = 'en' | 'fr' | 'de' | 'es' | 'nl';

export const LANGUAGES: readonly Language[] = ['en', 'fr', 'de', 'es', 'nl'];

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}

// Words are compared with folded tokens, so a word written with an accent, a capital or a space would
// never match: the file is refused rather than silently losing the word.
const wordList = z
  .array(
    z
      .string()
      .min(1)
      .refine((w) => !/\s/.test(w) && fold(w) === w, 'a stop word is one accent-folded lower-case word'),
  )
  .min(1)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((w, i) => {
      if (seen.has(w)) ctx.addIssue({ code: 'custom', path: [i], message: `"${w}" is listed twice` });
      seen.add(w);
    });
  });

const StopWordsFile = z.strictObject({
  about: z.array(z.string()).optional(),
  words: z.strictObject(
    Object.fromEntries(LANGUAGES.map((l) => [l, wordList])) as Record<Language, typeof wordList>,
  ),
});

let loaded: Record<Language, ReadonlySet<string>> | undefined;

/** The file, read and checked on first use: a broken file names itself and the field at fault. */
function stopWords(): Record<Language, ReadonlySet<string>> {
  if (loaded) return loaded;
  const { en, fr, de, es, nl } = checkJsonSource(readStopWordsSource(), StopWordsFile).words;
  loaded = { en: new Set(en), fr: new Set(fr), de: new Set(de), es: new Set(es), nl: new Set(nl) };
  return loaded;
}

/**
 * Each language's set, by language. The sets are read when first asked for, not when this module is
 * imported, so that importing `Language` or `isLanguage` reads no file.
 */
export const STOP_WORDS: Readonly<Record<Language, ReadonlySet<string>>> = Object.defineProperties(
  {} as Record<Language, ReadonlySet<string>>,
  Object.fromEntries(LANGUAGES.map((l) => [l, { get: () => stopWords()[l], enumerable: true }])),
);

/** A word that is a function word in any supported language: how a query of unknown language is cleaned. */
export function isStopWordAnywhere(word: string): boolean {
  for (const lang of LANGUAGES) if (STOP_WORDS[lang].has(word)) return true;
  return false;
}
