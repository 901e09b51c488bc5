import type { Box, Line, PageLayout } from '../layout/types.js';
import { lineBox } from '../layout/types.js';
import type { ChunkRecord } from '../types.js';
import type { Heading } from './headings.js';

/** Chunks are cut at headings, at page ends (so a hit cites the page its text stands on) and at this size. */
const MAX_CHARS = 1400;

export function chunkId(documentId: string, page: number, n: number): string {
  return `${documentId}.p${page}.${n}`;
}

/**
 * Cuts a document into chunks that follow its structure: each chunk belongs to the section path of the
 * headings above it, stays on one page, and keeps the line boxes needed to highlight it on the snapshot.
 */
export function buildChunks(documentId: string, pages: PageLayout[], headings: Heading[]): ChunkRecord[] {
  const headingAt = new Map<string, Heading>();
  for (const h of headings) headingAt.set(`${h.page}:${h.lineIndex}`, h);
  const stack: Heading[] = [];
  const chunks: ChunkRecord[] = [];
  for (const page of pages) {
    let n = 0;
    let lines: Line[] = [];
    let path: string[] = stack.map((h) => h.title);
    const flush = () => {
      if (lines.length === 0) return;
      const text = lines.map((l) => l.text).join('\n');
      if (text.trim().length > 0) {
        n++;
        chunks.push({
          id: chunkId(documentId, page.page, n),
          pageStart: page.page,
          pageEnd: page.page,
          sectionPath: path,
          kind: isTable(lines) ? 'table' : 'text',
          text,
          boxes: mergeBoxes(lines.map((l) => lineBox(page.page, l))),
        });
      }
      lines = [];
    };
    page.lines.forEach((line, index) => {
      const heading = headingAt.get(`${page.page}:${index}`);
      if (heading) {
        flush();
        while (stack.length && stack[stack.length - 1]!.level >= heading.level) stack.pop();
        stack.push(heading);
        path = stack.map((h) => h.title);
      }
      const size = lines.reduce((s, l) => s + l.text.length + 1, 0);
      if (size + line.text.length > MAX_CHARS) flush();
      lines.push(line);
    });
    flush();
  }
  return chunks;
}

function isTable(lines: Line[]): boolean {
  const multi = lines.filter((l) => l.segments.length >= 3).length;
  return lines.length >= 3 && multi / lines.length >= 0.5;
}

/** Joins the boxes of consecutive lines that touch vertically and overlap horizontally into blocks. */
function mergeBoxes(boxes: Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes) {
    const last = out[out.length - 1];
    if (last && b.y0 - last.y1 < 6 && b.x0 < last.x1 && b.x1 > last.x0) {
      last.x0 = Math.min(last.x0, b.x0);
      last.x1 = Math.max(last.x1, b.x1);
      last.y1 = Math.max(last.y1, b.y1);
    } else {
      out.push({ ...b });
    }
  }
  return out.map((b) => ({
    page: b.page,
    x0: Math.round(b.x0),
    y0: Math.round(b.y0),
    x1: Math.round(b.x1),
    y1: Math.round(b.y1),
  }));
}
