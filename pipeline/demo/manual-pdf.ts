/** A pdfkit document set up as every generated manual is: A4, no margins, pages added by the drawing. */
import PDFDocument from 'pdfkit';
import { Painter } from './painter.js';
import type { TextLayer } from './text-layer.js';

export interface ManualPdf {
  painter: Painter;
  addPage(): void;
  /** Ends the document and resolves to its bytes. */
  finish(): Promise<Buffer>;
}

/**
 * Opens a manual's PDF with the given metadata. Fixed dates in `info` keep the bytes (and the /ID) of
 * one source the same from run to run. `layer` writes the text as a text-layer variant of the zoo says.
 */
export function openManualPdf(info: PDFKit.DocumentInfo, layer?: TextLayer): ManualPdf {
  const doc = new PDFDocument({ size: 'A4', margin: 0, autoFirstPage: false, compress: true, info });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  return {
    painter: new Painter(doc, layer),
    addPage: () => (layer ? layer.addPage(doc) : doc.addPage({ size: 'A4', margin: 0 })),
    finish: async () => {
      layer?.flush(doc);
      doc.end();
      await finished;
      return Buffer.concat(chunks);
    },
  };
}
