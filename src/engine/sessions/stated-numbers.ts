import { negationsAnywhere, refrigerantQualifiersAnywhere, sidesAnywhere } from '../../text/stopwords.js';
import type { Statement } from './knowledge-schema.js';
import { allPhrases, normaliseText, phraseSpans } from './text-match.js';

/** A number with its unit, stated next to what it measures ("pression à 0,6 bar", "ΔT 2 K"). */
export interface StatedNumber {
  quantity: string;
  /** The number and its unit as written, for the step's unit conversion ("0.6 bar"). */
  reading: string;
  /** The words it was read from: the name as normalised, then the number as written ("pression d eau 0,6 bar"). */
  phrase: string;
}

/*
 * Written by hand because it is ours: a technician's description is a sentence or two, and a reading in
 * it is a number, a unit and, a few words before, the name of what was measured. The clause breaks of
 * statements.ts cut "0,6" and "1.5" in two, so a number is found in the raw text and its clause is
 * bounded by punctuation followed by a space, or by a bracket, a semicolon or a line break.
 */
const NUMBER_WITH_UNIT = /([-+]?\d+(?:[.,]\d+)?)\s*([^\s\d.,;:!?()[\]][^\s.,;:!?()[\]]{0,5})/gu;
const CLAUSE_START = /(?:[.,:!?](?:\s|$)|[;()[\]\n]|\s[-–—]+\s)/gu;

/** The text from the last clause break before `end` up to `end`. */
function clauseBefore(text: string, end: number): string {
  let start = 0;
  for (const m of text.slice(0, end).matchAll(CLAUSE_START)) start = m.index + m[0].length;
  return text.slice(start, end);
}

/**
 * The numbers a description states for the quantities of `statements` (each at most once; a quantity
 * given two different numbers is left out): a number with a unit, whose clause names the quantity at
 * most `window` words before it, with no negation, side of the machine ("HP") or refrigerant qualifier
 * in between or just before the name. Whether the unit fits the quantity is the caller's to check.
 */
export function readStatedNumbers(statements: Statement[], text: string, window: number): StatedNumber[] {
  const found = new Map<string, StatedNumber | null>();
  const negations = negationsAnywhere();
  const sides = sidesAnywhere();
  // "haute pression 28 bar": the refrigerant's (data/text/stop-words.json, `qualifiers`).
  const qualifiers = refrigerantQualifiersAnywhere();
  for (const m of text.matchAll(NUMBER_WITH_UNIT)) {
    const reading = `${m[1]!.replace(',', '.')} ${m[2]!}`;
    const before = normaliseText(clauseBefore(text, m.index)).split(' ').filter(Boolean);
    for (const statement of statements) {
      const spans = phraseSpans(allPhrases(statement.subject), before);
      // The closest name before the number, within the window.
      const span = spans
        .filter((s) => before.length - s.end <= window)
        .sort((a, b) => b.end - a.end || b.length - a.length)[0];
      if (!span) continue;
      const between = before.slice(span.end);
      const previous = before[span.start - 1];
      if (between.some((w) => negations.has(w) || sides.has(w))) continue;
      if (previous !== undefined && (sides.has(previous) || qualifiers.has(previous))) continue;
      // The number as written ("0,6 bar"), after the name's words.
      const phrase = [...before.slice(span.start), m[0].trim()].join(' ');
      const known = found.get(statement.quantity);
      if (known === undefined)
        found.set(statement.quantity, { quantity: statement.quantity, reading, phrase });
      else if (known !== null && known.reading !== reading) found.set(statement.quantity, null);
    }
  }
  return [...found.values()].filter((r): r is StatedNumber => r !== null);
}
