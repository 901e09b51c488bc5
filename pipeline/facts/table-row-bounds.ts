import type { GridLine, GridSegment } from './page-grid.js';
import { firstAbove, lastBelow } from './table-geometry.js';
import { isHeaderLike } from './table-headers.js';
import type { RowBand } from './table-model.js';

/** Row bounds: where each code's row starts and ends, from the ruling lines around it or from the text. */

/** The code column as the row bounds read it: its right edge, the table's far edge, what lies inside. */
export interface CodeColumnReach {
  x1: number;
  edge: number;
  inRange: (s: GridSegment) => boolean;
}

/** What the row bounds are read from: the page's lines, the codes' baselines, the rules crossing the codes. */
export interface RowBoundsInput {
  grid: GridLine[];
  anchorYs: number[];
  crossingYs: number[];
  /** Font size of the code cells. */
  size: number;
  /** The table's horizontal extent. */
  x0: number;
  x1: number;
  column: CodeColumnReach;
}

/**
 * One band per code: bounded by the crossing rules around it, else by where the text parts rows (see
 * unruledBounds); the outer rows stop at lines that are not part of the table.
 */
export function rowBands(input: RowBoundsInput): RowBand[] {
  const { grid, anchorYs, crossingYs, size, column } = input;
  // Where rows part is read from every line of text between two codes, a line that starts left of the
  // table and runs into it included: it is text the rows stand in (a paragraph between two code
  // headings), and without it the gap it leaves looks like the parting of centred rows.
  const fromLeft = (s: GridSegment) => s.x0 < input.x0 - 3 && s.x1 > input.x0 + size;
  const inText = (s: GridSegment) => column.inRange(s) || fromLeft(s);
  const unruled = unruledBounds(grid, anchorYs, crossingYs, size, column.inRange, inText);
  const bands: RowBand[] = [];
  for (let i = 0; i < anchorYs.length; i++) {
    const y = anchorYs[i]!;
    const prev = anchorYs[i - 1];
    const next = anchorYs[i + 1];
    const ruleAbove = lastBelow(crossingYs, y);
    const ruleBelow = firstAbove(crossingYs, y);
    let top: number | undefined;
    if (ruleAbove !== undefined && (prev === undefined || ruleAbove > prev)) top = ruleAbove;
    else if (prev !== undefined) top = unruled.bounds.get(i - 1)!;
    let bottom: number | undefined;
    if (ruleBelow !== undefined && (next === undefined || ruleBelow < next)) bottom = ruleBelow;
    else if (next !== undefined) bottom = unruled.bounds.get(i)!;
    // An outer row without a rule: top-aligned rows start at their code, centred ones mirror their other edge.
    if (top === undefined)
      top =
        unruled.centred && bottom !== undefined ? Math.min(y - size * 1.2, 2 * y - bottom) : y - size * 1.2;
    if (i === 0) top = belowForeignLines(grid, top, y, size, column);
    if (bottom === undefined) {
      bottom = unruled.centred ? Math.max(2 * y - top, y + size) : textEnd(grid, y, size, input.x0, input.x1);
    }
    if (i === anchorYs.length - 1) bottom = aboveForeignLines(grid, bottom, y, size, column);
    // No rule closes the row: it ends above a line that comes in from the left of the table, text the
    // rows stand in and no cell of theirs (the paragraph under a code heading).
    if (!(ruleBelow !== undefined && (next === undefined || ruleBelow < next))) {
      bottom = endAbove(grid, y, bottom, size, (l) => l.segments.some(fromLeft), size * 0.6);
    }
    // A line in larger type than the table's (the next section's heading) ends the row above it, even
    // where a rule below it (the heading's own underline) was taken for the row's end.
    bottom = endAbove(grid, y, bottom, size, (l) => l.size > size * 1.25);
    bands.push({ top, bottom, anchorY: y });
  }
  // Rows without a rule between them share no band: clip each band at its neighbour's top.
  for (let i = 0; i + 1 < bands.length; i++) {
    if (bands[i]!.bottom > bands[i + 1]!.top) bands[i]!.bottom = bands[i + 1]!.top;
  }
  return bands;
}

/**
 * A row's bottom moved up to just above the first line below its code (the code's line aside) that `ends`
 * says no row line is: `clearance` above that line (its own size by default), never above the code's line.
 */
function endAbove(
  grid: GridLine[],
  y: number,
  bottom: number,
  size: number,
  ends: (l: GridLine) => boolean,
  clearance?: number,
): number {
  const line = grid.find((l) => l.y > y + size * 0.5 && l.y < bottom && ends(l));
  return line ? Math.max(y + size * 0.5, line.y - (clearance ?? line.size)) : bottom;
}

/**
 * Row bounds between codes that no rule separates. Tables set their codes either on their row's first line
 * or centred in the row; the text shows which: when the widest gap between two codes' lines lies above the
 * lower code's line (with lines of the row between), the codes are centred and rows part at that gap.
 * Otherwise each row starts just above its code. The gaps are read over the lines `inText` keeps; a line
 * less than a line above a code counts only where `inRange` keeps it (a line of the table's own).
 */
function unruledBounds(
  grid: GridLine[],
  anchorYs: number[],
  ruleYs: number[],
  size: number,
  inRange: (s: GridSegment) => boolean,
  inText: (s: GridSegment) => boolean,
): { bounds: Map<number, number>; centred: boolean } {
  const gapAt = new Map<number, number>();
  let centredVotes = 0;
  let topVotes = 0;
  const pairs: { i: number; ys: number[] }[] = [];
  for (let i = 0; i + 1 < anchorYs.length; i++) {
    const upper = anchorYs[i]!;
    const lower = anchorYs[i + 1]!;
    if (ruleYs.some((y) => y > upper && y < lower)) continue;
    const ys = [
      upper,
      ...grid
        .filter((l) => l.y > upper + 0.5 && l.y < lower - 0.5 && l.segments.some(inText))
        .map((l) => l.y),
      lower,
    ];
    pairs.push({ i, ys });
  }
  const tablePitch = linePitch(pairs, size);
  // A text line less than a line above a code, within its row, is the line above the middle of a centred
  // row: top-aligned rows leave a full line and more between a row's last line and the next code.
  for (const y of anchorYs) {
    const halfAbove = grid.some(
      (l) => l.y < y - size * 0.3 && l.y > y - size * 0.9 && l.segments.some(inRange),
    );
    // Top-aligned rows cannot print a line there: this counts more than a pair of codes does.
    if (halfAbove) centredVotes += 2;
  }
  for (const { i, ys } of pairs) {
    let widest = 0;
    let at = ys.length - 2;
    for (let k = 0; k + 1 < ys.length; k++) {
      const gap = ys[k + 1]! - ys[k]!;
      if (gap >= widest) {
        widest = gap;
        at = k;
      }
    }
    // Lines set at one pitch (sub-rows of a top-aligned row) leave equal gaps, which only rounding tells
    // apart: the gap above the lower code, if about as wide as the widest, is where the rows part.
    const above = ys[ys.length - 1]! - ys[ys.length - 2]!;
    if (above >= widest - Math.max(0.5, widest * 0.05)) at = ys.length - 2;
    const gaps = ys.slice(1).map((y, k) => y - ys[k]!);
    const pitch = tablePitch ?? [...gaps].sort((p, q) => p - q)[Math.floor((gaps.length - 1) / 2)] ?? size;
    // Two codes with no line between them say nothing about where rows part.
    if (ys.length === 2) continue;
    if (at < ys.length - 2 && widest >= pitch * 1.3) {
      centredVotes++;
      gapAt.set(i, (ys[at]! + ys[at + 1]!) / 2);
    } else {
      topVotes++;
    }
  }
  const centred = centredVotes > topVotes;
  const bounds = new Map<number, number>();
  for (let i = 0; i + 1 < anchorYs.length; i++) {
    const top = anchorYs[i + 1]! - size * 0.6;
    bounds.set(i, centred ? (gapAt.get(i) ?? top) : top);
  }
  return { bounds, centred };
}

/**
 * The table's line pitch, from every pair of codes (a pair with a single line between them says little):
 * the lower quartile of the gaps, since gaps between rows and around centred codes are wider.
 */
function linePitch(pairs: { ys: number[] }[], size: number): number | undefined {
  const allGaps = pairs
    .flatMap(({ ys }) => ys.slice(1).map((y, k) => y - ys[k]!))
    .filter((g) => g <= size * 2)
    .sort((p, q) => p - q);
  return allGaps.length >= 3 ? allGaps[Math.floor((allGaps.length - 1) / 4)] : undefined;
}

/** A segment of the table that starts in the code column and runs past the table's far edge. */
function runsAcross(s: GridSegment, col: CodeColumnReach): boolean {
  return col.inRange(s) && s.x0 <= col.x1 && s.x1 > col.edge;
}

/**
 * The first row's top, moved below lines between it and the rule or bound above that are not part of the
 * row: a header line, or text running across the code column's right edge (a paragraph above the table).
 * Lines of the row above its code (a centred code) stand right of the code column.
 */
function belowForeignLines(
  grid: GridLine[],
  top: number,
  y: number,
  size: number,
  col: CodeColumnReach,
): number {
  let out = top;
  for (const line of grid) {
    if (line.y <= top || line.y >= y - size * 0.6) continue;
    if (!line.segments.some(col.inRange)) continue;
    if (line.segments.some((s) => runsAcross(s, col)) || isHeaderLike(line)) out = line.y + size * 0.4;
  }
  return out;
}

/** The last row's bottom, moved above the first line below its code that runs across the code column. */
function aboveForeignLines(
  grid: GridLine[],
  bottom: number,
  y: number,
  size: number,
  col: CodeColumnReach,
): number {
  for (const line of grid) {
    if (line.y <= y + size * 0.6 || line.y >= bottom) continue;
    if (line.segments.some((s) => runsAcross(s, col))) return line.y - size * 0.8;
  }
  return bottom;
}

/**
 * Where an unruled table ends below its last code: at a wide gap, a larger font or a line outside it. The
 * row's text keeps one type size: a line in another (a heading, a footnote) is no longer the row.
 */
function textEnd(grid: GridLine[], y: number, size: number, x0: number, x1: number): number {
  let last = y;
  let textSize: number | undefined;
  for (const line of grid) {
    if (line.y <= y + 0.5) continue;
    if (line.y - last > size * 2.4) break;
    if (line.size > size * 1.2) break;
    if (textSize !== undefined && Math.abs(line.size - textSize) > textSize * 0.08) break;
    textSize ??= line.size;
    const inside = line.segments.filter((s) => s.x0 >= x0 - 3 && s.x0 < x1);
    if (inside.length === 0) break;
    const spanning = inside.length === 1 && inside[0]!.x1 - inside[0]!.x0 > (x1 - x0) * 0.75;
    if (spanning) break;
    last = line.y;
  }
  return last + size * 0.6;
}
