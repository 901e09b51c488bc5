import { describe, expect, it } from 'vitest';
import { byCode, type Doc, extract, makePdf } from './fixtures.js';

/**
 * How a producer writes the text layer, not what the page shows: the same fault table read the same way
 * however its text was written into the PDF.
 */
const ROWS: [string, string][] = [
  ['E01', 'Flow water temperature sensor fault'],
  ['E02', 'Return water temperature sensor fault'],
  ['E05', 'High pressure switch tripped'],
  ['E07', 'Inverter board overcurrent'],
];

/** A fault table whose bold text (header, codes) is drawn twice `offset` points apart, as fake bold. */
function overprintedTable(offset: number) {
  return makePdf((doc: Doc) => {
    const bold = (text: string, x: number, y: number) => {
      doc.font('Helvetica-Bold').fontSize(9);
      doc.text(text, x, y, { lineBreak: false });
      doc.text(text, x + offset, y, { lineBreak: false });
    };
    doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 60, { lineBreak: false });
    doc.font('Helvetica').fontSize(9).text('The display shows a code when a fault is detected.', 50, 84);
    bold('Code', 50, 110);
    bold('Description', 110, 110);
    doc.moveTo(50, 123).lineTo(400, 123).lineWidth(0.5).stroke();
    ROWS.forEach(([code, meaning], i) => {
      const y = 130 + i * 16;
      bold(code, 50, y);
      doc.font('Helvetica').fontSize(9).text(meaning, 110, y, { lineBreak: false });
    });
  });
}

describe('the text layer', () => {
  it('reads text drawn twice a fraction of a point apart (fake bold) once', async () => {
    const { pages, codes } = await extract(await overprintedTable(0.3));
    const lines = pages[0]!.lines.map((l) => l.text);
    expect(lines).toContain('Code Description');
    expect(lines).toContain('E01 Flow water temperature sensor fault');
    for (const [code, meaning] of ROWS) expect(byCode(codes, code).title).toBe(meaning);
  });

  it('keeps a glyph drawn again one advance further: repeated letters are not overprint', async () => {
    const pdf = await makePdf((doc: Doc) => {
      doc.font('Helvetica').fontSize(9);
      // A producer writing one show per glyph: "ll" and "..." are glyphs side by side, not ink drawn twice.
      let x = 50;
      for (const ch of 'Fill the circuit...') {
        doc.text(ch, x, 100, { lineBreak: false });
        x += doc.widthOfString(ch);
      }
    });
    const { pages } = await extract(pdf);
    expect(pages[0]!.lines.map((l) => l.text)).toContain('Fill the circuit...');
  });
});
