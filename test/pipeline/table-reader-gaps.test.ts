import { describe, expect, it } from 'vitest';
import { byCode, type Doc, extract, makePdf } from './fixtures.js';

/** Writes one line of cells: [x, text] pairs at baseline-ish y, in one font size. */
function cells(doc: Doc, y: number, size: number, row: [number, string][], bold = false): void {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
  for (const [x, text] of row) doc.text(text, x, y, { lineBreak: false });
}

describe('fault-table reader: headers and labels', () => {
  it('reads a wrapped header whose first line groups two code columns: every label whole, the detection place no cause', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('9. Fault code list', 50, 60);
      // Header cells wrap over three lines; the first line holds a group heading over the second code
      // column and the column next to it, running past the first code column's edge.
      cells(
        doc,
        160,
        8,
        [
          [58, 'Main'],
          [92, 'Unit display of outdoor'],
          [186, 'Location'],
          [330, 'Detection'],
        ],
        true,
      );
      cells(
        doc,
        169,
        8,
        [
          [58, 'remote'],
          [186, 'of detection'],
          [250, 'Description'],
          [330, 'condition(s)'],
          [450, 'Check items'],
        ],
        true,
      );
      cells(
        doc,
        178,
        8,
        [
          [58, 'controller'],
          [98, 'Code'],
          [132, 'Sub-code'],
        ],
        true,
      );
      const rows: [string, string, string, string, string][] = [
        ['A01', 'Indoor unit', 'Flow switch trouble', 'When water flow is reduced.', 'Check the pump.'],
        [
          'A02',
          'Indoor unit',
          'Water temperature trouble',
          'Water stays cold while heating.',
          'Check the heater.',
        ],
        ['A03', 'Outdoor unit', 'Heat exchanger frost', 'Frost protection is active.', 'Check the fan.'],
        ['A04', 'Outdoor unit', 'Pump lock fault', 'The pump does not turn.', 'Replace the pump.'],
      ];
      rows.forEach(([code, place, title, cause, step], i) => {
        const y = 200 + i * 30;
        cells(doc, y, 7.5, [
          [58, code],
          [98, code],
          [132, 'Unit No.'],
          [186, place],
          [250, title],
          [330, cause],
          [450, step],
        ]);
      });
    });
    const { codes } = await extract(pdf);
    const a01 = byCode(codes, 'A01');
    expect(a01.title).toBe('Flow switch trouble');
    // The location column is no cause: the causes are the detection condition only.
    expect(a01.causes).toEqual(['When water flow is reduced.']);
    const labels = (a01.excerptCells ?? []).map((c) => c.label);
    expect(labels.some((l) => l?.startsWith('Main remote controller'))).toBe(true);
    expect(labels).toContain('Location of detection');
    expect(labels).toContain('Detection condition(s)');
  });
});

describe('fault-table reader: several codes on one line', () => {
  it('splits "L0: ...; L1: ..." in a list of codes into one entry per code', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Fault display', 50, 60);
      doc.font('Helvetica').fontSize(9);
      const lines = [
        'E1: High pressure protection',
        'E2: Low pressure protection',
        'L0: Fan motor fault; L1: Water pump fault',
        'P1: Outdoor sensor fault',
        'P2: Water inlet sensor fault, T3: see the wiring diagram',
      ];
      lines.forEach((line, i) => doc.text(line, 60, 100 + i * 16, { lineBreak: false }));
    });
    const { codes } = await extract(pdf);
    expect(byCode(codes, 'L0').title).toBe('Fan motor fault');
    expect(byCode(codes, 'L1').title).toBe('Water pump fault');
    expect(byCode(codes, 'L1').page).toBe(byCode(codes, 'L0').page);
    expect(byCode(codes, 'L1').excerpt).toContain('L1: Water pump fault');
    // A label of other letters inside a description is text, not a code.
    expect(codes.map((c) => c.code)).not.toContain('T3');
    expect(byCode(codes, 'P2').title).toContain('T3');
  });
});
