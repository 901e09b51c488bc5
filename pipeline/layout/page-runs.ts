import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextRun } from './types.js';

export interface OrientedRuns {
  /** Page size in the frame of the dominant text direction. */
  width: number;
  height: number;
  rotated: boolean;
  /** Quarter turns of the dominant text direction: what maps page space into the reading frame. */
  turn: Quarter;
  /** Runs in the dominant direction, in its reading frame. */
  main: TextRun[];
  /** Runs in other directions, each mapped to its own reading frame. */
  side: TextRun[];
}

export type Quarter = 0 | 1 | 2 | 3;

/**
 * Reads a page's text runs and maps them into a top-left origin frame. Pages whose text mostly runs
 * vertically (landscape tables on portrait pages) are turned so that their text reads left to right.
 */
export async function readPageRuns(page: PDFPageProxy): Promise<OrientedRuns> {
  const viewport = page.getViewport({ scale: 1 });
  const [vx0, vy0, vx1, vy1] = page.view as [number, number, number, number];
  const content = await page.getTextContent({ includeMarkedContent: false });
  const byQuarter = new Map<Quarter, { run: TextRun; chars: number }[]>();
  for (const item of content.items) {
    if (!('str' in item)) continue;
    const [a, b, c, d, e, f] = item.transform as number[];
    const quarter = quarterOf(a!, b!);
    const size = Math.hypot(c!, d!) || Math.hypot(a!, b!);
    const run = toFrame(quarter, e! - vx0, f! - vy0, vx1 - vx0, vy1 - vy0);
    const entry = {
      run: { str: item.str, x: run.x, y: run.y, width: item.width || 0, size, font: item.fontName },
      chars: item.str.trim().length,
    };
    // Rotated runs report their advance in `height` rather than `width` in some producers.
    if (quarter % 2 === 1 && !item.width && item.height) entry.run.width = item.height;
    const list = byQuarter.get(quarter) ?? [];
    list.push(entry);
    byQuarter.set(quarter, list);
  }
  let dominant: Quarter = 0;
  let best = -1;
  for (const [q, list] of byQuarter) {
    const chars = list.reduce((n, e) => n + e.chars, 0);
    if (chars > best) {
      best = chars;
      dominant = q;
    }
  }
  const pageW = vx1 - vx0;
  const pageH = vy1 - vy0;
  const turned = dominant % 2 === 1;
  return {
    width: turned ? pageH : viewport.width,
    height: turned ? pageW : viewport.height,
    rotated: dominant !== 0,
    turn: dominant,
    main: (byQuarter.get(dominant) ?? []).map((e) => e.run),
    side: [...byQuarter.entries()]
      .filter(([q]) => q !== dominant)
      .flatMap(([, list]) => list.map((e) => e.run)),
  };
}

function quarterOf(a: number, b: number): Quarter {
  const angle = Math.atan2(b, a);
  const q = Math.round(angle / (Math.PI / 2));
  return (((q % 4) + 4) % 4) as Quarter;
}

/** Maps a PDF point (origin bottom-left) to the reading frame of text turned by `quarter` * 90 degrees. */
export function toFrame(
  quarter: Quarter,
  x: number,
  y: number,
  w: number,
  h: number,
): { x: number; y: number } {
  switch (quarter) {
    case 0:
      return { x, y: h - y };
    case 1: // text runs bottom to top
      return { x: y, y: x };
    case 2:
      return { x: w - x, y };
    case 3: // text runs top to bottom
      return { x: h - y, y: w - x };
  }
}
