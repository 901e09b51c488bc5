import type { CodeFamily } from './code-pattern.js';
import type { ColumnRole } from './header-words.js';
import type { GridLine, GridSegment } from './page-grid.js';
import type { ColumnBounds } from './table-columns.js';

/** The types of the fault-table reader: a table's columns and rows, and the layout they are read from. */

export interface TableColumn extends ColumnBounds {
  header: string;
  role: ColumnRole | undefined;
}

export interface TableRow {
  page: number;
  /** The codes the row defines, as printed (a row may carry a code in more than one code column). */
  codes: string[];
  /** Baseline of the row's first code: where the definition stands. */
  anchorY: number;
  top: number;
  bottom: number;
  /** Segments per column index, top to bottom. */
  cells: GridSegment[][];
  /** The row's text continued at the top of the following page, when a page break splits it. */
  continued: { page: number; cells: GridSegment[][] } | null;
}

export interface CodeTable {
  /** Pages the table covers, in order. */
  pages: number[];
  /** Horizontal extent on its first page. */
  x0: number;
  x1: number;
  columns: TableColumn[];
  codeColumns: number[];
  titleColumn: number | undefined;
  causeColumns: number[];
  stepColumns: number[];
  family: CodeFamily;
  rows: TableRow[];
  /** Cells at the top of this page that finish the last row of the table carried over from the page before. */
  carried?: GridSegment[][];
}

/** Row bounds of one code, and the baseline of that code. */
export interface RowBand {
  top: number;
  bottom: number;
  anchorY: number;
}

/** Where a table's rows and columns lie on one page, before its columns are named. */
export interface Layout {
  x0: number;
  x1: number;
  /** Row bounds per anchor. */
  bands: RowBand[];
  headerLines: GridLine[];
  bodyLines: GridLine[];
  columns: ColumnBounds[];
  /** Whether vertical rules bound the columns. */
  ruled: boolean;
  /** Font size of the code cells. */
  size: number;
}

/** A horizontal window a layout is confined to (one half of a list printed side by side). */
export interface Limit {
  x0?: number;
  x1?: number;
}

/** Two tables with the same column widths: one table carried over a page (margins may differ). */
export function compatible(a: TableColumn[] | ColumnBounds[], b: ColumnBounds[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((c, i) => Math.abs(c.x1 - c.x0 - (b[i]!.x1 - b[i]!.x0)) <= 8 || i === a.length - 1);
}
