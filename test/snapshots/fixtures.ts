import PDFDocument from 'pdfkit';

export interface FixtureOptions {
  pages: number;
  /** pdfkit page size name or [width, height] in points. */
  size?: string | [number, number];
  layout?: 'portrait' | 'landscape';
}

/** A small manual-like PDF: a heading, a paragraph and a bordered table on every page. */
export function makePdf({ pages, size = 'A4', layout = 'portrait' }: FixtureOptions): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size, layout, margin: 50 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    for (let p = 1; p <= pages; p++) {
      if (p > 1) doc.addPage();
      doc.font('Helvetica-Bold').fontSize(20).text(`Fault codes, page ${p}`, 50, 50);
      doc
        .font('Helvetica')
        .fontSize(11)
        .text('Check the circulation pump, the three-way valve and the strainer before resetting.', 50, 90, {
          width: 400,
        });
      const rows = [
        ['Code', 'Meaning', 'Action'],
        ['E1', 'Outdoor sensor open', 'Check wiring'],
        ['E9', 'Low water flow', 'Clean strainer'],
      ];
      let y = 140;
      for (const [i, row] of rows.entries()) {
        doc.font(i === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
        for (const [j, cell] of row.entries())
          doc.text(cell, 50 + j * 100, y, { width: 95, lineBreak: false });
        doc
          .moveTo(50, y + 14)
          .lineTo(350, y + 14)
          .lineWidth(0.5)
          .stroke();
        y += 22;
      }
      doc.rect(50, 136, 300, y - 136).stroke();
    }
    doc.end();
  });
}

/**
 * One A4 page packed with tiny text runs: rendering it builds an operator list of tens of MB in the
 * worker's JS heap, whatever the size of the code the worker loads.
 */
export function makeDensePdf(runs = 40_000): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.font('Helvetica').fontSize(2);
    for (let i = 0; i < runs; i++) {
      doc.text(`E${i % 97}`, (i % 120) * 5, (Math.floor(i / 120) * 2) % 840, { lineBreak: false });
    }
    doc.end();
  });
}
