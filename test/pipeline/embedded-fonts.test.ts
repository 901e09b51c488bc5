import { describe, expect, it } from 'vitest';
import {
  type LigatureMapping,
  patchToUnicode,
  registerEmbeddedFonts,
  withLigatures,
} from '../../pipeline/demo/embedded-fonts.js';
import { extractDocument } from '../../pipeline/extract-document.js';
import { findLigatureStandIns, readLigatureStandIns } from '../../pipeline/layout/ligatures.js';
import type { TextRun } from '../../pipeline/layout/types.js';
import { isUnreadableText } from '../../pipeline/layout/unreadable.js';
import { openPdf } from '../../pipeline/pdf/open.js';
import { byCode, type Doc, extract, makePdf } from './fixtures.js';

/**
 * Text written in an embedded subset TrueType font (Identity-H), as most producers write it: ligature
 * glyphs whose ToUnicode says one presentation-form code point or nothing, a font with no ToUnicode at
 * all, and text drawn invisibly over a scan (render mode 3).
 */
const ROWS: [string, string][] = [
  ['E01', 'Water flow too low, clean the filter'],
  ['E02', 'Refrigerant fluid shortage'],
  ['E05', 'Flow sensor fault, refit the sensor'],
  ['E07', 'Check the fitting of the flow switch'],
];

/** A fault table in the embedded font, its ligatures written as the ToUnicode `mapping` says. */
function embeddedTable(mapping: LigatureMapping, rows = ROWS) {
  return makePdf((doc: Doc) => {
    registerEmbeddedFonts(doc);
    const font = (face: 'regular' | 'bold', size: number) => {
      doc.font(`zoo-embedded-${face}`).fontSize(size);
      patchToUnicode((doc as unknown as { _font: unknown })._font, mapping);
    };
    const show = (text: string, x: number, y: number) =>
      doc.text(withLigatures(text), x, y, { lineBreak: false });
    font('bold', 14);
    show('Error codes', 50, 60);
    font('regular', 9);
    show('The display shows a code when a fault is detected.', 50, 84);
    font('bold', 9);
    show('Code', 50, 110);
    show('Signification', 110, 110);
    doc.moveTo(50, 123).lineTo(400, 123).lineWidth(0.5).stroke();
    rows.forEach(([code, meaning], i) => {
      const y = 130 + i * 16;
      font('regular', 9);
      show(code, 50, y);
      show(meaning, 110, y);
    });
  });
}

function pageTextOf(pages: { lines: { text: string }[] }[]): string {
  return pages.flatMap((p) => p.lines.map((l) => l.text)).join('\n');
}

describe('embedded fonts and their ToUnicode maps', () => {
  it('reads ligature glyphs mapped to their letters or to U+FB01/U+FB02 as the plain letters', async () => {
    for (const mapping of ['letters', 'codepoint'] as const) {
      const { pages, codes } = await extract(await embeddedTable(mapping));
      const text = pageTextOf(pages);
      expect(text, mapping).toContain('clean the filter');
      expect(text, mapping).not.toMatch(/[\ufb00-\ufb06]/u);
      expect(byCode(codes, 'E02').title, mapping).toBe('Refrigerant fluid shortage');
    }
  });

  it('reads a ligature glyph mapped to nothing as the ligature its words make', async () => {
    const { pages, codes } = await extract(await embeddedTable('nothing'));
    const text = pageTextOf(pages);
    // pdfjs gives such a glyph's number as its character; the word list tells which ligature it is.
    expect(text).toContain('Water flow too low, clean the filter');
    expect(text).toContain('refit the sensor');
    expect(byCode(codes, 'E07').title).toBe('Check the fitting of the flow switch');
  });

  it('reads a stand-in character only inside words, and a digit opening a word only where it makes a word', () => {
    const run = (str: string, font = 'f1'): TextRun => ({ str, x: 0, y: 0, width: 100, size: 9, font });
    const runs = [
      run('Clean the 6lter, check the water <ow'),
      run('Signi6cation: a 6mm gap, 16 kW, E06'),
      run('Le 6lm', 'f2'),
      // A bracket opens words: "(low" is not "flow", "(le" not "file".
      run('the pressure (low side) and the (le', 'f3'),
    ];
    const standIns = findLigatureStandIns(runs);
    expect(standIns.get('f1')).toEqual(
      new Map([
        ['6', 'fi'],
        ['<', 'fl'],
      ]),
    );
    // A font whose words make no listed word is left as pdfjs read it.
    expect(standIns.has('f2')).toBe(false);
    expect(standIns.has('f3')).toBe(false);
    readLigatureStandIns(runs, standIns);
    expect(runs.map((r) => r.str)).toEqual([
      'Clean the filter, check the water flow',
      'Signification: a 6mm gap, 16 kW, E06',
      'Le 6lm',
      'the pressure (low side) and the (le',
    ]);
  });

  it('names the pages of a font without ToUnicode and reads no code from them', async () => {
    const bytes = await embeddedTable('absent');
    const doc = await openPdf(bytes);
    try {
      const extracted = await extractDocument(doc, {
        id: 'no-unicode',
        fileName: 'no-unicode.pdf',
        sha256: '0',
        sidecar: {
          title: 'Manual',
          brand: 'Brand',
          doc_type: 'service_manual',
          language: 'en',
          equipment: 'air_water',
          approved: true,
          models: [{ name: 'M-1', aliases: [] }],
        },
        sidecarSource: 'file',
        extractorVersion: 0,
      });
      expect(extracted.errorCodes).toEqual([]);
      expect(extracted.codeLines).toEqual([]);
      expect(extracted.warnings.join('\n')).toMatch(/pages whose text cannot be read .*ToUnicode.*: 1$/m);
    } finally {
      await doc.destroy();
    }
  });

  it('tells glyph numbers from text, and leaves real text of few letters alone', () => {
    expect(
      isUnreadableText(
        '\u0001\u0002\u0003\u0004 \u0005\u0006\u0007\u0008 \u0001\u0002 ( # ! ( $ % ) * + , -',
      ),
    ).toBe(true);
    expect(isUnreadableText('P01 0-99 50 °C P02 10-60 45 °C P03 1-5 3 P04 0-1 0')).toBe(false);
    expect(isUnreadableText('Page 4')).toBe(false);
  });
});

describe('an invisible text layer over a scan', () => {
  it('reads text drawn in render mode 3 exactly as the same text drawn visibly', async () => {
    const table = (invisible: boolean) =>
      makePdf((doc: Doc) => {
        doc.rect(40, 40, 500, 200).fill('#eeeeee');
        if (invisible) doc.addContent('3 Tr');
        doc
          .font('Helvetica-Bold')
          .fontSize(14)
          .fillColor('black')
          .text('Error codes', 50, 60, { lineBreak: false });
        doc.font('Helvetica-Bold').fontSize(9);
        doc.text('Code', 50, 110, { lineBreak: false });
        doc.text('Description', 110, 110, { lineBreak: false });
        ROWS.forEach(([code, meaning], i) => {
          const y = 130 + i * 16;
          doc.font('Helvetica').fontSize(9).text(code, 50, y, { lineBreak: false });
          for (const [j, word] of meaning.split(' ').entries())
            doc.text(word, 110 + j * 40, y, { lineBreak: false });
        });
      });
    const invisible = await extract(await table(true));
    const visible = await extract(await table(false));
    expect(await (await table(true)).length).toBeGreaterThan(0);
    expect(pageTextOf(invisible.pages)).toBe(pageTextOf(visible.pages));
    expect(invisible.codes.map((c) => [c.code, c.title])).toEqual(
      visible.codes.map((c) => [c.code, c.title]),
    );
    expect(invisible.codes.map((c) => c.code)).toEqual(['E01', 'E02', 'E05', 'E07']);
  });
});
