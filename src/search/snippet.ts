import { type AnalyzedQuery, lineTerms } from './analyzer.js';
import { WORD } from './tokens.js';

export const SNIPPET_MAX = 300;

/**
 * How much a query term found on a line counts towards choosing the snippet, in tenths: whole numbers,
 * so that a window's score does not depend on the order its terms are added in and equal scores tie.
 */
function termWeights(query: AnalyzedQuery, corrected: readonly string[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const t of corrected) weights.set(t, 10);
  for (const t of query.concepts) weights.set(t, 4);
  for (const t of query.stems) weights.set(t, 7);
  for (const t of query.exact) weights.set(t, /^\d+$/.test(t) ? 5 : 10);
  for (const t of query.codes) if (/\p{L}/u.test(t)) weights.set(t, 20);
  return weights;
}

interface Line {
  start: number;
  end: number;
  /** The query terms the line holds (each once): all the window search needs of its analysis. */
  matched: string[];
}

/**
 * The best-matching line(s) of a chunk for a question, verbatim: the window of one to three consecutive
 * lines holding the most query terms (a code counts double, a stem or glossary equivalent less than the
 * word as written; a longer window must add a term to win), cut to SNIPPET_MAX characters at word
 * boundaries around the first match when longer. `corrected` are the index terms a mistyped word was
 * matched to.
 */
export function bestSnippet(
  text: string,
  language: string,
  query: AnalyzedQuery,
  corrected: readonly string[] = [],
): string {
  const weights = termWeights(query, corrected);
  const lines: Line[] = [];
  let start = 0;
  for (const raw of text.split('\n')) {
    const end = start + raw.length;
    if (/[\p{L}\p{N}]/u.test(raw)) {
      const matched: string[] = [];
      for (const t of lineTerms(raw, language)) if (weights.has(t)) matched.push(t);
      lines.push({ start, end, matched });
    }
    start = end + 1;
  }
  if (lines.length === 0) return cut(text.trim(), 0);

  // Best score first; at equal score the window of fewer lines, then the earlier one.
  let best = { from: 0, to: 0, score: -1 };
  for (let i = 0; i < lines.length; i++) {
    const matched = new Set<string>();
    for (let j = i; j < Math.min(lines.length, i + 3); j++) {
      if (j > i && lines[j]!.end - lines[i]!.start > SNIPPET_MAX) break;
      for (const t of lines[j]!.matched) matched.add(t);
      let score = 0;
      for (const t of matched) score += weights.get(t)!;
      if (score > best.score || (score === best.score && j - i < best.to - best.from))
        best = { from: i, to: j, score };
    }
  }
  const window = text.slice(lines[best.from]!.start, lines[best.to]!.end).trim();
  return cut(window, window.length > SNIPPET_MAX ? firstMatch(window, weights, language) : 0);
}

/** Offset of the first word of a long line that holds a query term, so the cut keeps it. */
function firstMatch(window: string, weights: Map<string, number>, language: string): number {
  for (const w of window.matchAll(WORD)) {
    for (const t of lineTerms(w[0], language)) if (weights.has(t)) return w.index ?? 0;
  }
  return 0;
}

/** At most SNIPPET_MAX characters of the text from a little before `focus`, cut at spaces, verbatim. */
function cut(text: string, focus: number): string {
  if (text.length <= SNIPPET_MAX) return text;
  let start = Math.max(0, focus - 60);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    if (space >= 0 && space < focus) start = space + 1;
  }
  let end = Math.min(text.length, start + SNIPPET_MAX);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + SNIPPET_MAX / 2) end = space;
  }
  return text.slice(start, end).trim();
}
