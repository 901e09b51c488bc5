import { describe, expect, it } from 'vitest';
import { type Doc, drawTable, extract, makePdf } from './fixtures.js';

/** The distinct section paths of a document's chunks, in reading order, joined as the API shows them. */
async function sectionPaths(draw: (doc: Doc) => void): Promise<string[]> {
  const { chunks } = await extract(await makePdf(draw));
  const out: string[] = [];
  for (const c of chunks) {
    const path = c.sectionPath.join(' / ');
    if (out.at(-1) !== path) out.push(path);
  }
  return out;
}

const PARAGRAPH =
  'The unit stops and shows the code on the display when the protection trips. Check the items below before ' +
  'you call for service, and note the code and the time it appeared.';

describe('section paths come from headings', () => {
  it('nests numbered headings, and keeps a chapter title wrapped over two lines whole', async () => {
    const paths = await sectionPaths((doc) => {
      doc.font('Helvetica-Bold').fontSize(18).text('9. Troubleshooting', 50, 60);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 100, { width: 480 });
      doc.font('Helvetica-Bold').fontSize(12).text('9.1 Water circuit', 50, 170);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 200, { width: 480 });
      doc.font('Helvetica-Bold').fontSize(16).text('Fault display of the outdoor unit and', 50, 280);
      doc.text('its remote controller', 50, 300);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 340, { width: 480 });
    });
    expect(paths).toEqual([
      '9. Troubleshooting',
      '9. Troubleshooting / 9.1 Water circuit',
      'Fault display of the outdoor unit and its remote controller',
    ]);
  });

  it('never takes a list item, a warning label, a table row or a table of contents entry for a heading', async () => {
    const paths = await sectionPaths((doc) => {
      doc.font('Helvetica-Bold').fontSize(16).text('Contents', 50, 50);
      doc.font('Helvetica').fontSize(10);
      doc.text('1. Safety ........................................ 3', 50, 80);
      doc.text('2. Troubleshooting ................................ 9', 50, 95);
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(18).text('2. Troubleshooting', 50, 60);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 95, { width: 480 });
      // A numbered list in body size, one item running on to a second line.
      doc.text('1. Water flow switch failed, or', 50, 150);
      doc.text('the strainer is blocked.', 62, 163);
      doc.text('2. Circulating pump stopped.', 50, 180);
      doc.text('3. Air in the water circuit.', 50, 195);
      // A warning label set large, then its paragraph.
      doc.font('Helvetica-Bold').fontSize(14).text('WARNING', 50, 230);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 255, { width: 480 });
      // A table whose rows are set larger than the text around them.
      drawTable(doc, {
        x: 50,
        y: 320,
        widths: [60, 200, 200],
        fontSize: 13,
        header: ['Code', 'Fault', 'Check'],
        rows: [
          ['E1', 'Low water pressure', 'Top up the circuit'],
          ['E2', 'Flow switch open', 'Check the pump'],
        ],
      });
      // A legend of display glyphs in a large font.
      doc.font('Helvetica').fontSize(14).text('01 23456789AbCdEFHJLP', 50, 480);
      doc.fontSize(10).text(PARAGRAPH, 50, 510, { width: 480 });
    });
    expect(paths).toEqual(['Contents', '2. Troubleshooting']);
  });

  it('keeps short chapters that follow each other on one page', async () => {
    const paths = await sectionPaths((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('1 Safety instructions', 50, 60);
      doc.font('Helvetica').fontSize(10).text('Only a qualified engineer may open the unit.', 50, 85);
      doc.font('Helvetica-Bold').fontSize(14).text('2 Models and ratings', 50, 120);
      doc.font('Helvetica').fontSize(10).text('DT-06 6 kW, DT-09 9 kW.', 50, 145);
      doc.font('Helvetica-Bold').fontSize(14).text('3 Operation', 50, 180);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 205, { width: 480 });
    });
    expect(paths).toEqual(['1 Safety instructions', '2 Models and ratings', '3 Operation']);
  });

  it('takes no large paragraph for a heading', async () => {
    const paths = await sectionPaths((doc) => {
      doc.font('Helvetica-Bold').fontSize(18).text('Maintenance', 50, 60);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 95, { width: 480 });
      // A notice set in a larger size over several lines, without a full stop at the end of each line.
      doc
        .fontSize(14)
        .text('Read this manual before you install the unit and keep it near the unit', 50, 160);
      doc.text('for the next technician who services it, together with the wiring', 50, 178);
      doc.text('diagram and the record of the refrigerant charge', 50, 196);
      doc.fontSize(10).text(PARAGRAPH, 50, 230, { width: 480 });
    });
    expect(paths).toEqual(['Maintenance']);
  });

  it('follows a series of numbered parameter titles past 30, and takes no lone large number for one', async () => {
    const paths = await sectionPaths((doc) => {
      // A controller's parameters, one section each, numbered 28 to 35 and set large, two to a page.
      for (let n = 28; n <= 35; n += 2) {
        doc
          .font('Helvetica-Bold')
          .fontSize(16)
          .text(`${n} PARAM-${n}`, 50, 90 + n);
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(PARAGRAPH, 50, 130 + n, { width: 480 });
        doc
          .font('Helvetica-Bold')
          .fontSize(16)
          .text(`${n + 1} PARAM-${n + 1}`, 50, 330 + n);
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(PARAGRAPH, 50, 370 + n, { width: 480 });
        doc.addPage();
      }
      doc.font('Helvetica-Bold').fontSize(18).text('Maintenance', 50, 60);
      doc.font('Helvetica').fontSize(10).text(PARAGRAPH, 50, 95, { width: 480 });
    });
    expect(paths).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `${28 + i} PARAM-${28 + i}`),
      'Maintenance',
    ]);
    // Large numbers past 30 that do not go up through the document, or stand alone, are values.
    const values = await sectionPaths((doc) => {
      doc.font('Helvetica-Bold').fontSize(18).text('Maintenance', 50, 60);
      for (const [i, n] of [45, 32, 60, 31, 40].entries()) {
        doc
          .font('Helvetica-Bold')
          .fontSize(16)
          .text(`${n} Litres`, 50, 100 + i * 120);
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(PARAGRAPH, 50, 130 + i * 120, { width: 480 });
      }
    });
    expect(values).toEqual(['Maintenance']);
  });
});
