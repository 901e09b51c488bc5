import type { PageLayout } from '../layout/types.js';

/** A cell-sized piece of text with its position and the index of its line in the page's reading order. */
export interface GridSegment {
  text: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
  /** Index into PageLayout.lines. */
  line: number;
  /** The code split off the start of a list line ("LA: PWM fault"): a code by the list's own shape. */
  listCode?: boolean;
}

/** Segments sharing a baseline, left to right, whatever reading order the layout chose for them. */
export interface GridLine {
  y: number;
  size: number;
  segments: GridSegment[];
}

/**
 * The page's body text as geometric lines: the layout's reading order may have split a line between two
 * text columns, but a table is read by position, so segments on one baseline are put back together.
 */
export function pageGrid(page: PageLayout): GridLine[] {
  const segments: GridSegment[] = [];
  page.lines.forEach((line, index) => {
    for (const s of line.segments) {
      segments.push({ text: s.text, x0: s.x0, x1: s.x1, y: line.y, size: line.size, line: index });
    }
  });
  segments.sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: GridLine[] = [];
  for (const s of segments) {
    const last = out[out.length - 1];
    if (last && Math.abs(s.y - last.y) <= Math.max(1, Math.min(s.size, last.size) * 0.35)) {
      last.segments.push(s);
      last.size = Math.max(last.size, s.size);
    } else {
      out.push({ y: s.y, size: s.size, segments: [s] });
    }
  }
  for (const line of out) line.segments.sort((a, b) => a.x0 - b.x0);
  return out;
}
