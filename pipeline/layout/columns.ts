import type { Line, Segment } from './types.js';

/** A page is split into at most this many levels of columns (two levels: up to four columns). */
const MAX_DEPTH = 2;

/**
 * Puts a page's lines in reading order. Where a run of lines is laid out as text columns (a gutter that
 * no segment crosses, with prose on both sides), the left column is read before the right one; each side
 * is split again where it holds columns of its own (three-column pages). Tables also have gaps at their
 * gutters; they are told apart by their rows, which hold several short cells on a side where prose
 * holds one.
 */
export function readingOrder(lines: Line[], pageWidth: number): Line[] {
  return order(lines, 0, pageWidth, 0);
}

function order(lines: Line[], x0: number, x1: number, depth: number): Line[] {
  if (lines.length < 6 || depth >= MAX_DEPTH) return lines;
  const gutter = findGutter(lines, x0, x1);
  if (gutter === undefined) return lines;
  const out: Line[] = [];
  let region: Line[] = [];
  const flush = () => {
    if (region.length === 0) return;
    const { left, right } = split(region, gutter);
    const columns =
      !rowsAligned(left, right) &&
      isProse(left, x0, gutter, depth + 1) &&
      isProse(right, gutter, x1, depth + 1);
    if (columns) {
      out.push(...order(left, x0, gutter, depth + 1), ...order(right, gutter, x1, depth + 1));
    } else {
      out.push(...region);
    }
    region = [];
  };
  for (const line of lines) {
    if (crosses(line, gutter)) {
      flush();
      out.push(line);
    } else {
      region.push(line);
    }
  }
  flush();
  return out;
}

function split(region: Line[], gutter: number): { left: Line[]; right: Line[] } {
  const left: Line[] = [];
  const right: Line[] = [];
  for (const line of region) {
    const l = line.segments.filter((s) => (s.x0 + s.x1) / 2 < gutter);
    const r = line.segments.filter((s) => (s.x0 + s.x1) / 2 >= gutter);
    if (l.length) left.push(fromSegments(line, l));
    if (r.length) right.push(fromSegments(line, r));
  }
  return { left, right };
}

function crosses(line: Line, x: number): boolean {
  return line.segments.some((s) => s.x0 < x - 1 && s.x1 > x + 1);
}

function findGutter(lines: Line[], x0: number, x1: number): number | undefined {
  // Gutter candidates are the bands of x positions that the fewest lines cross; the widest band with
  // text on both sides wins.
  const width = x1 - x0;
  const xs: { x: number; crossing: number }[] = [];
  for (let x = x0 + width * 0.3; x <= x0 + width * 0.7; x += 2) {
    xs.push({ x, crossing: lines.filter((l) => crosses(l, x)).length });
  }
  if (xs.length === 0) return undefined;
  const least = Math.min(...xs.map((p) => p.crossing));
  const runs: { from: number; to: number }[] = [];
  let run: { from: number; to: number } | undefined;
  for (const p of xs) {
    if (p.crossing !== least) {
      run = undefined;
      continue;
    }
    if (run) run.to = p.x;
    else {
      run = { from: p.x, to: p.x };
      runs.push(run);
    }
  }
  runs.sort((a, b) => b.to - b.from - (a.to - a.from));
  for (const r of runs) {
    const gutter = (r.from + r.to) / 2;
    const left = lines.filter((l) => l.segments.some((s) => s.x1 <= gutter)).length;
    const right = lines.filter((l) => l.segments.some((s) => s.x0 >= gutter)).length;
    if (left >= 3 && right >= 3) return gutter;
  }
  return undefined;
}

/**
 * Whether one side of a gutter reads as a text column: lines of running words, mostly one segment per
 * line, or itself two such columns. A column of codes or numbers is a table column, never prose.
 */
function isProse(side: Line[], x0: number, x1: number, depth: number): boolean {
  const chars = side.reduce((n, l) => n + l.text.length, 0);
  if (side.length < 3 || chars <= 80) return false;
  if (hasKeyColumn(side)) return false;
  const letters = side.reduce((n, l) => n + (l.text.match(/\p{L}/gu)?.length ?? 0), 0);
  // List markers and icons ("–", "•", a pictogram glyph) beside a line of text do not make it a table row.
  const single = side.filter((l) => l.segments.filter((seg) => seg.text.length > 2).length <= 1).length;
  if (single >= side.length * 0.75) return chars / side.length >= 12 && letters >= chars * 0.5;
  if (depth >= MAX_DEPTH) return false;
  const gutter = findGutter(side, x0, x1);
  if (gutter === undefined) return false;
  const { left, right } = split(
    side.filter((l) => !crosses(l, gutter)),
    gutter,
  );
  return isProse(left, x0, gutter, depth + 1) && isProse(right, gutter, x1, depth + 1);
}

/**
 * Whether the two sides start their blocks (lines after a vertical gap) on the same baselines: the rows
 * of a table, whose cells all start at the top of their row. Text columns start paragraphs independently.
 */
function rowsAligned(left: Line[], right: Line[]): boolean {
  const a = blockStarts(left);
  const b = blockStarts(right);
  const [few, many] = a.length <= b.length ? [a, b] : [b, a];
  if (few.length < 3) return false;
  const shared = few.filter((y) => many.some((o) => Math.abs(o - y) <= 2)).length;
  return shared >= few.length * 0.8;
}

function blockStarts(lines: Line[]): number[] {
  const ys = lines.map((l) => l.y).sort((a, b) => a - b);
  const gaps = ys.slice(1).map((y, i) => y - ys[i]!);
  const pitch = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  return ys.filter((y, i) => i === 0 || y - ys[i - 1]! > pitch * 1.4);
}

/** Short keys (codes, numbers) that a table prints in a column of their own: "E01", "PP1", "112", "L3". */
const KEY = /^[A-Z]{0,3}[ -]?\d{1,4}[A-Z]?$/;

/** Whether at least three short keys line up in one column: a table's key column, not prose. */
function hasKeyColumn(side: Line[]): boolean {
  const sizes = side.map((l) => l.size).sort((a, b) => a - b);
  const body = sizes[Math.floor(sizes.length / 2)] ?? 0;
  const starts: number[] = [];
  for (const line of side) {
    if (line.size > body * 1.2) continue;
    for (const s of line.segments) if (s.text.length <= 6 && KEY.test(s.text)) starts.push(s.x0);
  }
  return starts.some((x) => starts.filter((o) => Math.abs(o - x) <= 6).length >= 3);
}

function fromSegments(line: Line, segments: Segment[]): Line {
  return {
    ...line,
    segments,
    text: segments.map((s) => s.text).join(' '),
    x0: segments[0]!.x0,
    x1: segments[segments.length - 1]!.x1,
  };
}
