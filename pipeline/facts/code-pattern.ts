/**
 * What an error code looks like when printed in a manual's code column. Families:
 * - `alnum`: a letter prefix and digits ("E9", "A01", "P 12", "Er 07", "HP3", "PP1", "E 128"), with an
 *   optional sub-code ("A5-00", "E-101");
 * - `letters`: two or three capitals without digits ("UA", "HP"), read with alnum codes where those lead
 *   a column (hexadecimal-style displays), else like words;
 * - `number`: a plain number ("9001", "112"), accepted only where a header says the column holds codes;
 * - `word`: a display text in capitals ("HD/ND-FEHLER", "ERR ND-DRUCK"), accepted only under a code header;
 * - `display`: two letters as a seven-segment display shows them, capitals and small letters mixed
 *   ("dF", "Lo", "oP"), accepted, like words, only under a code header.
 */
export type CodeFamily = 'alnum' | 'letters' | 'number' | 'word' | 'display';

const ALNUM = /^[A-Z](?:[A-Z]{0,2}|[a-z])(?:[ .-]?)\d{1,4}(?:-\d{1,3})?[A-Z]?$/;
const LETTERS = /^[A-Z]{2,3}$/;
const NUMBER = /^\d{1,5}$/;
const DISPLAY = /^(?=.*\p{Lu})(?=.*\p{Ll})[A-Za-z]{2}$/u;
const WORD = /^[A-ZÄÖÜÉÈÀ][A-ZÄÖÜÉÈÀ0-9ß]*(?:[ /+.-]{1,2}[A-ZÄÖÜÉÈÀ0-9ß]+){0,3}$/;

/**
 * Tokens shaped like codes that name something else: refrigerants (R32, R410A), protection ratings
 * (IP44), pipe sizes (DN25), sensor elements (PT1000), and sizes or standards with long numbers.
 */
const NOT_A_CODE =
  /^(?:R\d{2,3}[A-Z]?|IP\s?\d{2}|DN\s?\d{2,3}|PT\s?\d{3,4}|NTC\s?\d*|EN\s?\d+|DIN\s?\d*|ISO\s?\d*)$/;
/** Short words in capitals that flowcharts and tables print as words, never as codes. */
const COMMON_WORD =
  /^(?:NO|ON|OFF|OK|YES|ALL|AND|THE|FOR|OR|NOT|SET|END|MAX|MIN|TOP|NEW|ONE|TWO|OUT|IN|AT|TO|OF|BY|IF|IS|IT|AN|AS|BE|DO|GO|UP|JA|NEIN|EIN|AUS|OUI|NON|SI|NEE)$/;

export function codeFamily(text: string): CodeFamily | undefined {
  const t = text.trim();
  if (t.length === 0 || t.length > 18) return undefined;
  if (NOT_A_CODE.test(t)) return undefined;
  if (t.length <= 9 && ALNUM.test(t)) return 'alnum';
  if (NUMBER.test(t)) return 'number';
  if (LETTERS.test(t)) return COMMON_WORD.test(t) ? undefined : 'letters';
  if (DISPLAY.test(t)) return COMMON_WORD.test(t.toUpperCase()) ? undefined : 'display';
  if (WORD.test(t) && (t.match(/\p{Lu}/gu)?.length ?? 0) >= 3) return 'word';
  return undefined;
}

/**
 * Cells that say "nothing here" in a code column ("—", "-", "/", "n/a"). Written in one case: "nA" mixes
 * cases the way a display code does.
 */
export function isEmptyMark(text: string): boolean {
  const t = text.trim();
  return (
    /^(?:[-–—/]+|n\/?a|none)$/.test(t.toLowerCase()) &&
    (t === t.toLowerCase() || t === t.toUpperCase() || /^None$/.test(t))
  );
}

/**
 * A code at the start of a text that goes on with its description: "E01: Sensor fault", "P 12 – Low
 * pressure". Returns the code as printed and the rest, or undefined.
 */
export function splitLeadingCode(
  text: string,
): { code: string; rest: string; separator: string } | undefined {
  const m =
    /^([A-Z](?:[A-Z]{0,2}|[a-z])[ .-]?\d{1,4}(?:-\d{1,3})?)(\s*[:=–—]\s*|\s+[-–—]\s+|\s{1,3})(\S.*)$/u.exec(
      text.trim(),
    );
  if (!m) {
    // Two letters and a colon ("LA: PWM fault", "Lb: MCE fault"): a display's letter codes in a list of
    // letter-and-digit ones; splitListLines keeps them only beside those.
    const short = /^([A-Z][A-Za-z])\s*:\s*(\p{L}.*)$/u.exec(text.trim());
    const family = short ? codeFamily(short[1]!) : undefined;
    if (!short || (family !== 'letters' && family !== 'display')) return undefined;
    return { code: short[1]!, rest: short[2]!, separator: ':' };
  }
  const [, code, separator, rest] = m;
  if (codeFamily(code!) !== 'alnum' || !/^\p{L}/u.test(rest!)) return undefined;
  return { code: code!, rest: rest!, separator: separator!.trim() };
}
