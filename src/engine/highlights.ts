import type { BundleReader } from '../bundle/reader.js';
import type { ChunkRow } from '../bundle/schema.js';
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
 * lines merged into blocks; the chunks of the page whose text holds the cited text give the blocks.
 * When a chunk is one block (a table, a paragraph), the block is narrowed to the cited lines by their
 * position among the chunk's lines: lines of one block are evenly spaced closely enough for that.
 * Returns null when the page is unknown, an empty list when no chunk holds the text.
 */
export function highlightFor(
  reader: BundleReader,
  input: { document_id: string; page: number; text: string; chunk_id?: string },
): PageHighlight | null {
  const page = reader.page(input.document_id, input.page);
  if (!page) return null;
  const chunks = reader.db
    .prepare('SELECT * FROM chunks WHERE document_id = ? AND page_start <= ? AND page_end >= ? ORDER BY id')
    .all(input.document_id, input.page, input.page) as ChunkRow[];
  const wanted = fold(input.text);
  const firstLine = fold(input.text.split('\n').find((l) => l.trim()) ?? '');
  const holding = (t: string) => chunks.filter((c) => t && fold(c.text).includes(t));
  let found = holding(wanted);
  if (found.length === 0) found = holding(firstLine);
  if (found.length === 0 && input.chunk_id) found = chunks.filter((c) => c.id === input.chunk_id);
  const boxes: PageBox[] = [];
  for (const chunk of found) {
    const own = (JSON.parse(chunk.boxes_json) as StoredBox[]).filter((b) => b.page === input.page);
    if (own.length === 1) boxes.push(narrow(own[0]!, chunk.text, input.text));
    else boxes.push(...own.map(({ x0, y0, x1, y1 }) => ({ x0, y0, x1, y1 })));
  }
  return { document_id: input.document_id, page: input.page, width: page.width, height: page.height, boxes };
}

/** The part of a one-block chunk's box that the cited lines take, by their line positions. */
function narrow(box: StoredBox, chunkText: string, cited: string): PageBox {
  const lines = chunkText.split('\n').map(fold);
  const want = cited.split('\n').map(fold).filter(Boolean);
  const whole = { x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1 };
  if (want.length === 0 || lines.length < 2) return whole;
  for (let i = 0; i + want.length <= lines.length; i++) {
    const at = (j: number) => lines[i + j]!;
    if (want.every((w, j) => at(j) && (at(j).includes(w) || w.includes(at(j))))) {
      const step = (box.y1 - box.y0) / lines.length;
      return {
        x0: box.x0,
        x1: box.x1,
        y0: Math.round(box.y0 + i * step - 1),
        y1: Math.round(box.y0 + (i + want.length) * step + 1),
      };
    }
  }
  return whole;
}
