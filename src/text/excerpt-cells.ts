import { containsVerbatim } from './normalise.js';

/**
 * One cell of a table row as a reader sees it: the column's header (when the table has one) and the
 * cell's lines top to bottom, each as printed.
 */
export interface ExcerptCell {
  label: string | null;
  lines: string[];
}

/**
 * Joins wrapped lines into running text: a hyphen at a line end before a lower-case letter is a soft
 * hyphenation and goes ("Pro-" + "blem"); any other line break becomes a space.
 */
export function joinLines(lines: string[]): string {
  let out = '';
  for (const line of lines) {
    if (!out) out = line;
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out = `${out} ${line}`;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The excerpt of a table row: one line per cell, in column order, "Header: text" where there is a header. */
export function cellsText(cells: ExcerptCell[]): string {
  return cells
    .map((c) => {
      const text = joinLines(c.lines);
      return c.label ? `${c.label}: ${text}` : text;
    })
    .join('\n');
}

/**
 * Whether a row excerpt stands on its pages: every line of every cell verbatim (white space aside) on
 * one of the pages the row covers, and the excerpt is exactly the cells' text, so that nothing is shown
 * that was not checked. The header labels name the columns; they are not claimed as the row's words.
 */
export function cellsStand(excerpt: string, cells: ExcerptCell[], pageTexts: string[]): boolean {
  if (cells.length === 0 || cellsText(cells) !== excerpt) return false;
  return cells.every(
    (c) =>
      c.lines.length > 0 && c.lines.every((line) => pageTexts.some((text) => containsVerbatim(text, line))),
  );
}

/** Parses the stored cells of a row; null when the row has none (a prose excerpt) or they do not parse. */
export function parseCells(json: string | null | undefined): ExcerptCell[] | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as unknown;
    if (!Array.isArray(value)) return null;
    const cells: ExcerptCell[] = [];
    for (const c of value) {
      const cell = c as { label?: unknown; lines?: unknown };
      if (!Array.isArray(cell.lines) || !cell.lines.every((l) => typeof l === 'string')) return null;
      if (cell.label !== null && typeof cell.label !== 'string') return null;
      cells.push({ label: cell.label as string | null, lines: cell.lines as string[] });
    }
    return cells;
  } catch {
    return null;
  }
}

/**
 * Whether an error-code row's excerpt may be served: a row excerpt cell by cell on the row's pages, a
 * prose excerpt verbatim on its page.
 */
export function excerptStands(
  row: { excerpt: string; excerpt_cells_json?: string | null; page: number; pages_json: string },
  pageText: (page: number) => string | undefined,
): boolean {
  if (row.excerpt_cells_json) {
    const cells = parseCells(row.excerpt_cells_json);
    if (!cells) return false;
    let pages: number[];
    try {
      pages = JSON.parse(row.pages_json) as number[];
    } catch {
      pages = [row.page];
    }
    const texts = [...new Set([row.page, ...pages])]
      .map(pageText)
      .filter((t): t is string => t !== undefined);
    return cellsStand(row.excerpt, cells, texts);
  }
  const text = pageText(row.page);
  return text !== undefined && containsVerbatim(text, row.excerpt);
}
