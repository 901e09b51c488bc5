import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, OPS, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_LIMITS } from '../pdf/limits.js';
import { type Matrix, multiply } from './matrix.js';
import { type Quarter, toFrame } from './page-runs.js';
import type { PageLayout, Rule } from './types.js';

const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** A drawn segment or rectangle edge counts as a rule from this length on (points). */
const MIN_LENGTH = 6;
/** Thinner filled rectangles are drawn rules; thicker ones are cell backgrounds whose edges bound cells. */
const THIN = 3;
/** How far from axis-aligned a segment may be (points over its length) and still count. */
const SKEW = 0.8;

// pdfjs's path encoding inside constructPath (DrawOPS).
const MOVE = 0;
const LINE = 1;
const CURVE = 2;
const QUAD = 3;
const CLOSE = 4;

const PAINTS = new Set<number>([
  OPS.stroke,
  OPS.closeStroke,
  OPS.fill,
  OPS.eoFill,
  OPS.fillStroke,
  OPS.eoFillStroke,
  OPS.closeFillStroke,
  OPS.closeEOFillStroke,
]);

/**
 * Reads the ruling lines of a page: stroked horizontal and vertical segments, thin filled rectangles (how
 * word processors draw borders), and the edges of filled cell rectangles. They are returned in the text's
 * reading frame (`turn` as found by readPageRuns), merged where collinear pieces touch. Clipping paths
 * and curves are ignored. Reading the operator list costs about as much as the text, so callers ask only
 * for pages that need it.
 */
export async function readRules(page: PDFPageProxy, turn: Quarter): Promise<Rule[]> {
  const list = await page.getOperatorList();
  const [vx0, vy0, vx1, vy1] = page.view as [number, number, number, number];
  const w = vx1 - vx0;
  const h = vy1 - vy0;
  const out: Rule[] = [];
  const stack: Matrix[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const toPage = (x: number, y: number) => {
    const px = ctm[0] * x + ctm[2] * y + ctm[4];
    const py = ctm[1] * x + ctm[3] * y + ctm[5];
    return toFrame(turn, px - vx0, py - vy0, w, h);
  };
  const add = (a: { x: number; y: number }, b: { x: number; y: number }) => {
    const dx = Math.abs(a.x - b.x);
    const dy = Math.abs(a.y - b.y);
    if (dy <= SKEW && dx >= MIN_LENGTH) {
      const y = round((a.y + b.y) / 2);
      out.push({ x0: round(Math.min(a.x, b.x)), y0: y, x1: round(Math.max(a.x, b.x)), y1: y });
    } else if (dx <= SKEW && dy >= MIN_LENGTH) {
      const x = round((a.x + b.x) / 2);
      out.push({ x0: x, y0: round(Math.min(a.y, b.y)), x1: x, y1: round(Math.max(a.y, b.y)) });
    }
  };
  for (let i = 0; i < list.fnArray.length; i++) {
    const fn = list.fnArray[i];
    const args = list.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push([...ctm]);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(args as Matrix, ctm);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push([...ctm]);
      const matrix = args[0] as Matrix | null;
      if (matrix) ctm = multiply(matrix, ctm);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.constructPath) {
      const paint = args[0] as number;
      if (!PAINTS.has(paint)) continue;
      const data = (args[1] as (ArrayLike<number> | null)[] | undefined)?.[0];
      if (!data) continue;
      const filled = paint !== OPS.stroke && paint !== OPS.closeStroke;
      for (const sub of subpaths(data)) {
        const pts = sub.map(([x, y]) => toPage(x, y));
        if (filled && pts.length >= 4 && pts.length <= 5 && isRectangle(pts)) {
          rectangleRules(pts, add);
          continue;
        }
        for (let k = 1; k < pts.length; k++) add(pts[k - 1]!, pts[k]!);
      }
    }
  }
  return merge(out);
}

/** Splits pdfjs path data into polylines (curves flattened to their end points, which never make rules). */
function subpaths(data: ArrayLike<number>): [number, number][][] {
  const out: [number, number][][] = [];
  let current: [number, number][] = [];
  let i = 0;
  while (i < data.length) {
    const op = data[i]!;
    if (op === MOVE) {
      if (current.length > 1) out.push(current);
      current = [[data[i + 1]!, data[i + 2]!]];
      i += 3;
    } else if (op === LINE) {
      current.push([data[i + 1]!, data[i + 2]!]);
      i += 3;
    } else if (op === CURVE) {
      if (current.length > 1) out.push(current);
      current = [[data[i + 5]!, data[i + 6]!]];
      i += 7;
    } else if (op === QUAD) {
      if (current.length > 1) out.push(current);
      current = [[data[i + 3]!, data[i + 4]!]];
      i += 5;
    } else if (op === CLOSE) {
      if (current.length > 1) current.push(current[0]!);
      i += 1;
    } else {
      break;
    }
  }
  if (current.length > 1) out.push(current);
  return out;
}

function isRectangle(pts: { x: number; y: number }[]): boolean {
  const xs = new Set(pts.map((p) => Math.round(p.x * 2)));
  const ys = new Set(pts.map((p) => Math.round(p.y * 2)));
  return xs.size <= 2 && ys.size <= 2;
}

/** A thin rectangle is one rule along its length; a larger one contributes its four edges. */
function rectangleRules(
  pts: { x: number; y: number }[],
  add: (a: { x: number; y: number }, b: { x: number; y: number }) => void,
): void {
  const x0 = Math.min(...pts.map((p) => p.x));
  const x1 = Math.max(...pts.map((p) => p.x));
  const y0 = Math.min(...pts.map((p) => p.y));
  const y1 = Math.max(...pts.map((p) => p.y));
  if (y1 - y0 <= THIN) add({ x: x0, y: (y0 + y1) / 2 }, { x: x1, y: (y0 + y1) / 2 });
  else if (x1 - x0 <= THIN) add({ x: (x0 + x1) / 2, y: y0 }, { x: (x0 + x1) / 2, y: y1 });
  else {
    add({ x: x0, y: y0 }, { x: x1, y: y0 });
    add({ x: x0, y: y1 }, { x: x1, y: y1 });
    add({ x: x0, y: y0 }, { x: x0, y: y1 });
    add({ x: x1, y: y0 }, { x: x1, y: y1 });
  }
}

/** Joins collinear rules that overlap or nearly touch (borders are often drawn cell by cell). */
function merge(rules: Rule[]): Rule[] {
  const horizontal = rules.filter((r) => r.y0 === r.y1).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  const vertical = rules.filter((r) => r.x0 === r.x1).sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0);
  const out: Rule[] = [];
  for (const r of horizontal) {
    const last = out[out.length - 1];
    if (last && last.y0 === last.y1 && Math.abs(last.y0 - r.y0) <= 1 && r.x0 <= last.x1 + 2) {
      last.x1 = Math.max(last.x1, r.x1);
    } else {
      out.push({ ...r });
    }
  }
  const vertOut: Rule[] = [];
  for (const r of vertical) {
    const last = vertOut[vertOut.length - 1];
    if (last && Math.abs(last.x0 - r.x0) <= 1 && r.y0 <= last.y1 + 2) last.y1 = Math.max(last.y1, r.y1);
    else vertOut.push({ ...r });
  }
  return [...out, ...vertOut];
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

/**
 * Reads ruling lines into `rules` for the pages `wanted` selects (and the page after each, where a table
 * may carry on). A page whose operator list cannot be read keeps no rules: tables there are read from
 * the text alone.
 *
 * The operator lists are read from a second, private instance of the document opened without pdfjs's
 * WebAssembly image decoders: an operator list decodes the page's images, and a JBIG2 or JPEG 2000
 * decoder instantiated on this thread while snapshot worker threads render never finishes (the pending
 * instantiation holds no event-loop reference, so the process exits with code 13). Images are not needed
 * for rules; without the decoders they are skipped with a warning.
 */
export async function attachRules(
  doc: PDFDocumentProxy,
  pages: PageLayout[],
  wanted: (page: PageLayout) => boolean,
): Promise<void> {
  const selected = new Set<number>();
  pages.forEach((p, i) => {
    if (!wanted(p)) return;
    selected.add(i);
    if (i + 1 < pages.length) selected.add(i + 1);
  });
  if (selected.size === 0) return;
  let plain: PDFDocumentProxy;
  try {
    plain = await openWithoutWasm(await doc.getData());
  } catch {
    return;
  }
  try {
    for (const i of [...selected].sort((a, b) => a - b)) {
      const layout = pages[i]!;
      try {
        const page = await plain.getPage(layout.page);
        layout.rules = await readRules(page, layout.turn ?? 0);
        page.cleanup();
      } catch {
        layout.rules = [];
      }
    }
  } finally {
    await plain.destroy().catch(() => {});
  }
}

async function openWithoutWasm(data: Uint8Array): Promise<PDFDocumentProxy> {
  return getDocument({
    data,
    standardFontDataUrl: path.join(pdfjsDir, 'standard_fonts') + path.sep,
    cMapUrl: path.join(pdfjsDir, 'cmaps') + path.sep,
    cMapPacked: true,
    useWasm: false,
    maxImageSize: PDF_LIMITS.maxImagePixels,
    verbosity: 0,
    isEvalSupported: false,
    stopAtErrors: false,
  }).promise;
}
