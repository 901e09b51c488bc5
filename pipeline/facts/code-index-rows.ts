/**
 * The row of a code that stands alone in a table cell, for the code index. A table may set its cells at
 * the top of a row or centre them vertically: in a centred row, the code's baseline meets the middle of
 * every cell, so the cell printed on the code's own baseline may be another column (the description has
 * two lines, one above and one below the code, and the cause beside it has one, level with the code).
 * The row is therefore found as a band across the page: between the ruling lines above and below the code
 * where the page draws them, else between the widest gaps that separate the code's lines from the rows
 * above and below (cells of one row are set close; rows are apart). The meaning is the cell of the column
 * right of the code's within the band. Where neither rules nor a clearly widest gap tell where the row
 * ends, the row is not known: the caller keeps the code for the ingest audit but does not answer from it.
 */
import type { Line, Rule, Segment } from '../layout/types.js';
import { codeFamily } from './code-pattern.js';
import { headerRole } from './header-words.js';

export interface CodeRow {
  /** The text of the cell right of the code's, line by line as printed, joined by spaces. */
  meaning: string;
  /** The row's lines as they stand on the page (consecutive lines, in reading order), joined by line breaks. */
  excerpt: string;
  /** Whether the row's extent is known (rules, a clear gap, or nothing else near the code). */
  confident: boolean;
  /** The header over the code's column names parameters, registers or addresses: the code is no fault. */
  notFault?: true;
}

/** A gap between baselines this many times the line size ends a table (a caption, a paragraph). */
const BREAK = 2.5;
/** The widest gap must be this much wider than every other to mark the row's edge. */
const CLEAR = 1.3;

/**
 * The row of the code segment `code` on line `i`, or undefined where no cell to its right holds words
 * (the caller then tries other shapes: a name printed under the code).
 */
export function codeRow(
  lines: readonly Line[],
  i: number,
  code: Segment,
  rules: readonly Rule[] | undefined,
): CodeRow | undefined {
  const line = lines[i]!;
  const tol = Math.max(2, line.size * 0.5);
  const inCodeColumn = (l: Line) => l.segments.some((s) => s.x0 < code.x1 + tol && s.x1 > code.x0 - tol);
  // Lines around the code with nothing in its column: cells of this row or of its neighbours.
  const above = neighbours(lines, i, -1, inCodeColumn);
  const below = neighbours(lines, i, +1, inCodeColumn);
  // A header that names the column right of the code as another kind: its cell is kept, uncertain.
  const named = meaningColumn(lines, i, code, tol);
  const column = typeof named === 'object' || named === 'right' ? named : 'right';
  const sure = column === named;
  const ruled = ruledBand(lines, i, code, tol, rules, above, below);
  const top = edge(lines, i, above);
  const bottom = edge(lines, i, below);
  const row = ruled
    ? readAt(lines, range(ruled), code, tol, column, sure)
    : readAt(
        lines,
        range({ from: top.index, to: bottom.index }),
        code,
        tol,
        column,
        sure && top.clear && bottom.clear,
      );
  return row && named === 'not-fault' ? { ...row, notFault: true } : row;
}

/** Where the meaning stands: the column right of the code's, or the span of a column a header names. */
type MeaningColumn = 'right' | { x0: number; x1: number } | 'unknown' | 'not-fault';

/** How far above a code its table's header line is looked for. */
const HEADER_REACH = 60;

/**
 * The meaning's column, from the table's header where one stands above the code (the nearest line above
 * with two or more column headers and no code): the column headed as a description or a name, wherever
 * it stands; where the header names none, the column right of the code unless its header names causes,
 * remedies, parts or values (then the meaning cannot be told: 'unknown'). A header that names the code's
 * own column as parameters, registers or addresses says its codes are no fault codes ('unknown'). Without
 * a header, the column right of the code.
 */
function meaningColumn(lines: readonly Line[], i: number, code: Segment, tol: number): MeaningColumn {
  for (let j = i - 1; j >= Math.max(0, i - HEADER_REACH); j--) {
    const l = lines[j]!;
    if (l.y >= lines[i]!.y) break;
    if (l.segments.some((s) => codeFamily(s.text.trim()) !== undefined)) continue;
    if (l.segments.length < 2) continue;
    const roles = l.segments.map((s) => headerRole(s.text));
    const centres = l.segments.map((s) => (s.x0 + s.x1) / 2);
    const bounds = (k: number) => ({
      x0: k === 0 ? -Infinity : (centres[k - 1]! + centres[k]!) / 2,
      x1: k === centres.length - 1 ? Infinity : (centres[k]! + centres[k + 1]!) / 2,
    });
    // A header printed over the code (overlapping it) that names parameters, registers or addresses.
    const over = l.segments.findIndex((s) => s.x0 < code.x1 + tol && s.x1 > code.x0 - tol);
    if (over >= 0 && roles[over] === 'not-code') return 'not-fault';
    if (roles.filter((r) => r !== undefined).length < 2) continue;
    const title = ownTitle(l.segments, roles, code, tol);
    if (title >= 0) return bounds(title);
    const right = l.segments.findIndex((s) => s.x0 >= code.x1 + tol * 0.5);
    const role = right >= 0 ? roles[right] : undefined;
    return role === undefined || role === 'code' ? 'right' : 'unknown';
  }
  return 'right';
}

/**
 * The header segment naming the description column of the code's own table. One header line may head
 * tables set side by side ("Code Description | Code Description"): each table runs from a code column's
 * header to the next one's, and the code belongs to the table whose code header stands over it or is the
 * last one left of it. Its description column is the first one headed so within that table; a header
 * line without a code column's header is one table. -1 where the code's table heads no description.
 */
function ownTitle(
  segments: readonly Segment[],
  roles: readonly (string | undefined)[],
  code: Segment,
  tol: number,
): number {
  const codeHeaders = roles.flatMap((r, k) => (r === 'code' ? [k] : []));
  if (codeHeaders.length < 2) return roles.indexOf('title');
  const over = codeHeaders.filter((k) => segments[k]!.x0 < code.x1 + tol);
  const from = over.at(-1) ?? codeHeaders[0]!;
  const to = codeHeaders.find((k) => k > from) ?? segments.length;
  for (let k = from + 1; k < to; k++) if (roles[k] === 'title') return k;
  return -1;
}

interface Walk {
  /** Indexes of the lines passed, nearest first. */
  passed: number[];
  /** The line that stopped the walk: one with text in the code's column (the next code, a header). */
  stop?: number;
}

/** Lines next to line i in one direction, up to one with text in the code's column, a wide gap or a jump. */
function neighbours(
  lines: readonly Line[],
  i: number,
  step: -1 | 1,
  inCodeColumn: (l: Line) => boolean,
): Walk {
  const passed: number[] = [];
  for (let j = i + step; j >= 0 && j < lines.length; j += step) {
    const near = lines[j - step]!;
    const l = lines[j]!;
    const gap = (l.y - near.y) * step;
    if (gap <= 0 || gap > BREAK * Math.max(l.size, near.size)) break;
    if (inCodeColumn(l)) return { passed, stop: j };
    passed.push(j);
  }
  return { passed };
}

/**
 * Where the row ends on one side: within the widest gap between the baselines from the code's line to
 * the line that stopped the walk (or, with no such line, a gap as wide as a break). Returns the index of
 * the row's last line on that side and whether that gap is clearly the widest.
 */
function edge(lines: readonly Line[], i: number, walk: Walk): { index: number; clear: boolean } {
  if (walk.passed.length === 0) return { index: i, clear: true };
  const ys = [lines[i]!.y, ...walk.passed.map((j) => lines[j]!.y)];
  const size = lines[i]!.size;
  const gaps = ys.slice(1).map((y, k) => Math.abs(y - ys[k]!));
  const last = walk.stop !== undefined ? Math.abs(lines[walk.stop]!.y - ys.at(-1)!) : BREAK * size;
  gaps.push(last);
  let widest = 0;
  gaps.forEach((g, k) => {
    if (g > gaps[widest]!) widest = k;
  });
  const others = gaps.filter((_, k) => k !== widest);
  const clear = others.every((g) => gaps[widest]! >= CLEAR * g);
  // The row keeps the lines before the widest gap: passed[0 .. widest-1].
  const index = widest === 0 ? i : walk.passed[widest - 1]!;
  return { index, clear };
}

/** A band from ruling lines: the nearest full-width rules above and below the code, with no code between. */
function ruledBand(
  lines: readonly Line[],
  i: number,
  code: Segment,
  tol: number,
  rules: readonly Rule[] | undefined,
  above: Walk,
  below: Walk,
): { from: number; to: number } | undefined {
  if (!rules || rules.length === 0) return undefined;
  const line = lines[i]!;
  const across = rules.filter((r) => r.y0 === r.y1 && r.x0 <= code.x0 + tol && r.x1 >= code.x1 + tol);
  const top = Math.max(...across.filter((r) => r.y0 < line.y - line.size * 0.6).map((r) => r.y0));
  const bottom = Math.min(...across.filter((r) => r.y0 > line.y).map((r) => r.y0));
  if (!Number.isFinite(top) || !Number.isFinite(bottom)) return undefined;
  // A rule between rows, not the table's frame: the lines that stopped the walks lie outside the band.
  for (const stop of [above.stop, below.stop]) {
    if (stop === undefined) continue;
    const y = lines[stop]!.y;
    if (y > top && y - lines[stop]!.size * 0.6 < bottom) return undefined;
  }
  const inside = (j: number) => lines[j]!.y > top && lines[j]!.y - lines[j]!.size * 0.6 < bottom;
  const from = [...above.passed].reverse().find(inside) ?? i;
  const to = [...below.passed].reverse().find(inside) ?? i;
  return { from, to };
}

function range(band: { from: number; to: number }): number[] {
  const out: number[] = [];
  for (let j = band.from; j <= band.to; j++) out.push(j);
  return out;
}

/**
 * The row's meaning: the cell of the first column right of the code's, that is the segments of the band
 * that start where that column starts (left-aligned cells) or inside the extent of those segments.
 */
function readAt(
  lines: readonly Line[],
  band: number[],
  code: Segment,
  tol: number,
  column: 'right' | { x0: number; x1: number },
  confident: boolean,
): CodeRow | undefined {
  const excerpt = band.map((j) => lines[j]!.text).join('\n');
  const all = band
    .flatMap((j) => lines[j]!.segments.map((s) => ({ ...s, y: lines[j]!.y })))
    .filter((s) => s.x1 <= code.x0 - tol * 0.5 || s.x0 >= code.x1 + tol * 0.5)
    .sort((a, b) => a.y - b.y || a.x0 - b.x0);
  if (typeof column === 'object') {
    const cell = all.filter((s) => {
      const centre = (s.x0 + s.x1) / 2;
      return centre >= column.x0 && centre < column.x1;
    });
    if (cell.length === 0) return undefined;
    return { meaning: cell.map((s) => s.text.trim()).join(' '), excerpt, confident };
  }
  const segments = all.filter((s) => s.x0 >= code.x1 + tol * 0.5);
  if (segments.length === 0) return undefined;
  const start = Math.min(...segments.map((s) => s.x0));
  const lead = segments.filter((s) => s.x0 <= start + tol);
  const right = Math.max(...lead.map((s) => s.x1));
  const cell = segments.filter((s) => s.x0 <= start + tol || (s.x0 < right && s.x1 <= right + tol));
  const meaning = cell.map((s) => s.text.trim()).join(' ');
  return { meaning, excerpt, confident };
}
