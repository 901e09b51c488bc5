import { describe, expect, it } from 'vitest';
import { zooManual } from '../../pipeline/demo/zoo.js';
import { pageText } from '../../pipeline/layout/types.js';
import { cellsStand } from '../../src/text/excerpt-cells.js';
import { codeKey, containsVerbatim } from '../../src/text/normalise.js';
import { byCode, drawTable, extract, makePdf } from './fixtures.js';

describe('error-code tables', () => {
  it('reads a ruled table that continues on the next page, with codes like "P 12" and "A5-00"', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('7. Error codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 600,
        widths: [60, 180, 255],
        ruled: true,
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          [
            'P 12',
            'Low pressure switch open',
            '1. Check the refrigerant charge (2.5 bar minimum). 2. Replace the switch.',
          ],
          ['A5-00', 'Outdoor unit communication error', 'Check the bus cable between the units.'],
          ['E9', 'Water flow too low', 'Clean the strainer and check the pump.'],
        ],
      });
      doc.addPage();
      drawTable(doc, {
        x: 50,
        y: 60,
        widths: [60, 180, 255],
        ruled: true,
        rows: [
          ['Er 07', 'Flow sensor fault', 'Measure the sensor: 10 kOhm at 25 °C.'],
          [
            'H3',
            'Compressor overheat',
            'Switch off the power supply before opening the unit. Check the fan.',
          ],
        ],
      });
      doc.font('Helvetica').fontSize(10).text('After repair, reset the controller.', 50, 300);
    });
    const { codes, pages } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['P 12', 'A5-00', 'E9', 'Er 07', 'H3']);
    const p12 = byCode(codes, 'P 12');
    expect(p12.page).toBe(1);
    expect(p12.title).toBe('Low pressure switch open');
    expect(p12.steps.map((s) => s.text)).toEqual([
      'Check the refrigerant charge (2.5 bar minimum).',
      'Replace the switch.',
    ]);
    const er07 = byCode(codes, 'Er 07');
    expect(er07.page).toBe(2);
    expect(er07.title).toBe('Flow sensor fault');
    expect(er07.steps[0]!.text).toContain('10 kOhm at 25 °C');
    const h3 = byCode(codes, 'H3');
    expect(h3.steps[0]!.safety).toMatch(/Switch off the power supply/);
    expect(h3.part?.name).toBe('Compressor');
    for (const c of codes) {
      const text = pageText(pages[c.page - 1]!);
      const stands = c.excerptCells
        ? cellsStand(c.excerpt, c.excerptCells, [text, ...c.pages.map((p) => pageText(pages[p - 1]!))])
        : containsVerbatim(text, c.excerpt);
      expect(stands, `${c.code} excerpt on page`).toBe(true);
      expect(containsVerbatim(text, c.code), `${c.code} on page`).toBe(true);
    }
  });

  it('reads rows whose code is centred beside multi-line cells', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Troubleshooting', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 100,
        widths: [50, 150, 290],
        ruled: true,
        codeAlign: 'middle',
        header: ['Error code', 'Fault description', 'Failure causes'],
        rows: [
          ['E01', 'Wrong phase protection', 'Power supply phase sequence error'],
          [
            'E03',
            'Water flow switch fault',
            '1. Circulating pump failed or water system blocked\n2. Water flow switch failed\n3. Pump head not enough\n4. Pump installed in the wrong direction',
          ],
          [
            'E04',
            'Communication fault between the main board and the display',
            'Check the communication cable',
          ],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['E01', 'E03', 'E04']);
    expect(byCode(codes, 'E03').causes).toEqual([
      'Circulating pump failed or water system blocked',
      'Water flow switch failed',
      'Pump head not enough',
      'Pump installed in the wrong direction',
    ]);
    expect(byCode(codes, 'E04').title).toBe('Communication fault between the main board and the display');
    expect(byCode(codes, 'E04').causes).toEqual(['Check the communication cable']);
  });

  it('reads letter and display codes that follow the letter-and-digit codes of a column, whatever their first letter', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('4 Error codes', 50, 50);
      const end = drawTable(doc, {
        x: 50,
        y: 100,
        widths: [50, 190, 250],
        ruled: true,
        codeAlign: 'middle',
        header: ['Display', 'Description', 'Remedy'],
        rows: [
          ['E1', 'Four way valve reversing failure', 'Test the coil resistance'],
          ['E3', 'Communication lost between the controller and the outdoor board', 'Check the bus wiring'],
          ['E4', 'Supply voltage out of range', 'Measure the voltage at the terminal block'],
          ['EF', 'EEPROM data error on the main board', 'Replace the main board if the code returns'],
          ['Fb', 'Outdoor air temperature sensor open or short circuit', 'Check the sensor plug'],
          ['FB', 'Water flow too low through the plate heat exchanger', 'Bleed the water circuit'],
          ['Hc', 'Inverter board overcurrent', 'Measure the compressor windings'],
          ['HC', 'Compressor discharge temperature too high', 'Measure the superheat'],
        ],
      });
      // Far below the table, in its code column's place: no code of the table.
      doc
        .font('Helvetica')
        .fontSize(9)
        .text('OFF', 53, end + 220);
      doc
        .font('Helvetica')
        .fontSize(9)
        .text('Lo', 53, end + 260);
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['E1', 'E3', 'E4', 'EF', 'Fb', 'FB', 'Hc', 'HC']);
    expect(byCode(codes, 'Fb').title).toBe('Outdoor air temperature sensor open or short circuit');
    expect(byCode(codes, 'FB').title).toBe('Water flow too low through the plate heat exchanger');
    expect(byCode(codes, 'Hc').title).toBe('Inverter board overcurrent');
    expect(byCode(codes, 'HC').title).toBe('Compressor discharge temperature too high');
  });

  it('reads an unruled table, the description left of the code, and a numeric code column under a code header', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Störungen', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [200, 60, 235],
        header: ['Problem', 'Anzeige', 'Lösung'],
        rows: [
          ['Störung des Wassersensors', 'PP1', '1. Anschluss prüfen. 2. Sensor tauschen.'],
          ['Schutz vor zu hohem Druck', 'EE1', 'Hochdruckschalter prüfen.'],
          ['Kommunikationsstörung', 'EE8', 'Kabel erneut anschließen.'],
        ],
      });
      drawTable(doc, {
        x: 50,
        y: 300,
        widths: [80, 300],
        header: ['Error code', 'Meaning'],
        rows: [
          ['9001', 'Inverter board fault'],
          ['9014', 'Fan motor blocked'],
          ['9102', 'Outdoor sensor open circuit'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['PP1', 'EE1', 'EE8', '9001', '9014', '9102']);
    expect(byCode(codes, 'PP1').title).toBe('Störung des Wassersensors');
    expect(byCode(codes, 'PP1').steps.map((s) => s.text)).toEqual(['Anschluss prüfen.', 'Sensor tauschen.']);
    expect(byCode(codes, '9014').title).toBe('Fan motor blocked');
  });

  it('reads two halves of a code list printed side by side as two tables', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Fault codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [40, 200, 40, 200],
        ruled: true,
        header: ['Code', 'Fault', 'Code', 'Fault'],
        rows: [
          ['F1', 'Inlet sensor fault', 'F5', 'Coil sensor fault'],
          ['F2', 'Outlet sensor fault', 'F6', 'Suction sensor fault'],
          ['F3', 'Ambient sensor fault', 'F7', 'Discharge sensor fault'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => `${c.code}=${c.title}`).sort()).toEqual([
      'F1=Inlet sensor fault',
      'F2=Outlet sensor fault',
      'F3=Ambient sensor fault',
      'F5=Coil sensor fault',
      'F6=Suction sensor fault',
      'F7=Discharge sensor fault',
    ]);
  });

  it('reads two unruled tables set side by side, each with its own rows, as two tables', async () => {
    // As a scan's text layer gives them: no rules, codes centred in rows whose heights differ per half,
    // the right half's first description short and its later ones wrapped.
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('4 Foutcodes', 52, 70);
      doc.font('Helvetica').fontSize(10).text('Binnenunit', 55, 136);
      doc.text('Buitenunit', 307, 136);
      drawTable(doc, {
        x: 55,
        y: 150,
        widths: [57, 195],
        codeAlign: 'middle',
        fontSize: 9.1,
        header: ['Code', 'Omschrijving'],
        rows: [
          ['E2', 'Buitentemperatuurvoeler open of kortgesloten'],
          ['E5', 'Storing van de aanvoertemperatuurvoeler'],
          ['E7', 'Vorstbeveiliging van het watercircuit'],
          ['E9', 'Geen communicatie tussen de regelaar en de buitenprint'],
        ],
      });
      drawTable(doc, {
        x: 307,
        y: 150,
        widths: [58, 180],
        codeAlign: 'middle',
        fontSize: 9.1,
        header: ['Code', 'Omschrijving'],
        rows: [
          ['A4', 'Lagedrukbeveiliging'],
          ['A6', 'Persgastemperatuur van de compressor te hoog'],
          ['A7', 'Storing van de verwarming van de condensbak'],
          ['A8', 'Storing van de voeler van het warmwatervat'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => `${c.code}=${c.title}`).sort()).toEqual([
      'A4=Lagedrukbeveiliging',
      'A6=Persgastemperatuur van de compressor te hoog',
      'A7=Storing van de verwarming van de condensbak',
      'A8=Storing van de voeler van het warmwatervat',
      'E2=Buitentemperatuurvoeler open of kortgesloten',
      'E5=Storing van de aanvoertemperatuurvoeler',
      'E7=Vorstbeveiliging van het watercircuit',
      'E9=Geen communicatie tussen de regelaar en de buitenprint',
    ]);
  });

  it('reads a list whose lines open with the code, and links each code to its procedure page', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Fault indication', 50, 50);
      doc.font('Helvetica').fontSize(10);
      const lines = [
        'E1: Room temperature sensor fault',
        'E2: Coil temperature sensor fault',
        'E5: Fan motor fault',
      ];
      for (const [i, l] of lines.entries()) doc.text(l, 60, 90 + i * 16);
      const procedures: [string, string][] = [
        ['E1', 'E1: Room temperature sensor fault'],
        ['E2', 'E2: Coil temperature sensor fault'],
      ];
      for (const [code, text] of procedures) {
        doc.addPage();
        doc.font('Helvetica-Bold').fontSize(12).text(text, 50, 50);
        doc
          .font('Helvetica')
          .fontSize(10)
          .text(`Diagnosis of ${code}: measure the sensor resistance.`, 50, 80);
      }
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['E1', 'E2', 'E5']);
    expect(byCode(codes, 'E2').title).toBe('Coil temperature sensor fault');
    expect(byCode(codes, 'E1').page).toBe(1);
    expect(byCode(codes, 'E1').procedure).toMatchObject({ pageStart: 2, pageEnd: 2 });
    expect(byCode(codes, 'E2').procedure).toMatchObject({ pageStart: 3 });
    expect(byCode(codes, 'E5').procedure).toBeNull();
  });

  it('reads a table printed sideways on a rotated page', async () => {
    const pdf = await makePdf((doc) => {
      doc.save();
      doc.rotate(-90, { origin: [0, 0] });
      doc.translate(-800, 0);
      drawTable(doc, {
        x: 60,
        y: 60,
        widths: [50, 250, 300],
        ruled: true,
        header: ['Code', 'Description', 'Check'],
        rows: [
          ['C01', 'Indoor board fault', 'Replace the indoor board.'],
          ['C02', 'Outdoor board fault', 'Replace the outdoor board.'],
          ['C03', 'Display fault', 'Check the display cable.'],
        ],
      });
      doc.restore();
    });
    const { codes, pages } = await extract(pdf);
    expect(pages[0]!.rotated).toBe(true);
    expect(codes.map((c) => `${c.code}=${c.title}`)).toEqual([
      'C01=Indoor board fault',
      'C02=Outdoor board fault',
      'C03=Display fault',
    ]);
  });

  it('joins a code broken over two lines of a narrow cell', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [24, 250],
        ruled: true,
        header: ['Code', 'Description'],
        rows: [
          ['A1- 00', 'Indoor PCB fault'],
          ['A5- 00', 'Freeze protection'],
          ['A6- 01', 'Fan motor locked'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => codeKey(c.code))).toEqual(['A100', 'A500', 'A601']);
    expect(codes.find((c) => codeKey(c.code) === 'A500')!.title).toBe('Freeze protection');
  });

  it('emits no codes from parameter, terminal, spare-part or model tables', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Parameters and error handling', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [50, 200, 100, 80],
        ruled: true,
        header: ['Code', 'Parameter', 'Setting range', 'Default'],
        rows: [
          ['P01', 'Water pump mode', '0-2', '1'],
          ['P02', 'Pump running cycle', '0-120 min', '30'],
          ['E01', 'EEV mode', '0-1', '0'],
        ],
      });
      drawTable(doc, {
        x: 50,
        y: 250,
        widths: [50, 80, 250],
        ruled: true,
        header: ['No.', 'Port', 'Description'],
        rows: [
          ['1', 'CN1', 'Power input'],
          ['2', 'CN2', 'Fan motor output'],
          ['3', 'T1', 'Water inlet temperature sensor'],
        ],
      });
      drawTable(doc, {
        x: 50,
        y: 420,
        widths: [60, 250],
        ruled: true,
        header: ['Code', 'Description'],
        rows: [
          ['A101', 'Compressor'],
          ['A102', 'Outdoor fan motor'],
          ['A205', 'Four-way valve coil'],
        ],
      });
      doc
        .font('Helvetica')
        .fontSize(10)
        .text('Model R32 units: see the model table. Step 1, step 2.', 50, 560);
    });
    const { codes } = await extract(pdf);
    expect(codes).toEqual([]);
  });

  it('takes a code defined in two tables from the one that gives causes and checks', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Summary of check codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 80,
        widths: [50, 300],
        ruled: true,
        header: ['Code', 'Description'],
        rows: [
          ['L01', 'Setting error'],
          ['L02', 'Model mismatch'],
          ['L03', 'Duplicated address'],
          ['L04', 'Duplicated line address'],
        ],
      });
      doc.addPage();
      doc.font('Helvetica-Bold').fontSize(14).text('Check code list', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 80,
        widths: [50, 150, 150, 150],
        ruled: true,
        header: ['Code', 'Description', 'Cause', 'Check items'],
        rows: [
          ['L02', 'Outdoor model mismatch', 'Wrong outdoor unit', 'Check the model.'],
          ['L03', 'Duplicated header unit', 'Two header units', 'Check the address switch.'],
          ['L05', 'Priority unit duplicated', 'Two priority units', 'Check the settings.'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(byCode(codes, 'L02')).toMatchObject({ page: 2, title: 'Outdoor model mismatch' });
    expect(byCode(codes, 'L01').page).toBe(1);
    expect(codes.filter((c) => c.code === 'L03')).toHaveLength(1);
  });
});

describe('rows split by a page break', () => {
  it('reads the end of a row at the top of the next page into that row and cites both pages', async () => {
    const widths = [60, 180, 255];
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 50);
      const y = drawTable(doc, {
        x: 50,
        y: 640,
        widths,
        ruled: true,
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          ['E1', 'Sensor open circuit', 'Check the sensor cable.'],
          ['E2', 'High pressure protection', '1. Check the fan motor.'],
        ],
      });
      expect(y).toBeLessThan(760);
      doc.addPage();
      drawTable(doc, {
        x: 50,
        y: 60,
        widths,
        ruled: true,
        rows: [
          ['', '', '2. Clean the condenser coil.'],
          ['E3', 'Low pressure protection', 'Check the refrigerant charge.'],
          ['E4', 'Flow switch open', 'Check the water flow.'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => c.code)).toEqual(['E1', 'E2', 'E3', 'E4']);
    const e2 = byCode(codes, 'E2');
    expect(e2.page).toBe(1);
    expect(e2.pages).toEqual([1, 2]);
    expect(e2.steps.map((s) => s.text)).toEqual(['Check the fan motor.', 'Clean the condenser coil.']);
    expect(byCode(codes, 'E3').steps.map((s) => s.text)).toEqual(['Check the refrigerant charge.']);
  });
});

describe('codes documented one section per code', () => {
  it('reads codes from section titles, with the numbered steps below them, and leaves other titles alone', async () => {
    const sections: [string, string[]][] = [
      [
        'Error E1: Indoor temperature sensor fault',
        ['1. Check the sensor connector.', '2. Measure 10 kOhm at 25 °C.'],
      ],
      ['Error E2: Coil sensor fault', ['1. Check the coil sensor cable.']],
      ['Error E6: Outdoor fan motor fault', ['1. Switch off the power supply.', '2. Turn the fan by hand.']],
      ['DSW6: Unit address setting', ['1. Set the address with the switch.']],
    ];
    const pdf = await makePdf((doc) => {
      sections.forEach(([title, steps], i) => {
        if (i > 0) doc.addPage();
        doc.font('Helvetica-Bold').fontSize(15).text(title, 50, 60);
        doc.font('Helvetica').fontSize(10).text('Follow the checks below in order.', 50, 95);
        for (const [k, step] of steps.entries()) doc.text(step, 50, 120 + k * 16);
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => `${c.code}=${c.title}`)).toEqual([
      'E1=Indoor temperature sensor fault',
      'E2=Coil sensor fault',
      'E6=Outdoor fan motor fault',
    ]);
    const e6 = byCode(codes, 'E6');
    expect(e6.page).toBe(3);
    expect(e6.excerpt).toBe('Error E6: Outdoor fan motor fault');
    expect(e6.steps.map((s) => s.text)).toEqual(['Switch off the power supply.', 'Turn the fan by hand.']);
    expect(e6.steps[0]!.safety).not.toBeNull();
    expect(byCode(codes, 'E1').steps[1]!.text).toBe('Measure 10 kOhm at 25 °C.');
  });
});

describe('names under the code', () => {
  it('reads a name wrapped over three lines of a narrow code column as the title, not the first cause', async () => {
    // The zoo's cause/remedy table with each code's name in italics under it, whose narrow code column
    // wraps most names over three lines.
    const manual = await zooManual('subrows', 'es', 503);
    const { codes } = await extract(new Uint8Array(manual.pdf));
    const keyed = manual.key.filter((k) => k.expected_state === 'answer');
    expect(keyed.length).toBeGreaterThan(4);
    for (const k of keyed) expect(byCode(codes, k.code).title, k.code).toBe(k.meaning);
  });
});

describe('unruled tables', () => {
  it('reads top-aligned rows whose sub-rows are set at one pitch, the name under each code whole', async () => {
    // The zoo's cause/remedy table with sub-rows and each code's name under it, as a scan's invisible
    // text layer gives it (no rules, no italics): the gap above the next code is as wide as the gaps
    // between sub-rows, which rounding alone told apart, and the last row was read as centred and cut.
    const manual = await zooManual('subrows', 'fr', 1, 'ocr_invisible');
    const { codes } = await extract(new Uint8Array(manual.pdf));
    const keyed = manual.key.filter((k) => k.expected_state === 'answer');
    expect(keyed.length).toBeGreaterThan(4);
    for (const k of keyed) expect(byCode(codes, k.code).title, k.code).toBe(k.meaning);
  });

  it('reads a code heading as its own row where the text between two headings starts left of the codes', async () => {
    // A page of one section per code, as an OCR text layer gives it: no rules, no bold, every line plain.
    const sections: [string, string, string, string[]][] = [
      [
        'P1',
        'Fan motor speed feedback missing',
        'Motor connector loose.',
        ['Reconnect the motor plug', 'Replace the fan motor'],
      ],
      [
        'P2',
        'Communication lost with the outdoor board',
        'Bus cable interrupted.',
        ['Check the bus wiring', 'Power the unit off and on'],
      ],
      [
        'P3',
        'EEPROM data error on the main board',
        'Corrupted memory.',
        ['Reset the unit', 'Replace the main board'],
      ],
      [
        'P7',
        'Condensate pan heater fault',
        'Heater cable open.',
        ['Measure the heater resistance', 'Replace the fuse'],
      ],
    ];
    const pdf = await makePdf((doc) => {
      let y = 70;
      for (const [code, title, cause, steps] of sections) {
        doc.font('Helvetica').fontSize(10.5).text(`${code} – ${title}`, 61, y);
        doc.fontSize(9.5).text(`Possible cause: ${cause}`, 52, y + 21);
        doc.fontSize(11.5).text('Procedure', 52, y + 47);
        steps.forEach((step, k) => {
          doc.fontSize(9.5).text(`${k + 1}.`, 54, y + 67 + k * 15.6);
          doc.text(step, 70, y + 67 + k * 15.6);
        });
        y += 113;
      }
    });
    const { codes } = await extract(pdf);
    for (const [code, title] of sections) expect(byCode(codes, code).title).toBe(title);
  });

  it('reads rows whose codes stand centred beside multi-line cells, without rules', async () => {
    const pdf = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Fault codes', 50, 50);
      drawTable(doc, {
        x: 50,
        y: 90,
        widths: [50, 170, 270],
        codeAlign: 'middle',
        header: ['Code', 'Description', 'Remedy'],
        rows: [
          [
            'E1',
            'Water inlet temperature sensor open or short circuit',
            'Check the sensor plug. Replace the sensor.',
          ],
          [
            'E2',
            'Water outlet temperature sensor open or short circuit',
            '1. Check the plug on the main board. 2. Measure the sensor: 10 kOhm at 25 °C. 3. Replace the sensor.',
          ],
          ['E3', 'Low water flow', 'Clean the strainer.'],
        ],
      });
    });
    const { codes } = await extract(pdf);
    expect(codes.map((c) => `${c.code}=${c.title}`)).toEqual([
      'E1=Water inlet temperature sensor open or short circuit',
      'E2=Water outlet temperature sensor open or short circuit',
      'E3=Low water flow',
    ]);
    expect(byCode(codes, 'E2').steps.map((s) => s.text)).toEqual([
      'Check the plug on the main board.',
      'Measure the sensor: 10 kOhm at 25 °C.',
      'Replace the sensor.',
    ]);
    expect(byCode(codes, 'E1').steps.map((s) => s.text)).toEqual([
      'Check the sensor plug.',
      'Replace the sensor.',
    ]);
  });
});
