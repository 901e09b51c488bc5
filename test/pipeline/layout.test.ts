import { describe, expect, it } from 'vitest';
import { layoutDocument } from '../../pipeline/layout/document.js';
import { readPageRuns } from '../../pipeline/layout/page-runs.js';
import { readRules } from '../../pipeline/layout/rules.js';
import { pageText } from '../../pipeline/layout/types.js';
import { openPdf } from '../../pipeline/pdf/open.js';
import { drawTable, makePdf } from './fixtures.js';

async function layout(bytes: Uint8Array) {
  const doc = await openPdf(bytes);
  try {
    return await layoutDocument(doc);
  } finally {
    await doc.destroy();
  }
}

const LEFT = [
  'The heat pump must be installed on a level base.',
  'Keep at least 50 cm free around the unit.',
  'Connect the water pipes before the power.',
  'Fill the system to 1.5 bar and bleed it.',
  'Check the flow switch before start-up.',
  'Set the flow temperature to 45 °C.',
];
const RIGHT = [
  'Cleaning: switch the unit off first.',
  'Clean the strainer every six months.',
  'Inspect the condensate drain yearly.',
  'Check the refrigerant circuit for oil.',
  'Replace the air filter when clogged.',
  'Record every service in the log book.',
];

describe('layout', () => {
  it('reads a two-column page column by column', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica').fontSize(10);
      for (const [i, t] of LEFT.entries()) doc.text(t, 50, 100 + i * 14, { lineBreak: false });
      for (const [i, t] of RIGHT.entries()) doc.text(t, 320, 100 + i * 14, { lineBreak: false });
    });
    const { pages } = await layout(pdf);
    expect(pages[0]!.lines.map((l) => l.text)).toEqual([...LEFT, ...RIGHT]);
  });

  it('keeps a table row on one line with its cells as segments', async () => {
    const pdf = await makePdf((doc) => {
      drawTable(doc, {
        x: 50,
        y: 100,
        widths: [60, 200, 200],
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          ['E1', 'Sensor open', 'Check wiring'],
          ['E2', 'Sensor short', 'Replace sensor'],
          ['E3', 'Low flow', 'Clean strainer'],
          ['E4', 'High pressure', 'Check fan'],
          ['E5', 'Low pressure', 'Check charge'],
        ],
      });
    });
    const { pages } = await layout(pdf);
    const row = pages[0]!.lines.find((l) => l.text.startsWith('E2'))!;
    expect(row.segments.map((s) => s.text)).toEqual(['E2', 'Sensor short', 'Replace sensor']);
  });

  it('moves running headers, footers and folios out of the body but keeps them in the page text', async () => {
    const pdf = await makePdf((doc) => {
      for (let p = 1; p <= 5; p++) {
        if (p > 1) doc.addPage();
        doc
          .font('Helvetica')
          .fontSize(8)
          .text('Hot water module - service manual', 50, 30, { lineBreak: false });
        doc
          .fontSize(11)
          .text(`Body text of page ${p}: bleed the circuit at 1.5 bar.`, 50, 200, { lineBreak: false });
        doc.fontSize(8).text(`- ${p} -`, 280, 800, { lineBreak: false });
      }
    });
    const { pages } = await layout(pdf);
    for (const page of pages) {
      expect(page.lines.map((l) => l.text)).toEqual([
        `Body text of page ${page.page}: bleed the circuit at 1.5 bar.`,
      ]);
      expect(page.margins.map((l) => l.text)).toEqual([
        'Hot water module - service manual',
        `- ${page.page} -`,
      ]);
      expect(pageText(page)).toContain('Hot water module - service manual');
    }
  });

  it('reads ruling lines in the text frame, including a page printed sideways', async () => {
    const table = {
      x: 60,
      y: 60,
      widths: [50, 250],
      ruled: true,
      header: ['Code', 'Description'],
      rows: [
        ['C01', 'Indoor board fault'],
        ['C02', 'Outdoor board fault'],
      ],
    };
    const pdf = await makePdf((doc) => {
      drawTable(doc, table);
      doc.addPage();
      doc.save();
      doc.rotate(-90, { origin: [0, 0] });
      doc.translate(-800, 0);
      drawTable(doc, table);
      doc.restore();
    });
    const doc = await openPdf(pdf);
    try {
      for (const n of [1, 2]) {
        const page = await doc.getPage(n);
        const runs = await readPageRuns(page);
        const rules = await readRules(page, runs.turn);
        const horizontal = rules.filter((r) => r.y0 === r.y1).sort((a, b) => a.y0 - b.y0);
        const vertical = rules.filter((r) => r.x0 === r.x1).sort((a, b) => a.x0 - b.x0);
        // Three rows: four horizontal rules across the table, three vertical ones.
        expect(horizontal).toHaveLength(4);
        const left = vertical[0]!.x0;
        expect(vertical.map((r) => Math.round(r.x0 - left))).toEqual([0, 50, 300]);
        expect(Math.round(horizontal[0]!.x0 - left)).toBe(0);
        expect(Math.round(horizontal[0]!.x1 - left)).toBe(300);
        // The code text sits inside the first column in the same frame.
        const code = runs.main.find((r) => r.str === 'C01')!;
        expect(code.x).toBeGreaterThan(vertical[0]!.x0);
        expect(code.x).toBeLessThan(vertical[1]!.x0);
        expect(code.y).toBeGreaterThan(horizontal[1]!.y0);
        expect(code.y).toBeLessThan(horizontal[2]!.y0);
        expect(runs.rotated).toBe(n === 2);
      }
    } finally {
      await doc.destroy();
    }
  });
});
