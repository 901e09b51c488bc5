import type { Line, Segment, TextRun } from './types.js';

/** A gap wider than this many font sizes separates cells or columns rather than words. */
const SEGMENT_GAP = 0.6;
/** A gap wider than this many font sizes is a word space even when the PDF drew no space glyph. */
const WORD_GAP = 0.15;
/**
 * A run repeating another's text closer than this many font sizes (across and down) is the same ink drawn
 * again: producers fake bold by drawing a string twice a fraction of a point apart. Narrower than any
 * glyph's advance, so a per-glyph producer's "ll" or "..." keeps every glyph.
 */
const OVERPRINT = 0.2;
/** Letter-spaced runs closer than this many font sizes are words of one text, not cells. */
const SPACED_WORD_GAP = 1.2;

/**
 * Rebuilds lines from text runs: runs whose baselines agree (within a fraction of the font size) form a
 * line; within a line, runs are ordered by x and joined, with a space where the gap says so, and split
 * into segments where the gap is wide enough to be a cell boundary or a column gutter.
 */
export function buildLines(runs: TextRun[]): Line[] {
  const visible = withoutOverprint(runs.filter((r) => r.str.length > 0 && r.size > 0));
  visible.sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: TextRun[][] = [];
  for (const run of visible) {
    const row = findRow(rows, run);
    if (row) row.push(run);
    else rows.push([run]);
  }
  const lines: Line[] = [];
  for (const row of rows) {
    const line = joinRow(row);
    if (line) lines.push(line);
  }
  lines.sort((a, b) => a.y - b.y || a.x0 - b.x0);
  return lines;
}

/** Drops runs that draw the text of an earlier run again at (nearly) its place: one reading per ink. */
function withoutOverprint(runs: TextRun[]): TextRun[] {
  const seen = new Map<string, TextRun[]>();
  const kept: TextRun[] = [];
  for (const run of runs) {
    const text = run.str.trim();
    if (text === '') {
      kept.push(run);
      continue;
    }
    const same = seen.get(text) ?? [];
    const near = OVERPRINT * run.size;
    const again = same.some(
      (r) =>
        Math.abs(r.x - run.x) < near &&
        Math.abs(r.y - run.y) < near &&
        Math.abs(r.size - run.size) < 0.1 * run.size,
    );
    if (again) continue;
    same.push(run);
    seen.set(text, same);
    kept.push(run);
  }
  return kept;
}

function findRow(rows: TextRun[][], run: TextRun): TextRun[] | undefined {
  // Rows are created in y order: only the most recent ones can still share this run's baseline.
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    const last = row[row.length - 1]!;
    if (run.y - last.y > Math.max(last.size, run.size) * 2) return undefined;
    if (sameBaseline(row, run)) return row;
  }
  return undefined;
}

function sameBaseline(row: TextRun[], run: TextRun): boolean {
  // Rows are built in y order, so only the most recent rows can match; checking the last run of a row
  // is enough because runs of one row are within the tolerance of each other.
  const last = row[row.length - 1]!;
  const tolerance = Math.max(1, Math.min(last.size, run.size) * 0.35);
  return Math.abs(last.y - run.y) <= tolerance;
}

function joinRow(row: TextRun[]): Line | undefined {
  row.sort((a, b) => a.x - b.x);
  const segments: Segment[] = [];
  let current: { parts: string[]; x0: number; x1: number } | undefined;
  let size = 0;
  for (const run of row) {
    size = Math.max(size, run.size);
    const isBlank = run.str.trim() === '';
    if (!current) {
      if (isBlank) continue;
      current = { parts: [run.str], x0: run.x, x1: run.x + run.width };
      continue;
    }
    const gap = run.x - current.x1;
    // Letter-spaced text widens its word spaces too: two letter-spaced runs a spaced word gap apart go on.
    const spacedOn =
      gap < SPACED_WORD_GAP * run.size && isLetterSpaced(current.parts.join('')) && isLetterSpaced(run.str);
    if (gap > SEGMENT_GAP * Math.max(run.size, 4) && !isBlank && !spacedOn) {
      segments.push(closeSegment(current));
      current = { parts: [run.str], x0: run.x, x1: run.x + run.width };
      continue;
    }
    const prev = current.parts[current.parts.length - 1] ?? '';
    const needsSpace = gap > WORD_GAP * run.size && !/\s$/.test(prev) && !/^\s/.test(run.str);
    if (needsSpace) current.parts.push(' ');
    current.parts.push(run.str);
    if (!isBlank) current.x1 = Math.max(current.x1, run.x + run.width);
  }
  if (current) segments.push(closeSegment(current));
  const nonEmpty = segments.filter((s) => s.text.length > 0);
  if (nonEmpty.length === 0) return undefined;
  const first = nonEmpty[0]!;
  const last = nonEmpty[nonEmpty.length - 1]!;
  const y = median(row.filter((r) => r.str.trim() !== '').map((r) => r.y));
  return {
    text: nonEmpty.map((s) => s.text).join(' '),
    x0: first.x0,
    x1: last.x1,
    y,
    size: round(size),
    segments: nonEmpty,
  };
}

/** Single characters one space apart, as an extractor writes letter-spaced text. */
function isLetterSpaced(text: string): boolean {
  return /^\S(?: \S)+$/.test(text.trim());
}

function closeSegment(s: { parts: string[]; x0: number; x1: number }): Segment {
  return {
    text: readTextLayer(s.parts.join('').replace(/\s+/g, ' ').trim()),
    x0: round(s.x0),
    x1: round(s.x1),
  };
}

/** A dash of any width (hyphen, non-breaking hyphen, figure dash, en and em dash, minus) between a letter or digit and a digit. */
const DASH_BEFORE_DIGIT = /(?<=[\p{L}\d])[\u2010-\u2015\u2212](?=\d)/gu;
/** A word holding such a dash: only a word that reads as a code with a hyphen is rewritten ("10–12 bar" stays). */
const DASHED_WORD = /[^\s]*[\u2010-\u2015\u2212][^\s]*/gu;
/**
 * A code shown letter-spaced: single characters one space apart ("E 0 2", "A 5 - 0 0"), a letter first and
 * a digit in it, standing alone between spaces or punctuation.
 */
const SPACED_CODE = /(?<=^|[\s:([])([A-Z](?: [A-Za-z0-9.-]){2,})(?=$|[\s:;,)\]])/g;
/** A cell that is nothing but single characters one space apart, a letter first: "L o", "E b", "E r 1 0". */
const SPACED_CELL = /^[A-Za-z](?: [A-Za-z0-9]){1,6}$/;
const CODE_SHAPE = /^[A-Z][A-Za-z]{0,2}[.-]?\d{1,4}(?:-\d{1,3})?[A-Z]?$/;

/**
 * What a producer's way of writing the text layer adds to a code and the eye does not see: an en dash
 * where the display shows a hyphen ("E–01" is read "E-01"), and the spaces a text extractor puts between
 * the glyphs of a letter-spaced code ("E 0 1" is read "E01"). Only code-shaped tokens are touched, and
 * cells made of nothing but spaced single characters (a display code "L o" is read "Lo").
 */
export function readTextLayer(text: string): string {
  if (SPACED_CELL.test(text)) return text.replace(/ /g, '');
  const dashed = text.replace(DASHED_WORD, (word: string) => {
    const hyphened = word.replace(DASH_BEFORE_DIGIT, '-');
    const bare = hyphened.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
    return CODE_SHAPE.test(bare) ? hyphened : word;
  });
  return dashed.replace(SPACED_CODE, (spaced: string) => {
    const joined = spaced.replace(/ /g, '');
    return /\d/.test(joined) && CODE_SHAPE.test(joined) ? joined : spaced;
  });
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return round(sorted[Math.floor(sorted.length / 2)]!);
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
