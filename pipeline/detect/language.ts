import { z } from 'zod';
import { checkJsonSource } from '../../src/json-check.js';
import { readJsonSource } from '../../src/json-source.js';
import { projectPath } from '../../src/project-path.js';
import { fold } from '../../src/text/normalise.js';

const WordsFile = z.strictObject({
  about: z.array(z.string()).optional(),
  // Keyed by ISO 639-1 code, the code a page is labelled with; words compared with folded page text.
  words: z.record(
    z.string().regex(/^[a-z]{2}$/, 'an ISO 639-1 language code'),
    z.array(z.string().refine((w) => /^\p{L}+$/u.test(w) && fold(w) === w, 'one accent-folded word')).min(1),
  ),
});

let languageWords: (readonly [string, ReadonlySet<string>])[] | undefined;

/**
 * Frequent short words per language (data/detect/language-words.json), read and checked on first use: a
 * broken file names itself and the field at fault. Kept in the file's order, which breaks ties.
 */
function wordsByLanguage(): (readonly [string, ReadonlySet<string>])[] {
  if (languageWords) return languageWords;
  const file = projectPath('data', 'detect', 'language-words.json');
  const { words } = checkJsonSource(readJsonSource(file), WordsFile);
  languageWords = Object.entries(words).map(([lang, list]) => [lang, new Set(list)] as const);
  return languageWords;
}

/** The ISO 639-1 code of the language most of the text is in, or "mul" when no language stands out. */
export function detectLanguage(text: string): string {
  // Words only: the letters of a code or a unit beside digits (E1, 5W) are not words of a language.
  const words = fold(text).match(/(?<![\p{L}\p{N}])\p{L}+(?![\p{L}\p{N}])/gu) ?? [];
  const counts = new Map<string, number>();
  const sets = wordsByLanguage();
  for (const w of words) {
    // A word frequent in several languages ("de", "la", "en") is shared evidence: each of them gets its
    // share, so that a page of one is not told from its most frequent word as another.
    const of = sets.filter(([, set]) => set.has(w));
    for (const [lang] of of) counts.set(lang, (counts.get(lang) ?? 0) + 1 / of.length);
  }
  const ranked = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < 5) return 'mul';
  if (second && second[1] > first[1] * 0.6) return 'mul';
  return first[0];
}

/**
 * The language of each page of a manual (one printed in several languages, one after the other, has
 * pages of each). A page with too few words to tell (a code table) takes the language of the page with
 * its neighbours, which a manual in several languages prints in the same language.
 */
export function pageLanguages(texts: string[]): string[] {
  return texts.map((text, i) => {
    const own = detectLanguage(text);
    if (own !== 'mul') return own;
    return detectLanguage([texts[i - 1] ?? '', text, texts[i + 1] ?? ''].join('\n'));
  });
}
