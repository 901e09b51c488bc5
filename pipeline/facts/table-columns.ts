import type { Rule } from '../layout/types.js';
import type { GridLine, GridSegment } from './page-grid.js';

/** Column starts closer than this (points) are one column. */
const SAME_COLUMN = 5;
/** Cells that only hold a list marker: they belong to the text column to their right. */
const LIST_MARKER = /^(?:\d{1,2}[.)]|[a-z][.)]|[•·▪●◦■□\-–*>])$/;

export interface ColumnBounds {
  x0: number;
  x1: number;
}

/**
 * The columns of a table region. Vertical rules that run through most of the body are column boundaries;
 * without them, columns start where segment left edges line up on several rows. Starts that never share a
 * line with the column to their left and sit inside its text are indents of that column (a wrapped list
 * item), and a start that only holds list markers joins the text that follows it.
 */
export function tableColumns(
  lines: GridLine[],
  rules: Rule[],
  range: { x0: number; x1: number; top: number; bottom: number },
  rowCount: number,
  codeX0: number,
  codeX1: number,
): { columns: ColumnBounds[]; ruled: boolean } {
  const fromRules = ruledColumns(rules, range);
  if (fromRules) return { columns: splitCodeColumn(fromRules, lines, codeX0, codeX1), ruled: true };
  return { columns: alignedColumns(lines, range, rowCount, codeX0), ruled: false };
}

/**
 * A rule may be missing between the code column and the next one (a table drawn with some borders only):
 * when cells start right of the codes, on the codes' own lines, inside the ruled column that holds them,
 * that column is split where those cells start.
 */
function splitCodeColumn(
  columns: ColumnBounds[],
  lines: GridLine[],
  codeX0: number,
  codeX1: number,
): ColumnBounds[] {
  const at = columns.findIndex((c) => codeX0 >= c.x0 - 2 && codeX0 < c.x1);
  const col = columns[at];
  if (!col) return columns;
  const starts: number[] = [];
  for (const line of lines) {
    const code = line.segments.find((s) => Math.abs(s.x0 - codeX0) <= SAME_COLUMN * 2 && s.x1 <= codeX1 + 2);
    if (!code) continue;
    const beside = line.segments.find((s) => s.x0 > code.x1 + 2 && s.x0 < col.x1 - 2);
    if (beside) starts.push(beside.x0);
  }
  if (starts.length < 2) return columns;
  const x = Math.min(...starts) - 1;
  return [...columns.slice(0, at), { x0: col.x0, x1: x }, { x0: x, x1: col.x1 }, ...columns.slice(at + 1)];
}

function ruledColumns(
  rules: Rule[],
  range: { x0: number; x1: number; top: number; bottom: number },
): ColumnBounds[] | undefined {
  const height = range.bottom - range.top;
  if (height <= 0) return undefined;
  const xs: number[] = [];
  for (const r of rules) {
    if (r.x0 !== r.x1) continue;
    if (r.x0 < range.x0 - 3 || r.x0 > range.x1 + 3) continue;
    const overlap = Math.min(r.y1, range.bottom) - Math.max(r.y0, range.top);
    if (overlap >= height * 0.4) xs.push(r.x0);
  }
  // Inner boundaries are what matter: the outer borders are the table's range either way.
  const inner = xs.filter((x) => x > range.x0 + 3 && x < range.x1 - 3);
  if (inner.length === 0) return undefined;
  const edges = dedupe(
    [range.x0, ...inner, range.x1].sort((a, b) => a - b),
    3,
  );
  const out: ColumnBounds[] = [];
  for (let i = 0; i + 1 < edges.length; i++) out.push({ x0: edges[i]!, x1: edges[i + 1]! });
  return out;
}

function alignedColumns(
  lines: GridLine[],
  range: { x0: number; x1: number },
  rowCount: number,
  codeX0: number,
): ColumnBounds[] {
  interface Start {
    x: number;
    members: GridSegment[];
    lines: Set<number>;
  }
  const starts: Start[] = [];
  lines.forEach((line, li) => {
    for (const s of line.segments) {
      let start = starts.find((c) => Math.abs(c.x - s.x0) <= SAME_COLUMN);
      if (!start) {
        start = { x: s.x0, members: [], lines: new Set() };
        starts.push(start);
      }
      start.members.push(s);
      start.lines.add(li);
    }
  });
  const support = Math.max(2, Math.ceil(rowCount * 0.2));
  let kept = starts
    .filter((s) => s.lines.size >= support || Math.abs(s.x - codeX0) <= SAME_COLUMN)
    .map((s) => ({ ...s, x: Math.min(...s.members.map((m) => m.x0)) }))
    .sort((a, b) => a.x - b.x);
  // Indents: a start that never shares a line with its left neighbour and lies inside that neighbour's text.
  let merged = true;
  while (merged) {
    merged = false;
    for (let i = 1; i < kept.length; i++) {
      const left = kept[i - 1]!;
      const right = kept[i]!;
      const shareLine = [...right.lines].some((l) => left.lines.has(l));
      const wideLeft = left.members.filter((m) => m.x1 > right.x + 2).length >= left.members.length * 0.3;
      const markersOnly = left.members.every((m) => LIST_MARKER.test(m.text.trim()));
      if ((!shareLine && wideLeft) || (markersOnly && Math.abs(left.x - codeX0) > SAME_COLUMN)) {
        kept[i - 1] = {
          x: left.x,
          members: [...left.members, ...right.members],
          lines: new Set([...left.lines, ...right.lines]),
        };
        kept.splice(i, 1);
        merged = true;
        break;
      }
    }
  }
  if (kept.length === 0) kept = [{ x: range.x0, members: [], lines: new Set() }];
  const out: ColumnBounds[] = [];
  for (let i = 0; i < kept.length; i++) {
    const x0 = i === 0 ? Math.min(kept[i]!.x, range.x0) : kept[i]!.x - 1;
    out.push({ x0, x1: kept[i + 1] ? kept[i + 1]!.x - 1 : range.x1 });
  }
  const last = out[out.length - 1]!;
  last.x1 = Math.max(last.x1, range.x1);
  return out;
}

/** The column a segment starts in: the last column whose left edge is at or before the segment's. */
export function columnOf(columns: ColumnBounds[], x0: number): number {
  let index = 0;
  for (let i = 0; i < columns.length; i++) if (columns[i]!.x0 <= x0 + 2) index = i;
  return index;
}

function dedupe(sorted: number[], tolerance: number): number[] {
  const out: number[] = [];
  for (const x of sorted) if (out.length === 0 || x - out[out.length - 1]! > tolerance) out.push(x);
  return out;
}
