import { type AnalyzedQuery, lineTerms } from './analyzer.js';

/**
 * Answer type, for a question that asks for a quantity (question-types.ts): the line that answers it
 * holds a number ("Insgesamt können 20 Fehler angezeigt werden" for "Wie viele Fehler …?"), while the
 * pages that only name the same things do not there. The index scores words, not what kind of answer a
 * line gives, so among the first results a page whose best-matching lines hold a number is preferred.
 */

/** Lines read together as the place where a question's words stand (a label and its value wrap). */
const WINDOW = 2;

/** A number standing alone, not a part of a code or model name ("20", "1,5"; not "E01", "R-32"). */
const NUMBER = /(?<![\p{L}\p{N}\-/])\d+(?:[.,]\d+)?(?![\p{L}\p{N}\-/])/u;

/**
 * Whether the lines of a chunk where most words of the question stand (a window of WINDOW lines; of
 * equal windows, one holding a number) hold a number.
 */
export function bestLinesHoldNumber(text: string, language: string, query: AnalyzedQuery): boolean {
  const words = query.words.map((w) => [...w.exact, ...w.parts, ...w.stems, ...w.concepts]);
  const lines: { words: Set<number>; number: boolean }[] = [];
  for (const line of text.split('\n')) {
    if (!/[\p{L}\p{N}]/u.test(line)) continue;
    const terms = lineTerms(line, language);
    const found = new Set<number>();
    words.forEach((alternatives, i) => {
      if (alternatives.some((t) => terms.has(t))) found.add(i);
    });
    lines.push({ words: found, number: NUMBER.test(line) });
  }
  let best = 0;
  let number = false;
  for (let i = 0; i < lines.length; i++) {
    const found = new Set<number>();
    let holds = false;
    for (let j = i; j < Math.min(lines.length, i + WINDOW); j++) {
      for (const w of lines[j]!.words) found.add(w);
      holds ||= lines[j]!.number;
    }
    if (found.size > best || (found.size === best && holds && !number)) {
      best = found.size;
      number = holds;
    }
  }
  return best > 0 && number;
}
