import { fold } from '../../src/text/normalise.js';

/** Frequent short words per language: enough to tell the languages of our corpus apart on a few pages. */
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'with', 'for', 'check', 'when', 'unit'],
  fr: ['le', 'la', 'les', 'des', 'et', 'est', 'du', 'pour', 'avec', 'une'],
  de: ['der', 'die', 'das', 'und', 'ist', 'mit', 'nicht', 'fur', 'den', 'ein'],
  es: ['el', 'los', 'las', 'del', 'y', 'es', 'para', 'con', 'una', 'por'],
  nl: ['de', 'het', 'een', 'van', 'en', 'niet', 'voor', 'met', 'is', 'bij'],
  it: ['il', 'della', 'di', 'che', 'e', 'per', 'con', 'una', 'non', 'sono'],
  // Single letters (w, z, i) left out: a unit such as W would count.
  pl: ['nie', 'sie', 'jest', 'oraz', 'lub', 'przez', 'dla', 'jesli', 'przed', 'jak'],
};

/** The ISO 639-1 code of the language most of the text is in, or "mul" when no language stands out. */
export function detectLanguage(text: string): string {
  // Words only: the letters of a code or a unit beside digits (E1, 5W) are not words of a language.
  const words = fold(text).match(/(?<![\p{L}\p{N}])\p{L}+(?![\p{L}\p{N}])/gu) ?? [];
  const counts = new Map<string, number>();
  const sets = Object.entries(STOPWORDS).map(([lang, list]) => [lang, new Set(list)] as const);
  for (const w of words)
    for (const [lang, set] of sets) if (set.has(w)) counts.set(lang, (counts.get(lang) ?? 0) + 1);
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
