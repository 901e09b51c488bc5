import { fold } from './normalise.js';
import { isLanguage, isStopWordAnywhere, STOP_WORDS } from './stopwords.js';

/**
 * The words of a reading that carry its meaning: case, accents, punctuation and the function words of
 * the manual's language (any supported language when it is not known) set aside.
 */
export function contentWords(text: string, language?: string | null): Set<string> {
  const stop = language && isLanguage(language) ? STOP_WORDS[language] : undefined;
  return new Set(
    fold(text.normalize('NFKC'))
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 0 && !(stop ? stop.has(w) : isStopWordAnywhere(w))),
  );
}

/**
 * Whether two readings of one code say the same thing: the same content words, or the words of one all
 * stand in the other ("Der Hochdruckwächter hat geschaltet" and the same sentence with its switching
 * point). Readings whose words differ ("exterior" against "agua", "2 bar" against "3 bar") really differ.
 */
export function sameReading(a: string, b: string, language?: string | null): boolean {
  const x = contentWords(a, language);
  const y = contentWords(b, language);
  if (x.size === 0 || y.size === 0) return fold(a).trim() === fold(b).trim();
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  for (const w of small) if (!large.has(w)) return false;
  return true;
}

/** The figures a reading states, in order: two readings with other figures never say the same thing. */
export function figures(text: string): string {
  return (text.match(/\d+(?:[.,]\d+)?/g) ?? []).join(' ');
}
