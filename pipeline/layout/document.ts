import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { readingOrder } from './columns.js';
import { findLigatureStandIns, readLigatureStandIns } from './ligatures.js';
import { buildLines } from './lines.js';
import { findMargins } from './margins.js';
import { type Quarter, readPageRuns } from './page-runs.js';
import type { PageLayout, TextRun } from './types.js';

export interface OutlineEntry {
  title: string;
  page: number;
  depth: number;
}

export interface DocumentLayout {
  pages: PageLayout[];
  outline: OutlineEntry[];
  /** Pages whose text could not be read at all, with the reason. */
  pageErrors: { page: number; reason: string }[];
}

/** Reads every page of a document into lines, removes running headers and footers, resolves columns. */
export async function layoutDocument(doc: PDFDocumentProxy): Promise<DocumentLayout> {
  const raw: {
    page: number;
    width: number;
    height: number;
    rotated: boolean;
    turn: Quarter;
    main: TextRun[];
    side: TextRun[];
  }[] = [];
  const pageErrors: { page: number; reason: string }[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    try {
      const page = await doc.getPage(n);
      const runs = await readPageRuns(page);
      raw.push({
        page: n,
        width: runs.width,
        height: runs.height,
        rotated: runs.rotated,
        turn: runs.turn,
        main: runs.main,
        side: runs.side,
      });
      page.cleanup();
    } catch (err) {
      pageErrors.push({ page: n, reason: (err as Error).message });
      raw.push({ page: n, width: 595, height: 842, rotated: false, turn: 0, main: [], side: [] });
    }
  }
  // A ligature glyph mapped to nothing is told from the document's words in its font, all pages together.
  const allRuns = raw.flatMap((p) => [...p.main, ...p.side]);
  readLigatureStandIns(allRuns, findLigatureStandIns(allRuns));
  const lined = raw.map((p) => ({ ...p, lines: buildLines(p.main), side: buildLines(p.side) }));
  const margins = findMargins(lined);
  const pages = lined.map((p, i): PageLayout => {
    const marginIdx = margins[i]!;
    const body = p.lines.filter((_, li) => !marginIdx.has(li));
    return {
      page: p.page,
      width: round(p.width),
      height: round(p.height),
      rotated: p.rotated,
      turn: p.turn,
      lines: readingOrder(body, p.width),
      margins: p.lines.filter((_, li) => marginIdx.has(li)),
      sideText: p.side,
    };
  });
  return { pages, outline: await readOutline(doc), pageErrors };
}

async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  const out: OutlineEntry[] = [];
  let outline: Awaited<ReturnType<PDFDocumentProxy['getOutline']>> | null;
  try {
    outline = await doc.getOutline();
  } catch {
    return out;
  }
  type Node = NonNullable<typeof outline>[number];
  const walk = async (nodes: Node[], depth: number) => {
    for (const node of nodes) {
      const page = await destinationPage(doc, node.dest);
      if (page !== undefined && node.title.trim()) out.push({ title: node.title.trim(), page, depth });
      if (node.items?.length) await walk(node.items as Node[], depth + 1);
    }
  };
  if (outline) await walk(outline, 0);
  return out;
}

async function destinationPage(doc: PDFDocumentProxy, dest: unknown): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : (dest as unknown[] | null);
    if (!Array.isArray(explicit) || explicit.length === 0) return undefined;
    const ref = explicit[0];
    if (typeof ref === 'number') return ref + 1;
    return (await doc.getPageIndex(ref as Parameters<PDFDocumentProxy['getPageIndex']>[0])) + 1;
  } catch {
    return undefined;
  }
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}
