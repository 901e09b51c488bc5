import { joinBroken } from './code-cells.js';
import { type CodeFamily, codeFamily, isEmptyMark } from './code-pattern.js';
import type { GridSegment } from './page-grid.js';
import { columnOf } from './table-columns.js';
import type { Layout, TableColumn, TableRow } from './table-model.js';

/** Rows: the cells of each row band, column by column, and the codes its code cells print. */

export function buildRows(
  page: number,
  layout: Layout,
  columns: TableColumn[],
  codeColumns: number[],
  family: CodeFamily,
): TableRow[] {
  const rows: TableRow[] = [];
  for (const band of layout.bands) {
    const cells = columns.map(() => [] as GridSegment[]);
    for (const line of layout.bodyLines) {
      if (line.y <= band.top || line.y >= band.bottom) continue;
      for (const segment of line.segments)
        for (const part of splitAtColumns(segment, columns)) cells[columnOf(columns, part.x0)]!.push(part);
    }
    const codes: string[] = [];
    for (const ci of codeColumns) {
      for (const code of codesIn(cells[ci]!, family)) if (!codes.includes(code)) codes.push(code);
    }
    if (codes.length === 0) continue;
    rows.push({
      page,
      codes,
      anchorY: band.anchorY,
      top: band.top,
      bottom: band.bottom,
      cells,
      continued: null,
    });
  }
  return rows;
}

/**
 * A segment that runs on over the next column's edge holds two cells the layout joined (their gap was
 * narrower than a cell gap): it is cut at the space nearest that edge, its position estimated from the
 * segment's width per character. A run-on that ends within a word of the edge (a long word, an overhang)
 * is left whole.
 */
export function splitAtColumns(seg: GridSegment, columns: TableColumn[]): GridSegment[] {
  const ci = columnOf(columns, seg.x0);
  const next = columns[ci + 1];
  if (!next || seg.x1 <= next.x0 + seg.size * 1.5 || !seg.text.includes(' ')) return [seg];
  const perChar = (seg.x1 - seg.x0) / seg.text.length;
  const edge = (next.x0 - seg.x0) / perChar;
  let cut = -1;
  for (let i = 0; i < seg.text.length; i++) {
    if (seg.text[i] !== ' ') continue;
    if (cut < 0 || Math.abs(i - edge) < Math.abs(cut - edge)) cut = i;
  }
  if (cut <= 0 || Math.abs(cut - edge) * perChar > seg.size * 1.5) return [seg];
  const left = seg.text.slice(0, cut).trimEnd();
  const right = seg.text.slice(cut).trimStart();
  if (!left || !right) return [seg];
  const x = seg.x0 + (cut + 1) * perChar;
  return [
    { ...seg, text: left, x1: x - perChar },
    ...splitAtColumns({ ...seg, text: right, x0: Math.max(x, next.x0) }, columns),
  ];
}

/** The codes in a code cell: one per line, or several on a line joined by "/" or ","; marks are no code. */
export function codesIn(cell: GridSegment[], family: CodeFamily): string[] {
  const out: string[] = [];
  const texts = cell.map((s) => s.text.trim()).filter((t) => t && !isEmptyMark(t));
  const fits = (text: string) => {
    const found = codeFamily(text);
    return (
      found === family ||
      (found === 'letters' && family !== 'number') ||
      (found === 'display' && family === 'alnum') ||
      (family === 'word' && (found === 'alnum' || found === 'display'))
    );
  };
  let pending = '';
  for (const text of texts) {
    const candidate = pending ? `${pending} ${text}` : text;
    if (fits(candidate) || (pending && fits(joinBroken(pending, text)))) {
      // As printed: a line break stands as a space, which is how the page text holds it.
      out.push(candidate);
      pending = '';
      continue;
    }
    if (family !== 'word') {
      const parts = candidate.split(/\s*[/,;]\s*/);
      if (parts.length > 1 && parts.every(fits)) {
        out.push(...parts);
        pending = '';
        continue;
      }
    }
    // A code broken over two lines ("A5-" / "00") is joined with the next line of the cell.
    pending = candidate.length <= 6 && /-$|^[A-Z][A-Za-z]?$/.test(candidate) ? candidate : '';
  }
  return out;
}

/** Text made of field labels only, each a few words ending with a colon. */
export function onlyLabels(text: string): boolean {
  const parts = text.trim().split(/(?<=:)\s+/);
  return parts.length >= 2 && parts.every((p) => /^[^:]{1,30}:$/.test(p));
}

/** 1, 2, 3, ...: a row counter, not codes. */
export function isCounting(values: string[]): boolean {
  const numbers = values.map(Number);
  let steps = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i] === numbers[i - 1]! + 1) steps++;
  return steps >= (numbers.length - 1) * 0.6;
}
