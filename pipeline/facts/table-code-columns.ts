import type { Candidate } from './code-cells.js';
import { type CodeFamily, codeFamily, isEmptyMark } from './code-pattern.js';
import { type ColumnBounds, columnOf } from './table-columns.js';
import { between } from './table-geometry.js';
import { isTextColumn } from './table-headers.js';
import type { Layout, TableColumn } from './table-model.js';

/** Code columns: which cells of a column are the table's codes, and which other columns hold codes too. */

/** The family a column's cells share, and the cells that belong to it. */
export function dominantFamily(cells: Candidate[]): { family: CodeFamily; members: Candidate[] } | undefined {
  const count = (family: CodeFamily) => cells.filter((c) => c.family === family).length;
  const alnum = count('alnum');
  // Letter-only codes ("HP", "UA") go with letter-and-digit codes where those lead, else with words.
  const word = count('word') + count('letters') + count('display');
  const number = count('number');
  if (alnum >= 2 && alnum >= word - count('letters') && alnum >= number) {
    return { family: 'alnum', members: letterAndDigitMembers(cells) };
  }
  if (word >= 2 && word + alnum >= number) {
    return { family: 'word', members: cells.filter((c) => c.family !== 'number') };
  }
  if (number >= 2) return { family: 'number', members: cells.filter((c) => c.family === 'number') };
  if (alnum === 1) return { family: 'alnum', members: cells.filter((c) => c.family === 'alnum') };
  if (word === 1)
    return { family: 'word', members: cells.filter((c) => c.family !== 'alnum' && c.family !== 'number') };
  if (number === 1) return { family: 'number', members: cells.filter((c) => c.family === 'number') };
  return undefined;
}

/**
 * The cells of a letter-and-digit column: those codes, and letter-only cells between the first and the
 * last of them. A display's letter codes in mixed case (E9, EA, Eb, Ec: a seven-segment display shows b,
 * c, d small) go with the column's letter-and-digit codes when they share its leading letter.
 */
function letterAndDigitMembers(cells: Candidate[]): Candidate[] {
  const ys = cells.filter((c) => c.family === 'alnum').map((c) => c.seg.y);
  const inside = (c: Candidate) => c.seg.y >= Math.min(...ys) && c.seg.y <= Math.max(...ys);
  const leads = new Set(cells.filter((c) => c.family === 'alnum').map((c) => c.seg.text.trim()[0]));
  return cells.filter(
    (c) =>
      c.family === 'alnum' ||
      (c.family === 'letters' && (inside(c) || c.seg.listCode === true)) ||
      (c.family === 'display' && (inside(c) || c.seg.listCode === true) && leads.has(c.seg.text.trim()[0])),
  );
}

/** Other columns of code cells in the same family (a remote-controller code beside an outdoor display code). */
export function extraCodeColumns(
  layout: Layout,
  columns: TableColumn[],
  anchorColumn: number,
  family: CodeFamily,
): { ci: number; cells: Candidate[] }[] {
  const out: { ci: number; cells: Candidate[] }[] = [];
  columns.forEach((column, ci) => {
    if (ci === anchorColumn || column.role === 'not-code') return;
    const cells = layout.bodyLines.flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci));
    if (cells.length === 0) return;
    const coded = cells
      .map((s) => ({ seg: s, family: codeFamily(s.text) }))
      .filter((c): c is Candidate => c.family === family || (family === 'alnum' && c.family === 'letters'));
    const marks = cells.filter((s) => isEmptyMark(s.text)).length;
    if (coded.length >= 2 && coded.length + marks >= cells.length * 0.8) out.push({ ci, cells: coded });
  });
  return out;
}

/**
 * Where two code columns with text between them are the two halves of one list printed side by side: the
 * halves hold as many columns, of about the same widths. Returns the index of the right half's first
 * column.
 */
export function sideBySide(layout: Layout, columns: TableColumn[], a: number, b: number): number | undefined {
  const [c1, c2] = [Math.min(a, b), Math.max(a, b)];
  if (!between(c1, c2).some((k) => isTextColumn(layout, columns, k))) return undefined;
  const descFirst = c1 > 0 && isTextColumn(layout, columns, c1 - 1);
  const split = descFirst ? c1 + 1 : c2;
  const left = columns.slice(0, split);
  const right = columns.slice(split);
  if (left.length !== right.length) return undefined;
  const width = (c: ColumnBounds) => c.x1 - c.x0;
  // The table's outer edges come from rules or text that may reach past a half (a rule of the page, an
  // inset): the halves' outermost columns are compared loosely.
  const alike = left.every((c, i) => {
    const outer = i === 0 || i === right.length - 1;
    const slack = outer ? 0.45 : 0.25;
    return Math.abs(width(c) - width(right[i]!)) <= Math.max(width(c), width(right[i]!)) * slack;
  });
  return alike ? split : undefined;
}
