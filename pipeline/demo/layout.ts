/** Stacks boxes into full-width and two-column regions over A4 pages. */
import type { Box } from './boxes.js';
import { COLUMN_WIDTH, PAGE } from './page-geometry.js';

export type Region =
  | { kind: 'full'; boxes: Box[] }
  | { kind: 'columns'; boxes: Box[] }
  | { kind: 'page_break' };

export interface Placement {
  box: Box;
  x: number;
  top: number;
}

export interface TocEntry {
  level: number;
  number?: string;
  title: string;
  /** 1-based page number in the final PDF. */
  page: number;
}

export interface BodyLayout {
  pages: Placement[][];
  toc: TocEntry[];
}

const HEIGHT = PAGE.contentBottom - PAGE.contentTop;

/** Height a chain of keep-with-next boxes needs, starting at `i`, up to and including the first free box. */
function chainHeight(boxes: Box[], i: number): number {
  let h = 0;
  for (let k = i; k < boxes.length; k++) {
    const box = boxes[k]!;
    h += (k === i ? 0 : box.spaceBefore) + box.height;
    if (!box.keepWithNext) break;
  }
  return h;
}

/** Boxes from `start` that fit in a column of height `limit`, never ending on a keep-with-next box. */
function fill(boxes: Box[], start: number, limit: number): { end: number; height: number } {
  let height = 0;
  let end = start;
  const heights: number[] = [];
  while (end < boxes.length) {
    const box = boxes[end]!;
    const add = (end === start ? 0 : box.spaceBefore) + box.height;
    if (height + add > limit) break;
    height += add;
    heights.push(height);
    end++;
  }
  while (end < boxes.length && end - 1 > start && boxes[end - 1]!.keepWithNext) {
    end--;
    heights.pop();
  }
  return { end, height: heights[heights.length - 1] ?? 0 };
}

export function layoutBody(regions: Region[], firstPage: number): BodyLayout {
  const pages: Placement[][] = [[]];
  const toc: TocEntry[] = [];
  let y: number = PAGE.contentTop;
  const current = () => pages[pages.length - 1]!;
  const atTop = () => y === PAGE.contentTop;
  const newPage = () => {
    pages.push([]);
    y = PAGE.contentTop;
  };
  const place = (box: Box, x: number, top: number) => {
    current().push({ box, x, top });
    if (box.toc) toc.push({ ...box.toc, page: firstPage + pages.length - 1 });
  };

  const full = (boxes: Box[]) => {
    boxes.forEach((box, i) => {
      if (box.breakBefore && !(atTop() && current().length === 0)) newPage();
      let before = atTop() ? 0 : box.spaceBefore;
      const need = box.keepWithNext ? chainHeight(boxes, i) : box.height;
      if (!atTop() && y + before + Math.min(need, HEIGHT) > PAGE.contentBottom) {
        newPage();
        before = 0;
        if (box.continuation) {
          place(box.continuation, PAGE.left, y);
          y += box.continuation.height;
        }
      }
      place(box, PAGE.left, y + before);
      y += before + box.height;
    });
  };

  const columns = (boxes: Box[]) => {
    const xs = [PAGE.left, PAGE.left + COLUMN_WIDTH + PAGE.columnGap] as const;
    let i = 0;
    let top: number = atTop() ? y : y + 8;
    while (i < boxes.length) {
      const limit = PAGE.contentBottom - top;
      const first = fill(boxes, i, limit);
      const second = fill(boxes, first.end, limit);
      let cut = first.end;
      let end = second.end;
      if (second.end === boxes.length) {
        // Last page of the region: balance the two columns.
        const total = fill(boxes, i, Number.POSITIVE_INFINITY).height;
        for (let l = Math.ceil(total / 2); l <= limit; l += 1) {
          const a = fill(boxes, i, l);
          const b = fill(boxes, a.end, l);
          if (b.end === boxes.length) {
            cut = a.end;
            end = b.end;
            break;
          }
        }
      } else if (first.end === i) {
        if (top === PAGE.contentTop) throw new Error('a box is taller than a column');
        newPage();
        top = y;
        continue;
      }
      let colBottom = top;
      [
        [i, cut],
        [cut, end],
      ].forEach(([from, to], col) => {
        let cy = top;
        for (let k = from!; k < to!; k++) {
          const box = boxes[k]!;
          if (k > from!) cy += box.spaceBefore;
          place(box, xs[col as 0 | 1], cy);
          cy += box.height;
        }
        colBottom = Math.max(colBottom, cy);
      });
      i = end;
      if (i < boxes.length) {
        newPage();
        top = y;
      } else {
        y = colBottom;
      }
    }
  };

  for (const region of regions) {
    if (region.kind === 'page_break') {
      if (!(atTop() && current().length === 0)) newPage();
    } else if (region.kind === 'full') full(region.boxes);
    else columns(region.boxes);
  }
  if (current().length === 0 && pages.length > 1) pages.pop();
  return { pages, toc };
}
