import { negationsAnywhere } from '../../text/stopwords.js';
import type { Keywords, Statement } from './knowledge-schema.js';
import { allPhrases, normaliseText, phraseSpans } from './text-match.js';

/** A reading found in the technician's description. */
export interface StatedReading {
  quantity: string;
  outcome: string;
  /** The words of the description it was read from. */
  phrase: string;
}

interface Span {
  start: number;
  end: number;
  length: number;
}

/** Clause breaks: a statement never spans two of them ("flow normal, ΔT low" states two readings). */
const CLAUSE_BREAK = /[.;,:!?()[\]{}\n]+|\s[-–—]+\s|\b(?:but|mais|aber|pero|maar)\b/giu;

function gap(a: Span, b: Span): number {
  if (a.end <= b.start) return b.start - a.end;
  if (b.end <= a.start) return a.start - b.end;
  return -1; // overlapping spans: the outcome phrase is part of the subject, not a statement about it
}

interface Candidate {
  outcome: string;
  distance: number;
  length: number;
  phrase: string;
}

/**
 * Whether a negation stands between a subject and an outcome ("debit pas normal", "the flow is not
 * normal"): the clause then denies the outcome instead of stating it, and which band the reading is in
 * it does not say. A negation inside the outcome phrase itself ("pas d air") is part of the outcome.
 */
function negatedBetween(a: Span, b: Span, words: string[]): boolean {
  const [from, to] = a.end <= b.start ? [a.end, b.start] : [b.end, a.start];
  const negations = negationsAnywhere();
  for (let i = from; i < to; i++) if (negations.has(words[i]!)) return true;
  return false;
}

/** The closest outcome phrase to a subject in one clause; the longer phrase wins a tie ("no air" over "air"). */
function bestIn(statement: Statement, words: string[], window: number): Candidate | null | undefined {
  const subjects = phraseSpans(allPhrases(statement.subject), words);
  if (subjects.length === 0) return undefined;
  const candidates: Candidate[] = [];
  for (const [outcome, phrases] of Object.entries(statement.outcomes) as [string, Keywords][]) {
    for (const o of phraseSpans(allPhrases(phrases), words)) {
      for (const s of subjects) {
        const distance = gap(s, o);
        if (distance < 0 || distance > window || negatedBetween(s, o, words)) continue;
        const from = Math.min(s.start, o.start);
        const to = Math.max(s.end, o.end);
        candidates.push({ outcome, distance, length: o.length, phrase: words.slice(from, to).join(' ') });
      }
    }
  }
  if (candidates.length === 0) return undefined;
  candidates.sort((a, b) => a.distance - b.distance || b.length - a.length);
  const [first, second] = candidates;
  const tied = second && second.outcome !== first!.outcome && second.distance === first!.distance;
  // Two outcomes stated equally close: the description is ambiguous, so it states nothing.
  return tied && second.length === first!.length ? null : first!;
}

/**
 * Readings the description states outright, one per quantity. A quantity stated with two different
 * outcomes in different clauses is left out: the description contradicts itself.
 */
export function readStatements(
  statements: Statement[],
  text: string,
  window: number,
  quantities: Set<string>,
): StatedReading[] {
  const clauses = text
    .replace(/\u2206/g, 'Δ') // the increment sign technicians type for "delta"
    .split(CLAUSE_BREAK)
    .map((c) => normaliseText(c).split(' ').filter(Boolean))
    .filter((words) => words.length > 0);
  const found = new Map<string, StatedReading | null>();
  for (const statement of statements) {
    if (!quantities.has(statement.quantity) || found.get(statement.quantity) === null) continue;
    for (const words of clauses) {
      const best = bestIn(statement, words, window);
      if (best === undefined) continue;
      const previous = found.get(statement.quantity);
      if (best === null || (previous && previous.outcome !== best.outcome)) {
        found.set(statement.quantity, null);
        break;
      }
      if (!previous) {
        found.set(statement.quantity, {
          quantity: statement.quantity,
          outcome: best.outcome,
          phrase: best.phrase,
        });
      }
    }
  }
  return [...found.values()].filter((r): r is StatedReading => r !== null);
}
