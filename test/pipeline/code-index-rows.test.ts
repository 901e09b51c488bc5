import { describe, expect, it } from 'vitest';
import { indexCodeLines, unreadIndexedCodes } from '../../pipeline/facts/code-index.js';
import { codeKey } from '../../src/text/normalise.js';
import { type Doc, drawTable, extract, makePdf } from './fixtures.js';

type Row = [code: string, description: string, cause: string];

const ROWS: Row[] = [
  ['E1', 'High pressure\nprotection', 'Dirty condenser.'],
  ['E2', 'Water flow fault', 'Pump stopped or\nstrainer blocked\nby dirt.'],
  ['E3', 'Outdoor sensor\nopen circuit', 'Sensor unplugged.'],
  ['E4', 'Fan motor fault', 'Motor seized.'],
];
const MEANINGS: Record<string, string> = {
  E1: 'High pressure protection',
  E2: 'Water flow fault',
  E3: 'Outdoor sensor open circuit',
  E4: 'Fan motor fault',
};

/**
 * A fault table whose cells are all centred vertically in their row (as word processors set them): the
 * code's baseline meets the middle of each cell, so a two-line description has no line level with it.
 */
function centredTable(doc: Doc, ruled: boolean, pad: number): void {
  const widths = [50, 150, 200];
  const x0 = 50;
  const size = 9;
  const right = x0 + widths.reduce((a, b) => a + b, 0);
  doc.font('Helvetica-Bold').fontSize(12).text('Fault codes', 50, 50);
  let y = 90;
  const header = ['Code', 'Description', 'Cause'];
  const all = [header, ...ROWS];
  all.forEach((row, ri) => {
    doc.font(ri === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    const heights = row.map((cell, ci) => doc.heightOfString(cell, { width: widths[ci]! - 2 * pad }));
    const height = Math.max(...heights) + 2 * pad;
    let x = x0;
    row.forEach((cell, ci) => {
      doc.text(cell, x + pad, y + (height - heights[ci]!) / 2, { width: widths[ci]! - 2 * pad });
      x += widths[ci]!;
    });
    if (ruled) doc.lineWidth(0.5).moveTo(x0, y).lineTo(right, y).stroke();
    y += height;
  });
  if (ruled) doc.moveTo(x0, y).lineTo(right, y).stroke();
}

async function indexOf(pdf: Uint8Array) {
  const { pages } = await extract(pdf);
  return indexCodeLines(pages, new Set());
}

describe('code index: the meaning is the description cell of the code row, in rows centred vertically', () => {
  for (const ruled of [true, false]) {
    it(`reads the cell right of the code within the row's band (${ruled ? 'ruled' : 'unruled, rows set apart'})`, async () => {
      const lines = await indexOf(await makePdf((doc) => centredTable(doc, ruled, 5)));
      for (const [code, meaning] of Object.entries(MEANINGS)) {
        const found = lines.filter((l) => l.code === code);
        expect(
          found.map((l) => l.meaning),
          code,
        ).toEqual([meaning]);
        expect(found[0]!.uncertain, code).toBeUndefined();
        // The excerpt is the row's lines, as printed.
        for (const part of meaning.split(' ')) expect(found[0]!.excerpt).toContain(part);
      }
    });
  }

  it('marks a row it cannot bound as uncertain rather than answering another column', async () => {
    // No rules, no space between rows: where a row ends cannot be told from the lines.
    const lines = await indexOf(await makePdf((doc) => centredTable(doc, false, 0)));
    for (const l of lines.filter((x) => x.code in MEANINGS && !x.uncertain))
      expect(l.meaning, l.code).toBe(MEANINGS[l.code]);
  });

  it('takes the column a header names as the description, also left of the code; a row under a header that names no description is uncertain', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Error codes on the display', 50, 50);
      const row = (y: number, cells: [number, string][], bold = false) => {
        doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
        for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
      };
      // The description stands left of the code; the column right of it is the check.
      row(
        90,
        [
          [60, 'Problem'],
          [200, 'Code'],
          [260, 'Check'],
          [420, 'Remedy'],
        ],
        true,
      );
      row(110, [
        [60, 'Water inlet sensor fault'],
        [200, 'PP1'],
        [260, 'Check the plug.'],
        [420, 'Reconnect it.'],
      ]);
      row(130, [
        [60, 'Water outlet sensor fault'],
        [200, 'PP2'],
        [260, 'Check the plug.'],
        [420, 'Reconnect it.'],
      ]);
      row(150, [
        [60, 'High pressure protection'],
        [200, 'EE1'],
        [260, 'Check the switch.'],
        [420, 'Replace it.'],
      ]);
      // A second table whose header names a cause and a remedy, but no description.
      row(
        300,
        [
          [60, 'Code'],
          [120, 'Cause'],
          [300, 'Remedy'],
        ],
        true,
      );
      row(320, [
        [60, 'U1'],
        [120, 'Supply voltage too low.'],
        [300, 'Check the mains.'],
      ]);
      row(340, [
        [60, 'U2'],
        [120, 'Phase missing.'],
        [300, 'Check the wiring.'],
      ]);
      // A parameter list: the header over the code column names parameters.
      row(
        500,
        [
          [60, 'parameter'],
          [120, 'meanings'],
          [300, 'range'],
        ],
        true,
      );
      row(520, [
        [60, 'F01'],
        [120, 'Start defrosting temperature'],
        [300, '-30~0 C'],
      ]);
      row(540, [
        [60, 'F02'],
        [120, 'End defrosting temperature'],
        [300, '0~30 C'],
      ]);
    });
    const lines = await indexOf(pdf);
    const one = (code: string) => lines.filter((l) => l.code === code);
    expect(one('PP1').map((l) => l.meaning)).toEqual(['Water inlet sensor fault']);
    expect(one('EE1').map((l) => l.meaning)).toEqual(['High pressure protection']);
    expect(one('PP1')[0]!.uncertain).toBeUndefined();
    // A cause is not the meaning: kept for the audit, never answered from.
    expect(one('U1').map((l) => l.uncertain)).toEqual([true]);
    // A parameter list: its codes are settings, not faults.
    expect(one('F01').map((l) => l.uncertain)).toEqual([true]);
  });
});

describe('code index: which cell of a row is the meaning, in layouts the table reader may miss', () => {
  it("takes, under one header line over two tables side by side, the description of the code's own table", async () => {
    const left: [string, string][] = [
      ['E1', 'High pressure protection'],
      ['E2', 'Water flow fault'],
      ['E3', 'Outdoor sensor open circuit'],
    ];
    const right: [string, string][] = [
      ['A1', 'Fan motor stalled'],
      ['A2', 'Four way valve reversing fault'],
      ['A3', 'Low pressure protection'],
    ];
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Error codes', 50, 50);
      // Unruled: no rule tells where the left table ends, only the header line over both.
      drawTable(doc, { x: 50, y: 90, widths: [40, 190], header: ['Code', 'Description'], rows: left });
      drawTable(doc, { x: 300, y: 90, widths: [40, 200], header: ['Code', 'Description'], rows: right });
    });
    const lines = await indexOf(pdf);
    for (const [code, meaning] of [...left, ...right]) {
      const answered = lines.filter((l) => l.code === code && !l.uncertain).map((l) => l.meaning);
      expect(answered, code).toEqual([meaning]);
    }
  });

  it('never takes the label printed before a code ("Code:") for its meaning', async () => {
    // Framed "label: value" cards: a card's last line, above the next card's code, has two cells whose
    // words can read as column headers.
    const cards: [string, string, string, string][] = [
      [
        'A5-01',
        'Flow water temperature sensor fault',
        'Sensor out of its pocket or wire broken',
        'Refit the sensor in its pocket, replace the sensor if the reading stays wrong',
      ],
      [
        'C2-10',
        'Inverter board overcurrent',
        'Compressor winding fault or supply voltage too low',
        'Measure the compressor windings, check the supply voltage under load',
      ],
      [
        'J3-00',
        'Four way valve reversing failure',
        'Valve coil open or valve stuck halfway',
        'Test the coil resistance, tap the valve body while it switches',
      ],
      [
        'L8-04',
        'Domestic hot water tank sensor fault',
        'Sensor cable cut or sensor not plugged in',
        'Check the tank sensor plug, replace the sensor',
      ],
    ];
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Error codes', 50, 50);
      let y = 90;
      for (const [code, meaning, cause, remedy] of cards) {
        doc
          .lineWidth(0.8)
          .rect(55, y - 8, 480, 56)
          .stroke();
        for (const [label, value] of [
          ['Code:', code],
          ['Meaning:', meaning],
          ['Cause:', cause],
          ['Remedy:', remedy],
        ]) {
          doc.font('Helvetica-Bold').fontSize(8.5).text(label!, 62, y, { lineBreak: false });
          doc.font('Helvetica').fontSize(8.5).text(value!, 131, y, { lineBreak: false });
          y += 10.5;
        }
        y += 26;
      }
    });
    const lines = await indexOf(pdf);
    const labels = lines.filter((l) => /^\p{L}+\s?:$/u.test(l.meaning));
    expect(labels.map((l) => `${l.code}: ${l.meaning}`)).toEqual([]);
  });
});

describe('code index: a column of numbered sub-codes beside the code', () => {
  it('does not answer from a cell of sub-codes ("01: …  02: …") taken for the meaning', async () => {
    const rows = [
      ['P04', '01: Compressor 1 side\n02: Compressor 2 side', 'Activation of high-pressure switch'],
      ['H16', '01: Tank 1 oil\n02: Tank 2 oil', 'Oil level detection circuit trouble'],
      ['L23', '02: Switch setting trouble of outdoor unit', 'Switch setting trouble'],
    ];
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Check codes', 50, 50);
      drawTable(doc, { x: 50, y: 90, widths: [50, 170, 220], rows, ruled: true });
    });
    const lines = await indexOf(pdf);
    const answered = lines.filter((l) => !l.uncertain && /^\d{1,3}\s?:/.test(l.meaning));
    expect(answered.map((l) => `${l.code}: ${l.meaning}`)).toEqual([]);
    // Kept for the ingest audit all the same.
    expect(new Set(lines.map((l) => l.code))).toEqual(new Set(['P04', 'H16', 'L23']));
  });
});

describe('ingest audit: code-shaped tokens in a code position', () => {
  it('lists an unread list of faults, not a run of connector or pin names nor a parameter list', async () => {
    const pdf = await makePdf((doc) => {
      const row = (y: number, cells: [number, string][], bold = false) => {
        doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(9);
        for (const [x, text] of cells) doc.text(text, x, y, { lineBreak: false });
      };
      doc.font('Helvetica-Bold').fontSize(12).text('Wiring of the controller board', 50, 50);
      const pins: [string, string][] = [
        ['X1', 'RS485 (1)'],
        ['X2', 'USB (1)'],
        ['X3', 'GND T4'],
        ['X4', 'CN5'],
      ];
      pins.forEach(([pin, what], k) => {
        row(100 + k * 20, [
          [60, pin],
          [120, what],
        ]);
      });
      row(
        300,
        [
          [60, 'parameter'],
          [120, 'meanings'],
          [300, 'range'],
        ],
        true,
      );
      row(320, [
        [60, 'F01'],
        [120, 'Start defrosting temperature'],
        [300, '-30~0 C'],
      ]);
      row(340, [
        [60, 'F02'],
        [120, 'End defrosting temperature'],
        [300, '0~30 C'],
      ]);
      row(360, [
        [60, 'F03'],
        [120, 'Defrosting cycle of the unit'],
        [300, '1~90 min'],
      ]);
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(12).text('Messages on the display', 50, 50);
      const faults: [string, string][] = [
        ['U7', 'Water pump blocked'],
        ['U8', 'Inlet sensor open'],
        ['U9', 'Outdoor fan stopped'],
      ];
      faults.forEach(([code, what], k) => {
        row(100 + k * 20, [
          [60, code],
          [120, what],
        ]);
      });
    });
    const lines = await indexOf(pdf);
    const audit = unreadIndexedCodes(lines, [], codeKey, () => false);
    expect(audit).toEqual([{ page: 2, codes: ['U7', 'U8', 'U9'] }]);
  });
});
