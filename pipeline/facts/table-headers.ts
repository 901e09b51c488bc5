import { codeFamily } from './code-pattern.js';
import { headerRole } from './header-words.js';
import type { GridLine } from './page-grid.js';
import { anyOf, readerWords } from './reader-words.js';
import { columnOf } from './table-columns.js';
import { foldText } from './table-geometry.js';
import type { CodeTable, Layout, TableColumn } from './table-model.js';
import { onlyLabels } from './table-rows.js';

/**
 * Header roles: which column of a table holds the codes, the fault's name, its causes and its remedies,
 * read from the header words where there are some and from the cells' text where there are none.
 */

/** A parameter, register or model table holds codes of another kind: these headers rule a table out. */
const NOT_A_FAULT_TABLE =
  /\b(?:setting value|settings? range|default|factory setting|werkseinstellung|einstellbereich|valeur par defaut|reglage usine|valor por defecto|ajuste de fabrica|fabrieksinstelling|register|modbus address|read\/write|r\/w)\b/;

/** Whether a table's header text says it lists settings, registers or models rather than faults. */
export function namesAnotherKindOfTable(headerText: string): boolean {
  return NOT_A_FAULT_TABLE.test(foldText(headerText));
}

/** A line of short cells naming a code column and at least one other column: a (repeated) table header. */
export function isHeaderLike(line: GridLine): boolean {
  if (line.segments.length < 2) return false;
  if (line.segments.some((s) => s.text.split(/\s+/).length > 4 || /[.:;]$|^[•·▪-]/.test(s.text.trim())))
    return false;
  // Header cells start with a capital; cells that start small go on from the line above (a wrapped row).
  if (line.segments.some((s) => /^\p{Ll}/u.test(s.text.trim()))) return false;
  const roles = line.segments.map((s) => headerRole(s.text)).filter((r) => r && r !== 'not-code');
  return roles.includes('code') && new Set(roles).size >= 2;
}

/**
 * Each column with its header text and the role that text gives it. A column without header text on a
 * page the table carries on to takes the header of the open table's column at the same place.
 */
export function nameColumns(layout: Layout, open: CodeTable | undefined): TableColumn[] {
  const headers = layout.columns.map(() => [] as string[]);
  const width = layout.x1 - layout.x0;
  for (const line of layout.headerLines) {
    for (const segment of line.segments) {
      // A caption across the table names no column.
      if (segment.x1 - segment.x0 > width * 0.6) continue;
      const center = (segment.x0 + segment.x1) / 2;
      const index = layout.columns.findIndex((c) => center >= c.x0 - 1 && center < c.x1 + 1);
      headers[index >= 0 ? index : columnOf(layout.columns, segment.x0)]!.push(segment.text);
    }
  }
  return layout.columns.map((column, i) => {
    let header = headers[i]!.join(' ').replace(/\s+/g, ' ').trim();
    if (!header && open) {
      const same = open.columns.find(
        (o) => Math.abs(o.x0 - column.x0) <= 8 && Math.abs(o.x1 - column.x1) <= 12,
      );
      header = same?.header ?? '';
    }
    // Prose above a table is no header: header cells are a few words.
    const role = header.split(/\s+/).length <= 8 ? headerRole(header) : undefined;
    return { ...column, header, role };
  });
}

export interface Roles {
  titleColumn: number | undefined;
  causeColumns: number[];
  stepColumns: number[];
}

/**
 * The description is the column its header calls so; without such a header, the nearest text column to
 * the right of the codes (numbers and marks do not count), else the nearest to the left. Columns headed as
 * causes or remedies give the causes and the steps; unlabelled text columns to the right of the title are
 * causes when they read as statements and steps when they read as instructions.
 */
export function assignRoles(columns: TableColumn[], codeColumns: number[], layout: Layout): Roles {
  const codeSet = new Set(codeColumns);
  const textual = columns.map((_, ci) => isTextColumn(layout, columns, ci));
  const headedTitle = columns.some((c, ci) => c.role === 'title' && !codeSet.has(ci) && textual[ci]);
  // A code with its name printed under it, in the code cell: the name is the title, and the columns
  // beside it keep the roles their headers give them.
  const named = !headedTitle && namesUnderCodes(layout, columns, codeColumns[0]!);
  const titleColumn = named ? codeColumns[0] : titleColumnOf(columns, codeColumns, textual);
  const causeColumns: number[] = [];
  const stepColumns: number[] = [];
  // Where the header names the columns, an unnamed one (a status, a location) is neither cause nor step.
  const headed = columns.filter((c) => c.role !== undefined).length >= 2;
  columns.forEach((column, ci) => {
    if (ci === titleColumn || codeSet.has(ci) || !textual[ci]) return;
    if (column.role === 'cause') causeColumns.push(ci);
    else if (column.role === 'step') stepColumns.push(ci);
    else if (column.role === undefined && !headed && titleColumn !== undefined && ci > titleColumn) {
      if (INSTRUCTION.test(columnText(layout, columns, ci))) stepColumns.push(ci);
      else causeColumns.push(ci);
    }
  });
  return { titleColumn, causeColumns, stepColumns };
}

/** The most lines a fault's name under its code may take (a narrow code column wraps it over three or four). */
const NAME_LINES = 4;

/**
 * Whether the code cells hold the fault's name under the code: in half the rows and two at least, one to
 * NAME_LINES lines of words (no code) in the code cell below the code's own line. Cards of "label: value"
 * lines (code-cards.ts), whose values stand under the code beside a column of labels, are no names.
 */
function namesUnderCodes(layout: Layout, columns: TableColumn[], codeColumn: number): boolean {
  const named = layout.bands.filter((band) => {
    const inBand = layout.bodyLines.filter((l) => l.y > band.top && l.y < band.bottom);
    const under = inBand.filter(
      (l) =>
        l.y > band.anchorY + 0.5 &&
        l.segments.some(
          (s) =>
            columnOf(columns, s.x0) === codeColumn &&
            /\p{L}{3}/u.test(s.text) &&
            codeFamily(s.text.trim()) === undefined,
        ),
    );
    if (under.length === 0 || under.length > NAME_LINES) return false;
    const labels = columns.some(
      (_, ci) =>
        ci !== codeColumn &&
        onlyLabels(
          inBand
            .flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci))
            .map((s) => s.text)
            .join(' '),
        ),
    );
    return !labels;
  }).length;
  return named >= Math.max(2, layout.bands.length * 0.5);
}

/** The column headed as the fault's name nearest the codes; else the nearest usable text column. */
function titleColumnOf(
  columns: TableColumn[],
  codeColumns: number[],
  textual: boolean[],
): number | undefined {
  const codeSet = new Set(codeColumns);
  const lastCode = Math.max(...codeColumns);
  const firstCode = Math.min(...codeColumns);
  const distance = (ci: number) => (ci > lastCode ? ci - lastCode : firstCode - ci + 0.5);
  const titled = columns
    .map((column, ci) => ({ column, ci }))
    .filter(({ column, ci }) => column.role === 'title' && !codeSet.has(ci) && textual[ci])
    .sort((a, b) => distance(a.ci) - distance(b.ci));
  if (titled[0]) return titled[0].ci;
  const usable = (ci: number) =>
    !codeSet.has(ci) && textual[ci] && columns[ci]!.role !== 'step' && columns[ci]!.role !== 'part';
  for (let ci = lastCode + 1; ci < columns.length; ci++) {
    if (codeSet.has(ci)) break;
    if (usable(ci)) return ci;
  }
  for (let ci = firstCode - 1; ci >= 0; ci--) {
    if (codeSet.has(ci)) break;
    if (usable(ci)) return ci;
  }
  return undefined;
}

function columnText(layout: Layout, columns: TableColumn[], ci: number): string {
  return layout.bodyLines
    .flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci))
    .map((s) => s.text)
    .join(' ');
}

/** Imperative openings of checks and remedies, in the corpus languages. */
const INSTRUCTION = new RegExp(
  String.raw`(?:^|[.•]\s*|\d[.)]\s*)(?:${anyOf(readerWords.instructions)})\b`,
  'i',
);

/** A column whose cells hold words (not codes, numbers or marks) in at least a third of the rows. */
export function isTextColumn(layout: Layout, columns: TableColumn[], ci: number): boolean {
  const perRow = layout.bands.map((band) =>
    layout.bodyLines
      .filter((l) => l.y > band.top && l.y < band.bottom)
      .flatMap((l) => l.segments.filter((s) => columnOf(columns, s.x0) === ci))
      .map((s) => s.text)
      .join(' '),
  );
  const filled = perRow.filter((t) => t.trim().length > 0);
  const wordy = filled.filter((t) => /\p{L}{3}/u.test(t) && codeFamily(t) === undefined);
  return wordy.length >= Math.max(1, layout.bands.length * 0.3);
}
