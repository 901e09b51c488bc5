import { describe, expect, it } from 'vitest';
import { codeKey } from '../../src/text/normalise.js';
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

/** A fault table whose codes are printed by `print` and shown with `spacing` points between glyphs. */
function printedTable(codes: [string, string][], print: (code: string) => string, spacing = 0) {
  return makePdf((doc: Doc) => {
    doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 60, { lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(9);
    doc.text('Code', 50, 110, { lineBreak: false });
    doc.text('Description', 110, 110, { lineBreak: false });
    doc.moveTo(50, 123).lineTo(400, 123).lineWidth(0.5).stroke();
    codes.forEach(([code, meaning], i) => {
      const y = 130 + i * 16;
      doc
        .font('Helvetica')
        .fontSize(9)
        .text(print(code), 50, y, { lineBreak: false, characterSpacing: spacing });
      doc.text(meaning, 110, y, { lineBreak: false });
    });
  });
}

/** The meaning read for a code, found by its key as the engine looks it up ("E–01" and "E01" agree). */
function meaningOf(codes: { code: string; title: string }[], code: string): string | undefined {
  return codes.find((c) => codeKey(c.code) === codeKey(code))?.title;
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

  it('reads a code printed with an en or em dash as the code with a hyphen', async () => {
    const dashed: [string, string][] = [
      ['E-01', 'Flow water temperature sensor fault'],
      ['E-02', 'Return water temperature sensor fault'],
      ['A5-00', 'Outdoor fan motor locked'],
      ['U4-01', 'Communication lost between the units'],
    ];
    const { codes } = await extract(
      await printedTable(dashed, (c) => c.replace('-', c.startsWith('E') ? '\u2013' : '\u2014')),
    );
    for (const [code, meaning] of dashed) expect(meaningOf(codes, code), code).toBe(meaning);
  });

  it('reads a letter-spaced code, and a letter-spaced display code alone in its cell, as one code', async () => {
    const spaced: [string, string][] = [
      ['E01', 'Flow water temperature sensor fault'],
      ['Er 12', 'Return water temperature sensor fault'],
      ['E05', 'High pressure switch tripped'],
      ['E07', 'Inverter board overcurrent'],
    ];
    const { codes } = await extract(await printedTable(spaced, (c) => c, 3.2));
    for (const [code, meaning] of spaced) expect(meaningOf(codes, code), code).toBe(meaning);
    const display: [string, string][] = [
      ['Lo', 'Water flow too low'],
      ['dF', 'Defrost running'],
      ['Hi', 'High pressure switch tripped'],
    ];
    const shown = await extract(await printedTable(display, (c) => c, 3.2));
    for (const [code, meaning] of display) expect(meaningOf(shown.codes, code), code).toBe(meaning);
  });

  it('keeps a dash that is not in a code verbatim: a range with an en dash', async () => {
    const pdf = await makePdf((doc: Doc) => {
      doc.font('Helvetica').fontSize(9);
      doc.text('Keep the pressure at 1.5\u20132 bar when cold.', 50, 100, { lineBreak: false });
    });
    const lines = (await extract(pdf)).pages[0]!.lines.map((l) => l.text);
    expect(lines).toContain('Keep the pressure at 1.5\u20132 bar when cold.');
  });
});
