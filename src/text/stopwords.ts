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

const perLanguage = z.strictObject(
  Object.fromEntries(LANGUAGES.map((l) => [l, wordList])) as Record<Language, typeof wordList>,
);

const StopWordsFile = z
  .strictObject({
    about: z.array(z.string()).optional(),
    words: perLanguage,
    articles: perLanguage,
    negations: perLanguage,
    sides: perLanguage,
    qualifiers: perLanguage,
  })
  .superRefine((file, ctx) => {
    // An article is a function word of its language: one missing from `words` is a slip in the file.
    for (const lang of LANGUAGES) {
      const words = new Set(file.words[lang]);
      file.articles[lang].forEach((w, i) => {
        if (!words.has(w))
          ctx.addIssue({
            code: 'custom',
            path: ['articles', lang, i],
            message: `"${w}" is not in words.${lang}`,
          });
      });
    }
  });

interface Loaded {
  words: Record<Language, ReadonlySet<string>>;
  articles: ReadonlySet<string>;
  negations: ReadonlySet<string>;
  sides: ReadonlySet<string>;
  qualifiers: ReadonlySet<string>;
}

let loaded: Loaded | undefined;

/** The file, read and checked on first use: a broken file names itself and the field at fault. */
function load(): Loaded {
  if (loaded) return loaded;
  const file = checkJsonSource(readStopWordsSource(), StopWordsFile);
  const { en, fr, de, es, nl } = file.words;
  loaded = {
    words: { en: new Set(en), fr: new Set(fr), de: new Set(de), es: new Set(es), nl: new Set(nl) },
    articles: new Set(LANGUAGES.flatMap((l) => file.articles[l])),
    negations: new Set(LANGUAGES.flatMap((l) => file.negations[l])),
    sides: new Set(LANGUAGES.flatMap((l) => file.sides[l])),
    qualifiers: new Set(LANGUAGES.flatMap((l) => file.qualifiers[l])),
  };
  return loaded;
}

function stopWords(): Record<Language, ReadonlySet<string>> {
  return load().words;
}

/**
 * Articles and the genitive "of" of every language at once ("de", "l", "der", "the", "het"): a phrase
 * keeps its sense with or without them, so phrase matching passes over them.
 */
export function articlesAnywhere(): ReadonlySet<string> {
  return load().articles;
}

/** Negations of every language at once ("pas", "not", "kein"): a phrase match never skips over one. */
export function negationsAnywhere(): ReadonlySet<string> {
  return load().negations;
}

/**
 * Words naming a side of the machine other than its water circuit, a refrigerant pressure's HP and BP,
 * in every language at once: a phrase match never skips over one ("pression HP chute" is not "pression
 * chute").
 */
export function sidesAnywhere(): ReadonlySet<string> {
  return load().sides;
}

/**
 * Words that, right before a pressure's name, make it the refrigerant's ("haute pression", "low
 * pressure side"), in every language at once.
 */
export function refrigerantQualifiersAnywhere(): ReadonlySet<string> {
  return load().qualifiers;
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
