import { describe, expect, it } from 'vitest';
import { byCode, drawTable, extract, makePdf } from './fixtures.js';

describe('procedure content', () => {
  it('takes steps, warnings and the part from the procedure a table row points to', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('5. Error codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [50, 170, 275],
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          ['E7', 'Water flow error', 'See procedure E7 in chapter 6'],
          ['E8', 'Outdoor fan fault', 'Check the fan motor wiring.'],
        ],
        ruled: true,
      });
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(14).text('6. Troubleshooting procedures', 50, 50);
      doc.font('Helvetica-Bold').fontSize(11).text('E7 — Water flow error', 50, 90);
      doc.font('Helvetica').fontSize(9.5);
      doc.text('Detection: the flow switch stays open for 15 seconds while the pump runs.', 50, 115);
      const steps = [
        'Check that the isolation valves are open and the water pressure is between 1.0 and 2.5 bar.',
        'Isolate the power supply, disconnect connector CN9 and measure the flow switch: the contact must be closed (below 1 ohm).',
        'Clean the strainer.',
      ];
      let y = 140;
      for (const [i, step] of steps.entries()) {
        doc.text(`${i + 1}.`, 50, y);
        doc.text(step, 70, y, { width: 300 });
        y += doc.heightOfString(step, { width: 300 }) + 4;
      }
      y += 20;
      doc.font('Helvetica-Bold').text('WARNING', 70, y);
      doc
        .font('Helvetica')
        .text('Step 2 is made with the cover open: keep hands away from terminals L and N.', 70, y + 14, {
          width: 300,
        });
      doc.text('Part: flow switch FS1, ref. 4012-220; water pump P1, ref. 4012-150.', 50, y + 60);
    });
    const { codes } = await extract(pdf);
    const e7 = byCode(codes, 'E7');
    expect(e7.procedure).toMatchObject({ pageStart: 2, pageEnd: 2 });
    expect(e7.steps.map((s) => s.order)).toEqual([1, 2, 3]);
    expect(e7.steps[0]!.text).toBe(
      'Check that the isolation valves are open and the water pressure is between 1.0 and 2.5 bar.',
    );
    expect(e7.steps[1]!.text).toBe(
      'Isolate the power supply, disconnect connector CN9 and measure the flow switch: the contact must be closed (below 1 ohm).',
    );
    expect(e7.steps[1]!.safety).toBe(
      'Step 2 is made with the cover open: keep hands away from terminals L and N.',
    );
    expect(e7.steps[0]!.safety).toBeNull();
    expect(e7.steps[2]!.safety).toBeNull();
    expect(e7.part).toEqual({ name: 'flow switch FS1', reference: '4012-220' });
    // A row with its own steps keeps them.
    expect(byCode(codes, 'E8').steps.map((s) => s.text)).toEqual(['Check the fan motor wiring.']);
  });
});
