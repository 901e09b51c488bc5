import type { BundleReader } from '../bundle/reader.js';
import { collapseSpace } from '../text/normalise.js';

/** A rectangle on a page, in PDF points from the page's top-left corner (as the bundle stores them). */
export interface PageBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PageHighlight {
  document_id: string;
  page: number;
  /** Page size in PDF points: the frame of `boxes`. */
  width: number;
  height: number;
  boxes: PageBox[];
}

interface StoredBox extends PageBox {
  page: number;
}

const fold = (s: string) => collapseSpace(s).toLowerCase();

/**
 * The boxes to highlight for a text cited on a page. The bundle stores, per chunk, the boxes of its
 * lines merged into blocks (consecutive touching lines), in line order; the chunks of the page whose
 * text holds the cited text give the blocks. The cited lines are then placed within them: each block is
 * given a number of the chunk's lines in proportion to its height (one line pitch for the whole chunk),
 * and the blocks holding the cited lines are narrowed to their share. Returns null when the page is
 * unknown, an empty list when no chunk holds the text.
 */
export function highlightFor(
  reader: BundleReader,
  input: { document_id: string; page: number; text: string; chunk_id?: string },
): PageHighlight | null {
  const page = reader.page(input.document_id, input.page);
  if (!page) return null;
  const chunks = reader.chunksOnPage(input.document_id, input.page);
  const cited = citedText(input.text, chunks.map((c) => fold(c.text)).join('\n'));
  const wanted = fold(cited);
  const firstLine = fold(cited.split('\n').find((l) => l.trim()) ?? '');
  const holding = (t: string) => chunks.filter((c) => t && fold(c.text).includes(t));
  let found = holding(wanted);
  if (found.length === 0) found = holding(firstLine);
  if (found.length === 0 && input.chunk_id) found = chunks.filter((c) => c.id === input.chunk_id);
  const boxes: PageBox[] = [];
  for (const chunk of found) {
    const own = (JSON.parse(chunk.boxes_json) as StoredBox[])
      .filter((b) => b.page === input.page)
      .map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 }));
    boxes.push(...citedPart(own, chunk.text, cited));
  }
  return { document_id: input.document_id, page: input.page, width: page.width, height: page.height, boxes };
}

/**
 * The cited text as it stands on the page: a table row's excerpt labels each cell with its column header
 * ("Description: Water flow error"), and a label the page does not print before the cell is left out.
 */
function citedText(text: string, pageText: string): string {
  return text
    .split('\n')
    .map((line) => {
      const labelled = /^([^:\n]{1,60}):\s+(.+)$/.exec(line);
      return labelled && !pageText.includes(fold(line)) ? labelled[2]! : line;
    })
    .join('\n');
}

/**
 * The lines of a chunk that hold the cited lines: one after another as cited (prose), else, for the
 * cells of a table row laid over fewer or more lines than the excerpt has, the span from the first
 * line holding the first cell to the last line holding any cell close after it.
 */
function citedSpan(lines: string[], want: string[]): [number, number] | null {
  const start = citedStart(lines, want);
  if (start >= 0) return [start, start + want.length];
  const holds = (i: number) =>
    want.some((w) => lines[i]!.includes(w) || (lines[i]!.length >= 3 && w.includes(lines[i]!)));
  const first = lines.findIndex((l) => l.includes(want[0]!));
  if (first < 0) return null;
  let end = first + 1;
  for (let i = first + 1; i < lines.length && i <= end + 2; i++) if (holds(i)) end = i + 1;
  return [first, end];
}

/** The first line of `lines` from which the cited lines follow one another, or -1. */
function citedStart(lines: string[], want: string[]): number {
  for (let i = 0; i + want.length <= lines.length; i++) {
    const at = (j: number) => lines[i + j]!;
    if (want.every((w, j) => at(j) && (at(j).includes(w) || w.includes(at(j))))) return i;
  }
  return -1;
}

/** How many of `total` lines each block holds, in proportion to its height, at least one each. */
function linesPerBox(boxes: PageBox[], total: number): number[] {
  const heights = boxes.map((b) => Math.max(1, b.y1 - b.y0));
  const count = (pitch: number) => heights.map((h) => Math.max(1, Math.round(h / pitch)));
  const sum = (pitch: number) => count(pitch).reduce((a, b) => a + b, 0);
  let lo = 0.5;
  let hi = Math.max(...heights) + 1;
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) > total) lo = mid;
    else hi = mid;
  }
  const counts = count(hi);
  // Rounding can leave the sum off by a few lines: the tallest block absorbs the difference.
  const tallest = heights.indexOf(Math.max(...heights));
  counts[tallest] = Math.max(1, counts[tallest]! + total - counts.reduce((a, b) => a + b, 0));
  return counts;
}

function citedPart(boxes: PageBox[], chunkText: string, cited: string): PageBox[] {
  const lines = chunkText.split('\n').map(fold);
  const want = cited.split('\n').map(fold).filter(Boolean);
  const span = want.length ? citedSpan(lines, want) : null;
  if (!span || boxes.length === 0 || lines.length < 2) return boxes;
  const [start, end] = span;
  const counts = linesPerBox(boxes, lines.length);
  const out: PageBox[] = [];
  let first = 0;
  boxes.forEach((box, i) => {
    const n = counts[i]!;
    const from = Math.max(start, first);
    const to = Math.min(end, first + n);
    if (from < to) {
      const step = (box.y1 - box.y0) / n;
      out.push({
        x0: box.x0,
        x1: box.x1,
        y0: Math.round(box.y0 + (from - first) * step - 1),
        y1: Math.round(box.y0 + (to - first) * step + 1),
      });
    }
    first += n;
  });
  return out.length > 0 ? out : boxes;
}
