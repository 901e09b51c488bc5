import PDFDocument from 'pdfkit';
import { type CodeTable, findCodeTables } from '../../pipeline/facts/code-tables.js';
import { extractErrorCodes } from '../../pipeline/facts/error-codes.js';
import { layoutDocument } from '../../pipeline/layout/document.js';
import { attachRules } from '../../pipeline/layout/rules.js';
import type { PageLayout } from '../../pipeline/layout/types.js';
import { openPdf } from '../../pipeline/pdf/open.js';
import { buildChunks } from '../../pipeline/structure/chunks.js';
import { findHeadings } from '../../pipeline/structure/headings.js';
import type { ChunkRecord, ErrorCodeRecord } from '../../pipeline/types.js';

export type Doc = InstanceType<typeof PDFDocument>;

/** Builds a PDF with pdfkit: `draw` gets the document (first page already added) and adds the content. */
export function makePdf(
  draw: (doc: Doc) => void,
  options: { size?: [number, number] | string; layout?: 'portrait' | 'landscape' } = {},
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: options.size ?? 'A4',
      layout: options.layout ?? 'portrait',
      margin: 50,
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

export interface TableSpec {
  x: number;
  y: number;
  widths: number[];
  header?: string[];
  rows: string[][];
  /** Draw cell borders (rules). */
  ruled?: boolean;
  /** Vertical placement of the text of the first column (the code column) within its row. */
  codeAlign?: 'top' | 'middle';
  fontSize?: number;
}

/** Draws a table with wrapped cells; returns the y below it. Cells wrap inside their column width. */
export function drawTable(doc: Doc, spec: TableSpec): number {
  const size = spec.fontSize ?? 9;
  const pad = 3;
  let y = spec.y;
  const all = spec.header ? [spec.header, ...spec.rows] : spec.rows;
  const right = spec.x + spec.widths.reduce((a, b) => a + b, 0);
  all.forEach((row, ri) => {
    const isHeader = spec.header !== undefined && ri === 0;
    doc.font(isHeader ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    const heights = row.map((cell, ci) => doc.heightOfString(cell, { width: spec.widths[ci]! - 2 * pad }));
    const height = Math.max(...heights) + 2 * pad;
    let x = spec.x;
    row.forEach((cell, ci) => {
      const w = spec.widths[ci]!;
      let ty = y + pad;
      if (ci === 0 && !isHeader && spec.codeAlign === 'middle') ty = y + (height - heights[ci]!) / 2;
      doc.text(cell, x + pad, ty, { width: w - 2 * pad });
      x += w;
    });
    if (spec.ruled) {
      doc.lineWidth(0.5).moveTo(spec.x, y).lineTo(right, y).stroke();
      let vx = spec.x;
      for (const w of [0, ...spec.widths]) {
        vx += w;
        doc
          .moveTo(vx, y)
          .lineTo(vx, y + height)
          .stroke();
      }
    }
    y += height;
  });
  if (spec.ruled) doc.moveTo(spec.x, y).lineTo(right, y).stroke();
  return y;
}

export interface Extracted {
  pages: PageLayout[];
  tables: CodeTable[];
  codes: ErrorCodeRecord[];
  chunks: ChunkRecord[];
}

/** Runs the pipeline's layout and code extraction on a PDF, reading ruling lines on every page. */
export async function extract(bytes: Uint8Array): Promise<Extracted> {
  const doc = await openPdf(bytes);
  try {
    const layout = await layoutDocument(doc);
    await attachRules(doc, layout.pages, () => true);
    const chunks = buildChunks('doc', layout.pages, findHeadings(layout.pages, layout.outline));
    return {
      pages: layout.pages,
      tables: findCodeTables(layout.pages),
      codes: extractErrorCodes(layout.pages, chunks),
      chunks,
    };
  } finally {
    await doc.destroy();
  }
}

export function byCode(codes: ErrorCodeRecord[], code: string): ErrorCodeRecord {
  const hit = codes.find((c) => c.code === code);
  if (!hit) throw new Error(`code ${code} not extracted; have ${codes.map((c) => c.code).join(', ')}`);
  return hit;
}
