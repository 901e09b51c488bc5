import { LANGUAGES, type Language, STOP_WORDS } from '../text/stopwords.js';

/** Letters that, in these five languages, only one of them writes (before accent folding). */
const MARKERS: [RegExp, Language][] = [
  [/[ñ¿¡]/, 'es'],
  [/[äöß]/, 'de'],
  [/[çèêàùœâîûë]/, 'fr'],
  [/ij/, 'nl'],
];

/**
 * The language a short question is most likely written in, from its function words and letters; null
 * when no language stands out (a bare code or model name is language-neutral).
 */
export function detectQueryLanguage(raw: string, foldedWords: readonly string[]): Language | null {
  const score = new Map<Language, number>(LANGUAGES.map((l) => [l, 0]));
  for (const word of foldedWords) {
    for (const lang of LANGUAGES) if (STOP_WORDS[lang].has(word)) score.set(lang, score.get(lang)! + 1);
  }
  const lower = raw.toLowerCase();
  for (const [re, lang] of MARKERS) if (re.test(lower)) score.set(lang, score.get(lang)! + 1.5);
  const ranked = [...score].sort((a, b) => b[1] - a[1]);
  const [first, second] = ranked;
  if (!first || first[1] < 1) return null;
  if (second && first[1] - second[1] < 1) return null;
  return first[0];
}
