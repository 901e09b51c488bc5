/** A run of text as pdfjs reports it, in page space with the origin at the top-left (y grows down). */
export interface TextRun {
  str: string;
  x: number;
  /** Baseline, from the top of the page. */
  y: number;
  width: number;
  /** Font size in points (the text matrix scale). */
  size: number;
  font: string;
}

/** Part of a line separated from its neighbours by a gap wider than a word space: a table cell or a column. */
export interface Segment {
  text: string;
  x0: number;
  x1: number;
}

export interface Line {
  text: string;
  x0: number;
  x1: number;
  /** Baseline from the top of the page. */
  y: number;
  size: number;
  segments: Segment[];
}

/**
 * A ruling line drawn on the page (a table border or cell separator), axis-aligned, in the same frame as
 * the text: horizontal when y0 === y1, vertical when x0 === x1.
 */
export interface Rule {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface Box {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PageLayout {
  /** 1-based PDF page index. */
  page: number;
  width: number;
  height: number;
  /** Body lines in reading order (columns resolved, running headers and footers removed). */
  lines: Line[];
  /** Running headers, footers and page folios: kept for citations' context, out of chunks. */
  margins: Line[];
  /** Text turned 90/270 degrees that is not the page's dominant direction (side tabs, vertical labels). */
  sideText: Line[];
  /** Whether the page's dominant text direction is rotated (a landscape table printed on a portrait page). */
  rotated: boolean;
  /** Quarter turns that map page space into this reading frame (0 for an upright page). */
  turn?: 0 | 1 | 2 | 3;
  /** Ruling lines, read only for pages that need them (tables): undefined when not read. */
  rules?: Rule[];
}

export function lineBox(page: number, line: Line): Box {
  return { page, x0: line.x0, y0: line.y - line.size, x1: line.x1, y1: line.y + line.size * 0.25 };
}

/** The text of a page as stored in the bundle: what citations and excerpts are checked against. */
export function pageText(layout: PageLayout): string {
  return [...layout.margins.filter((l) => l.y < layout.height / 2), ...layout.lines, ...layout.sideText]
    .concat(layout.margins.filter((l) => l.y >= layout.height / 2))
    .map((l) => l.text)
    .join('\n');
}
