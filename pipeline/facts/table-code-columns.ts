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
 * c, d small) go with the column's letter-and-digit codes when they share its leading letter. Letter and
 * display codes that go on in the same column before the first or after the last letter-and-digit code,
 * each within the column's own row pitch of the one before (E1, E3, E4, then EF, Fb, FB), go with it
 * too, whatever their leading letter: the pitch of the letter-and-digit codes, not the letters, says
 * they are the table's rows.
 */
function letterAndDigitMembers(cells: Candidate[]): Candidate[] {
  const codes = cells.filter((c) => c.family === 'alnum');
  const ys = codes.map((c) => c.seg.y);
  const inside = (c: Candidate) => c.seg.y >= Math.min(...ys) && c.seg.y <= Math.max(...ys);
  const leads = new Set(codes.map((c) => c.seg.text.trim()[0]));
  const continuing = continuingLetterCodes(cells, codes);
  return cells.filter(
    (c) =>
      c.family === 'alnum' ||
      continuing.has(c) ||
      (c.family === 'letters' && (inside(c) || c.seg.listCode === true)) ||
      (c.family === 'display' && (inside(c) || c.seg.listCode === true) && leads.has(c.seg.text.trim()[0])),
  );
}

/** How far, in row pitches of the column's letter-and-digit codes, the next code of a run may stand. */
const CONTINUING_PITCH = 1.6;

/**
 * Letter and display codes that continue a column of letter-and-digit codes upwards or downwards: the
 * nearest first, each no further from the one before than CONTINUING_PITCH times the widest gap between
 * two consecutive letter-and-digit codes. Nothing without at least two of those (no pitch to go by).
 */
function continuingLetterCodes(cells: Candidate[], codes: Candidate[]): Set<Candidate> {
  const out = new Set<Candidate>();
  if (codes.length < 2) return out;
  const ys = codes.map((c) => c.seg.y).sort((a, b) => a - b);
  let pitch = 0;
  for (let i = 1; i < ys.length; i++) pitch = Math.max(pitch, ys[i]! - ys[i - 1]!);
  if (pitch <= 0) return out;
  const letters = cells.filter((c) => c.family === 'letters' || c.family === 'display');
  const walk = (
    from: number,
    next: (c: Candidate) => boolean,
    order: (a: Candidate, b: Candidate) => number,
  ) => {
    let at = from;
    for (const c of letters.filter(next).sort(order)) {
      if (Math.abs(c.seg.y - at) > pitch * CONTINUING_PITCH) break;
      out.add(c);
      at = c.seg.y;
    }
  };
  const first = ys[0]!;
  const last = ys[ys.length - 1]!;
  walk(
    last,
    (c) => c.seg.y > last,
    (a, b) => a.seg.y - b.seg.y,
  );
  walk(
    first,
    (c) => c.seg.y < first,
    (a, b) => b.seg.y - a.seg.y,
  );
  return out;
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
