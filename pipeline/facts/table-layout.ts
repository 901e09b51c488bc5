import type { Rule } from '../layout/types.js';
import type { GridLine, GridSegment } from './page-grid.js';
import { tableColumns } from './table-columns.js';
import { clip, dedupeBy, median } from './table-geometry.js';
import { isHeaderLike } from './table-headers.js';
import type { Layout, Limit } from './table-model.js';
import { type CodeColumnReach, rowBands } from './table-row-bounds.js';

/**
 * Lays a table out from its column of code cells: its horizontal extent, one row band per code, the
 * header lines above the first row, and the column bounds (table-columns.ts).
 */
export function layOut(
  grid: GridLine[],
  rules: Rule[],
  anchors: GridSegment[],
  limit: Limit = {},
): Layout | undefined {
  const sorted = [...anchors].sort((a, b) => a.y - b.y);
  const anchorYs = dedupeBy(
    sorted.map((a) => a.y),
    (a, b) => b - a <= Math.max(2, sorted[0]!.size * 0.5),
  );
  const size = median(sorted.map((a) => a.size));
  const colX0 = Math.min(...sorted.map((a) => a.x0));
  const colX1 = Math.max(...sorted.map((a) => a.x1));
  const colCenter = (colX0 + colX1) / 2;
  const crossing = rules.filter((r) => r.y0 === r.y1 && r.x0 <= colCenter + 1 && r.x1 >= colCenter - 1);
  const crossingYs = dedupeBy(
    crossing.map((r) => r.y0).sort((a, b) => a - b),
    (a, b) => b - a <= 2,
  );
  let { x0, x1 } = tableExtent(grid, crossing, anchorYs, size, colX0, colX1);
  if (limit.x0 !== undefined) x0 = Math.max(x0, limit.x0);
  if (limit.x1 !== undefined) x1 = Math.min(x1, limit.x1);
  const inRange = (s: GridSegment) => s.x0 >= x0 - 3 && s.x0 < x1 - 1;
  // Text from the code column that reaches past the next column's start runs across the table: a
  // paragraph or a heading, never a cell.
  const nextColumn = Math.min(
    x1,
    ...grid
      .filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= 2))
      .flatMap((l) => l.segments)
      .filter((s) => s.x0 > colX1 + 1)
      .map((s) => s.x0),
  );
  const edge = Math.max(colX1 + size * 2, nextColumn + size);
  const column = { x1: colX1, edge, inRange };
  const bands = rowBands({ grid, anchorYs, crossingYs, size, x0, x1, column });
  const bodyTop = bands[0]!.top;
  const bodyBottom = bands[bands.length - 1]!.bottom;
  const bodyLines = clip(grid, bodyTop, bodyBottom, inRange);
  const headerLines = headerOf(grid, crossingYs, bodyTop, size, column);
  const { columns, ruled } = tableColumns(
    bodyLines,
    rules,
    { x0, x1, top: bodyTop, bottom: bodyBottom },
    bands.length,
    colX0,
    colX1,
  );
  return { x0, x1, bands, headerLines, bodyLines, columns, ruled, size };
}

/**
 * The table's horizontal extent: from its rules, or from the text on the code rows. The table's own rules
 * run between and around its rows (a header's underline may be the only one); a heading's or a footer's
 * rule further off spans the page and counts only when the rows have none.
 */
function tableExtent(
  grid: GridLine[],
  crossing: Rule[],
  anchorYs: number[],
  size: number,
  colX0: number,
  colX1: number,
): { x0: number; x1: number } {
  const firstY = anchorYs[0]!;
  const lastY = anchorYs[anchorYs.length - 1]!;
  const near = crossing.filter((r) => r.y0 > firstY - size * 40 && r.y0 < lastY + size * 40);
  const isWide = (r: Rule) => r.x1 - r.x0 > (colX1 - colX0) * 2.5;
  const within = near.filter((r) => isWide(r) && r.y0 > firstY - size * 4 && r.y0 < lastY + size * 4);
  const wide = within.length >= 1 ? within : near.filter(isWide);
  if (wide.length >= 2 || within.length === 1) {
    return { x0: median(wide.map((r) => r.x0)), x1: median(wide.map((r) => r.x1)) };
  }
  let rowSegments = grid
    .filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= 2))
    .flatMap((l) => l.segments);
  // Codes set in the middle of their rows share no baseline with the rows' text, which starts at the
  // top: the lines next to each code show the extent then.
  if (rowSegments.every((s) => s.x1 <= colX1 + 1 && s.x0 >= colX0 - 1)) {
    rowSegments = grid
      .filter((l) => anchorYs.some((y) => Math.abs(l.y - y) <= size * 1.1))
      .flatMap((l) => l.segments);
  }
  return {
    x0: Math.min(colX0, ...rowSegments.map((s) => s.x0)),
    x1: Math.max(colX1, ...rowSegments.map((s) => s.x1)),
  };
}

/** The table's header lines: between the rule (or the gap) above the first row and that row. */
function headerOf(
  grid: GridLine[],
  ruleYs: number[],
  bodyTop: number,
  size: number,
  column: CodeColumnReach,
): GridLine[] {
  const above = ruleYs.filter((y) => y < bodyTop - 1);
  let top: number;
  if (above.length > 0) {
    const first = above[above.length - 1]!;
    const second = above[above.length - 2];
    top = first;
    if (bodyTop - first < size * 1.6 && second !== undefined) top = second;
    if (second !== undefined && first - second <= size * 3 && bodyTop - second <= size * 9) top = second;
    if (bodyTop - top > size * 9) top = bodyTop - size * 9;
  } else {
    top = bodyTop;
    const lines = grid.filter((l) => l.y < bodyTop && l.y > bodyTop - size * 8).reverse();
    for (const line of lines) {
      if (top - line.y > size * 2.2 || line.size > size * 1.2) break;
      if (line.segments.filter(column.inRange).length === 0) break;
      top = line.y - size;
    }
  }
  const lines = clip(grid, top, bodyTop, column.inRange);
  // Without a rule above the header, prose can run down to it: the header starts at its first header
  // line, and below any line running across the code column's edge (a header cell stays in its column).
  // A line of header cells is no prose even where one cell spans the code columns (a group heading over
  // two code columns, wrapped over several lines with the other cells): the header keeps all its lines.
  const first = lines.findIndex(isHeaderLike);
  const across = lines.findLastIndex(
    (l) => !isHeaderLike(l) && l.segments.some((s) => s.x0 <= column.x1 && s.x1 > column.edge),
  );
  return lines.slice(Math.max(first, across + 1, 0));
}
