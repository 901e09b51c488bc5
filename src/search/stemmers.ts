import type { Language } from '../text/stopwords.js';

/**
 * Light stemmers: they strip inflection (plural, gender, the commonest verb endings) and a few frequent
 * derivational suffixes, and leave the rest alone. Over-stemming costs more than it gains in a corpus of
 * technical manuals, where precise terms matter. Input is an accent-folded, lower-case word; words with
 * digits are codes and are never stemmed.
 */
export function stem(word: string, lang: Language): string {
  if (word.length < 4 || /\d/.test(word)) return word;
  switch (lang) {
    case 'en':
      return stemEn(word);
    case 'fr':
      return stemFr(word);
    case 'de':
      return stemDe(word);
    case 'es':
      return stemEs(word);
    case 'nl':
      return stemNl(word);
  }
}

const VOWEL = /[aeiouy]/;

function isConsonant(ch: string | undefined): boolean {
  return ch !== undefined && /[a-z]/.test(ch) && !VOWEL.test(ch);
}

function endsWithDoubleConsonant(w: string): boolean {
  const a = w[w.length - 1];
  return w.length > 2 && a === w[w.length - 2] && isConsonant(a);
}

/**
 * English: plural, -ed, -ing (Porter's step 1, simplified: a doubled final consonant is undoubled), a
 * final e (so "wire" and "wiring", "operate" and "operating" meet), and -ly.
 */
export function stemEn(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:[sxz]|ch|sh)es$/.test(w) && w.length > 4 && !/[^s]ses$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is|ys)$/.test(w) && w.length > 3) w = w.slice(0, -1);

  let base: string | undefined;
  if (w.endsWith('ing') && w.length > 5) base = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4 && !w.endsWith('eed')) base = w.slice(0, -2);
  if (base !== undefined && VOWEL.test(base)) {
    w = endsWithDoubleConsonant(base) && !/[lsz]$/.test(base) ? base.slice(0, -1) : base;
  }
  if (w.endsWith('ly') && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith('e') && !w.endsWith('ee') && w.length > 3) w = w.slice(0, -1);
  return w;
}

/** French: plural (-s, -x, -aux), feminine -e, verb endings -er/-ez/-ee, and -ement, -ation, -ateur. */
export function stemFr(word: string): string {
  let w = word;
  if (w.endsWith('eaux')) w = w.slice(0, -1);
  else if (w.endsWith('aux') && w.length > 5) w = `${w.slice(0, -3)}al`;
  else if (w.endsWith('x') && w.length > 4) w = w.slice(0, -1);
  else if (w.endsWith('s') && w.length > 4 && !w.endsWith('ss')) w = w.slice(0, -1);

  const suffixes: [string, string, number][] = [
    // [suffix, replacement, minimum stem length left]
    ['issement', '', 4],
    ['ements', '', 4],
    ['ement', '', 4],
    ['atrice', '', 4],
    ['ateur', '', 4],
    ['ation', '', 4],
    ['ition', 'i', 4],
    ['euse', 'eur', 3],
    ['ite', '', 4],
    ['ees', '', 3],
    ['ee', '', 3],
    ['er', '', 4],
    ['ez', '', 4],
    ['ir', '', 4],
    ['ie', 'i', 3],
    ['e', '', 3],
  ];
  for (const [suffix, replacement, min] of suffixes) {
    if (w.endsWith(suffix) && w.length - suffix.length >= min) {
      w = w.slice(0, -suffix.length) + replacement;
      break;
    }
  }
  if (w.endsWith('i') && w.length > 5) w = w.slice(0, -1);
  if (endsWithDoubleConsonant(w) && w.length > 4) w = w.slice(0, -1);
  return w;
}

const DE_S_ENDING = /[bdfghklmnrt]$/;

/** German: the two-step inflection stripping of the classic light stemmer (-e, -en, -er, -ern, -es, -s, -st). */
export function stemDe(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith('ern')) w = w.slice(0, -3);
  else if (w.length > 4 && /e[mnrs]$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  else if (w.length > 3 && w.endsWith('s') && DE_S_ENDING.test(w.slice(0, -1))) w = w.slice(0, -1);

  if (w.length > 5 && w.endsWith('est')) w = w.slice(0, -3);
  else if (w.length > 4 && /e[rn]$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith('st') && DE_S_ENDING.test(w.slice(0, -2))) w = w.slice(0, -2);
  return w;
}

/**
 * Spanish: plural and gender (-s, -es, -ces, -o, -a, -e), -amiento/-imiento, -mente, the infinitive and
 * the gerund ("recargar", "recarga" and "recargando" meet).
 */
export function stemEs(word: string): string {
  let w = word;
  if (w.length < 5) return w;
  for (const suffix of [
    'amientos',
    'imientos',
    'amiento',
    'imiento',
    'mente',
    'ando',
    'iendo',
    'ar',
    'er',
    'ir',
  ]) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) return w.slice(0, -suffix.length);
  }
  if (w.endsWith('eses')) return w.slice(0, -2);
  if (w.endsWith('ces')) return `${w.slice(0, -3)}z`;
  if (/[aoe]s$/.test(w)) w = w.slice(0, -2);
  else if (/[aoe]$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * Dutch: plural (-en, -s, -heden), adjective -e, with the spelling rules that follow: a doubled consonant
 * is undoubled ("drukken" -> "druk"), an open long vowel is written double again ("temperaturen" ->
 * "temperatuur"), and a final z or v goes back to s or f ("buizen" -> "buis").
 */
export function stemNl(word: string): string {
  let w = word;
  if (w.endsWith('heden') && w.length > 7) return `${w.slice(0, -5)}heid`;
  let stripped = false;
  if (w.endsWith('en') && w.length > 5) {
    w = w.slice(0, -2);
    stripped = true;
  } else {
    if (w.endsWith('s') && w.length > 4 && !/[sij]s$/.test(w) && !/[aou]s$/.test(w)) w = w.slice(0, -1);
    if (w.endsWith('e') && w.length > 4 && !w.endsWith('ie') && !w.endsWith('ee')) {
      w = w.slice(0, -1);
      stripped = true;
    }
  }
  if (!stripped) return w;
  if (endsWithDoubleConsonant(w)) return w.slice(0, -1);
  const m = /([^aeiou])([aou])([^aeiouyjw])$/.exec(w);
  if (m && w.length > 3) w = `${w.slice(0, -2)}${m[2]}${m[2]}${m[3]}`;
  if (w.endsWith('z')) w = `${w.slice(0, -1)}s`;
  else if (w.endsWith('v')) w = `${w.slice(0, -1)}f`;
  return w;
}
