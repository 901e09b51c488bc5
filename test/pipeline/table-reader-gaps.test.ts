import { describe, expect, it } from 'vitest';
import { byCode, type Doc, drawTable, extract, makePdf } from './fixtures.js';

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
      lines.forEach((line, i) => {
        doc.text(line, 60, 100 + i * 16, { lineBreak: false });
      });
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

describe('fault-table reader: a list and the section that details some of its codes', () => {
  it('reads a code printed in the list and again, in other words, in its troubleshooting table as one fault', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('8. Error codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [60, 200, 200],
        ruled: true,
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          ['E1', 'High pressure protection', 'See section 9.'],
          ['E2', 'Water flow fault', 'See section 9.'],
          ['E3', 'Sensor fault', 'Replace the sensor.'],
          ['E4', 'Compressor overload', 'Call the service.'],
          ['E5', 'Fan motor fault', 'Call the service.'],
        ],
      });
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(14).text('9. Troubleshooting', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [50, 200, 200],
        ruled: true,
        header: ['Code', 'Fault', 'Cause'],
        rows: [
          ['E1', 'High pressure switch open', 'The condenser is dirty.'],
          ['E2', 'Insufficient water flow', 'The strainer is blocked.'],
          ['E3', 'Communication fault', 'The bus cable is loose.'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    const e1 = codes.filter((c) => c.code === 'E1');
    expect(e1).toHaveLength(1);
    expect(e1[0]!.title).toBe('High pressure protection');
    expect(e1[0]!.page).toBe(1);
    expect(e1[0]!.causes).toEqual(['The condenser is dirty.']);
    expect(e1[0]!.procedure?.pageStart).toBe(2);
    expect(codes.filter((c) => c.code === 'E2').map((c) => c.title)).toEqual(['Water flow fault']);
    // Readings that name other faults stay two readings.
    expect(
      codes
        .filter((c) => c.code === 'E3')
        .map((c) => c.title)
        .sort(),
    ).toEqual(['Communication fault', 'Sensor fault']);
  });
});

describe('fault-table reader: tables over a page break and names under codes', () => {
  it('follows an unruled table in Spanish onto the next page, with its header repeated or not', async () => {
    for (const repeatHeader of [false, true]) {
      const pdf = await makePdf((doc) => {
        const header: [number, string][] = [
          [60, 'Código'],
          [120, 'Descripción'],
          [330, 'Solución'],
        ];
        doc.font('Helvetica-Bold').fontSize(12).text('Tabla de errores', 50, 600);
        cells(doc, 640, 9, header, true);
        const rows = [
          ['E01', 'Fallo del sensor de agua', 'Compruebe el sensor.'],
          ['E02', 'Presión alta', 'Limpie el filtro.'],
          ['E03', 'Presión baja', 'Revise la carga.'],
        ];
        rows.forEach((r, i) => {
          cells(doc, 660 + i * 18, 9, [
            [60, r[0]!],
            [120, r[1]!],
            [330, r[2]!],
          ]);
        });
        doc.addPage();
        if (repeatHeader) cells(doc, 42, 9, header, true);
        const more = [
          ['E04', 'Fallo de comunicación', 'Revise el cable.'],
          ['E05', 'Bomba bloqueada', 'Cambie la bomba.'],
        ];
        more.forEach((r, i) => {
          cells(doc, 60 + i * 18, 9, [
            [60, r[0]!],
            [120, r[1]!],
            [330, r[2]!],
          ]);
        });
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(
            'Mantenimiento: limpie el equipo una vez al año y revise las conexiones eléctricas.',
            50,
            200,
            {
              width: 480,
            },
          );
      });
      const { codes } = await extract(pdf);
      expect(byCode(codes, 'E05').title).toBe('Bomba bloqueada');
      expect(byCode(codes, 'E05').page).toBe(2);
      expect(byCode(codes, 'E04').steps.map((s) => s.text)).toEqual(['Revise el cable.']);
      expect(codes.map((c) => c.code).sort()).toEqual(['E01', 'E02', 'E03', 'E04', 'E05']);
    }
  });

  it('reads a name printed under the code as its title, the columns beside it as causes and remedies', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(12).text('Fault codes', 50, 60);
      cells(
        doc,
        100,
        9,
        [
          [60, 'Code'],
          [160, 'Cause'],
          [340, 'Remedy'],
        ],
        true,
      );
      const rows = [
        ['E1', 'High pressure', 'Dirty condenser.', 'Clean the condenser.'],
        ['E2', 'Low pressure', 'Refrigerant leak.', 'Find the leak.'],
        ['E3', 'Water flow', 'The pump stopped.', 'Check the pump.'],
      ];
      rows.forEach(([code, name, cause, remedy], i) => {
        const y = 120 + i * 40;
        cells(doc, y, 9, [
          [60, code!],
          [160, cause!],
          [340, remedy!],
        ]);
        doc
          .font('Helvetica-Oblique')
          .fontSize(8)
          .text(name!, 60, y + 12, { lineBreak: false });
      });
    });
    const { codes } = await extract(pdf);
    const e1 = byCode(codes, 'E1');
    expect(e1.title).toBe('High pressure');
    expect(e1.causes).toEqual(['Dirty condenser.']);
    expect(e1.steps.map((s) => s.text)).toEqual(['Clean the condenser.']);
    expect(byCode(codes, 'E3').title).toBe('Water flow');
  });
});

describe('fault-table reader: unruled tables in other languages', () => {
  it('reads an unruled list without header under a caption that names errors in Spanish, Italian or Portuguese', async () => {
    const lists: [string, string[]][] = [
      [
        'Lista de errores',
        ['Temperatura de agua alta', 'Presión de gas baja', 'Sonda exterior desconectada'],
      ],
      ['Elenco errori', ['Temperatura acqua alta', 'Pressione gas bassa', 'Sonda esterna scollegata']],
      ['Lista de erros', ['Temperatura da água alta', 'Pressão de gás baixa', 'Sonda exterior desligada']],
    ];
    for (const [caption, meanings] of lists) {
      const pdf = await makePdf((doc) => {
        doc.font('Helvetica-Bold').fontSize(12).text(caption, 50, 60);
        meanings.forEach((meaning, i) => {
          doc
            .font('Helvetica')
            .fontSize(9)
            .text(`E0${i + 1}`, 60, 100 + i * 18, { lineBreak: false });
          doc.text(meaning, 120, 100 + i * 18, { lineBreak: false });
        });
      });
      const { codes } = await extract(pdf);
      expect(
        codes.map((c) => c.code),
        caption,
      ).toEqual(['E01', 'E02', 'E03']);
      expect(byCode(codes, 'E02').title).toBe(meanings[1]);
    }
  });
});

describe('fault-table reader: a note under the name, and run-on codes in a manual printed twice', () => {
  it('leaves a bracketed note that opens as a sentence on its own line out of the title, and keeps short or lower-case brackets', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [50, 200, 200],
        ruled: true,
        header: ['Code', 'Failure', 'Reason'],
        rows: [
          ['P01', 'Water inlet sensor failure', 'The sensor is broken.'],
          [
            'P02',
            'Exhaust sensor failure\n(When the parameter A1 is set to 1, the unit checks the exhaust sensor)',
            'The sensor is broken.',
          ],
          ['P03', 'Mode conflict\n(Reserved)', 'Two modes are set.'],
          [
            'P04',
            'Communication trouble\n(detected at the indoor unit end of the bus)',
            'The cable is loose.',
          ],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(byCode(codes, 'P02').title).toBe('Exhaust sensor failure');
    // The note stays in the excerpt, verbatim.
    expect(byCode(codes, 'P02').excerpt).toContain('(When the parameter A1 is set to 1');
    expect(byCode(codes, 'P03').title).toBe('Mode conflict (Reserved)');
    expect(byCode(codes, 'P04').title).toBe(
      'Communication trouble (detected at the indoor unit end of the bus)',
    );
  });

  it('reads a code printed after another on one line of one language although the other language lists it on its own line', async () => {
    const pdf = await makePdf((doc) => {
      const page = (caption: string, header: string[], rows: string[][]) => {
        doc.font('Helvetica-Bold').fontSize(12).text(caption, 50, 60);
        drawTable(doc, { x: 50, y: 100, widths: [60, 380], ruled: true, header, rows });
      };
      page(
        'Kody bledow wyswietlacza',
        ['Kod alarmu', 'Opis'],
        [
          ['E1', 'Blad czujnika temperatury wody na wejsciu'],
          ['E2', 'Blad komunikacji pomiedzy sterownikiem i jednostka'],
          ['L0', 'Zabezpieczenie nadpradowe sprezarki; L1: brak fazy zasilania'],
          ['L2', 'Blad utraty predkosci obrotowej wentylatora'],
          ['P1', 'Zabezpieczenie wysokiego cisnienia w ukladzie'],
        ],
      );
      // The same pages in English follow, after other pages (a manual printed in two languages).
      doc.addPage();
      doc
        .font('Helvetica')
        .fontSize(10)
        .text('Konserwacja: czysc urzadzenie raz w roku i sprawdz polaczenia elektryczne.', 50, 60);
      doc.addPage();
      page(
        'Display error codes',
        ['Alarm code', 'Description'],
        [
          ['E1', 'Water inlet temperature sensor fault'],
          ['E2', 'Communication fault between the controller and the unit'],
          ['L0', 'Compressor over current protection'],
          ['L1', 'Lack of supply phase'],
          ['L2', 'Fan motor losing speed fault'],
          ['P1', 'High pressure protection of the system'],
        ],
      );
    });
    const { codes } = await extract(pdf);
    const l1 = codes.filter((c) => c.code === 'L1');
    expect(l1.map((c) => [c.page, c.title]).sort()).toEqual([
      [1, 'brak fazy zasilania'],
      [3, 'Lack of supply phase'],
    ]);
    expect(codes.filter((c) => c.code === 'L0' && c.page === 1).map((c) => c.title)).toEqual([
      'Zabezpieczenie nadpradowe sprezarki',
    ]);
  });
});

describe('fault-table reader: cause cells', () => {
  for (const ruled of [true, false]) {
    it(`reads the unpunctuated sub-rows of a cause cell as causes each, a wrapped cause as one (${ruled ? 'ruled' : 'unruled'})`, async () => {
      const pdf = await makePdf((doc) => {
        doc.font('Helvetica-Bold').fontSize(12).text('Fault codes', 50, 50);
        drawTable(doc, {
          x: 50,
          y: 90,
          widths: [40, 140, 160, 150],
          ruled,
          header: ['Code', 'Description', 'Possible cause', 'Remedy'],
          rows: [
            [
              'E1',
              'Outdoor sensor fault',
              'Sensor unplugged\nWire broken\nMain board faulty',
              'Check the plug',
            ],
            ['E2', 'High pressure protection', 'Dirty condenser\nFan stopped', 'Clean the coil'],
            [
              'E3',
              'Water flow fault',
              'Circulation pump stopped or water strainer blocked by dirt Air in the circuit',
              'Clean the strainer',
            ],
          ],
        });
      });
      const { codes } = await extract(pdf);
      expect(byCode(codes, 'E1').causes).toEqual(['Sensor unplugged', 'Wire broken', 'Main board faulty']);
      expect(byCode(codes, 'E2').causes).toEqual(['Dirty condenser', 'Fan stopped']);
      // Wrapped by the cell's width: one cause, whatever its second line opens with.
      expect(byCode(codes, 'E3').causes).toEqual([
        'Circulation pump stopped or water strainer blocked by dirt Air in the circuit',
      ]);
    });
  }
});
