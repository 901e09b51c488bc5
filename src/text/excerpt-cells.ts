import { containsVerbatim } from './normalise.js';

/**
 * One cell of a table row as a reader sees it: the column's header (when the table has one) and the
 * cell's lines top to bottom, each as printed.
 */
export interface ExcerptCell {
  label: string | null;
  lines: string[];
  /** The lines joined as running text (see joinLines). */
  text: string;
}

/** Conjunctions after which a hyphen at a line end stands for a word left out ("inlaat- en uitlaatwater"). */
const AFTER_ELLIPSIS = new Set(['and', 'or', 'und', 'oder', 'et', 'ou', 'y', 'o', 'e', 'en', 'of']);

/**
 * Joins wrapped lines into running text. A hyphen at a line end before a lower-case word is a soft
 * hyphenation and goes ("Pro-" + "blem"), unless the manual prints the hyphenated word unbroken
 * elsewhere (`hyphenated("general-purpose")`) or the next word is a conjunction ("inlaat- en
 * uitlaatwater"); any other line break becomes a space.
 */
export function joinLines(lines: string[], hyphenated: (word: string) => boolean = () => false): string {
  let out = '';
  for (const line of lines) {
    if (!out) {
      out = line;
      continue;
    }
    const head = /(\p{L}+)-$/u.exec(out);
    const next = /^(\p{Ll}+)/u.exec(line);
    if (head && next) {
      if (AFTER_ELLIPSIS.has(next[1]!)) out = `${out} ${line}`;
      else if (hyphenated(`${head[1]}-${next[1]}`.toLowerCase())) out = out + line;
      else out = out.slice(0, -1) + line;
    } else out = `${out} ${line}`;
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** The hyphenated words a text prints unbroken, lower-cased: what joinLines keeps hyphens for. */
export function hyphenatedWords(text: string): Set<string> {
  return new Set([...text.matchAll(/\p{L}+-\p{L}+/gu)].map((m) => m[0].toLowerCase()));
}

/** Text with white space and hyphens taken out: a cell's text and its lines must agree on it. */
function squash(text: string): string {
  return text.replace(/[\s\-\u2010\u2011]+/g, '');
}

/** The excerpt of a table row: one line per cell, in column order, "Header: text" where there is a header. */
export function cellsText(cells: ExcerptCell[]): string {
  return cells
    .map((c) => {
      return c.label ? `${c.label}: ${c.text}` : c.text;
    })
    .join('\n');
}

/**
 * Whether a row excerpt stands on its pages: every line of every cell verbatim (white space aside) on
 * one of the pages the row covers, each cell's text its lines joined (only white space and line-end
 * hyphens may differ), and the excerpt exactly the cells' text, so that nothing is shown that was not
 * checked. The header labels name the columns; they are not claimed as the row's words.
 */
export function cellsStand(excerpt: string, cells: ExcerptCell[], pageTexts: string[]): boolean {
  if (cells.length === 0 || cellsText(cells) !== excerpt) return false;
  return cells.every(
    (c) =>
      c.lines.length > 0 &&
      squash(c.text) === squash(c.lines.join('')) &&
      c.lines.every((line) => pageTexts.some((text) => containsVerbatim(text, line))),
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
      const cell = c as { label?: unknown; lines?: unknown; text?: unknown };
      if (!Array.isArray(cell.lines) || !cell.lines.every((l) => typeof l === 'string')) return null;
      if (cell.label !== null && typeof cell.label !== 'string') return null;
      if (typeof cell.text !== 'string') return null;
      cells.push({ label: cell.label as string | null, lines: cell.lines as string[], text: cell.text });
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
