import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import { printedCode, TEXT_LAYERS } from '../../pipeline/demo/text-layer.js';
import { zooManual } from '../../pipeline/demo/zoo.js';
import { openPdf } from '../../pipeline/pdf/open.js';

/**
 * The text-layer axis of the layout zoo: a variant changes how the text is written into the PDF, never
 * the plan, the pages or the key (bench:quality -- --zoo --text-layer NAME measures it).
 */
describe('text-layer variants of the layout zoo', () => {
  it('keeps every variant keyed as the plain manual, with other PDF bytes', async () => {
    const plain = await zooManual('wrapped', 'fr', 4);
    for (const variant of TEXT_LAYERS) {
      const m = await zooManual('wrapped', 'fr', 4, variant);
      expect(m.key, variant).toEqual(plain.key);
      expect(m.pdf.equals(plain.pdf), variant).toBe(false);
      // The same seed writes the same bytes.
      expect((await zooManual('wrapped', 'fr', 4, variant)).pdf.equals(m.pdf), variant).toBe(true);
    }
  });

  it('stores the pages of page_rotate landscape, turned upright by /Rotate 90', async () => {
    const m = await zooManual('cards', 'de', 2, 'page_rotate');
    const text = m.pdf.toString('latin1');
    expect(text).toMatch(/\/Rotate 90/);
    expect(text).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/);
  });

  it('prints codes with an en dash or a no-break space where the variant says', () => {
    expect(printedCode('dashes', 'E01')).toBe('E\u201301');
    expect(printedCode('dashes', 'A5-00')).toBe('A5\u201300');
    expect(printedCode('nbsp', 'Er 10')).toBe('Er\u00a010');
    expect(printedCode('nbsp', 'dF')).toBeUndefined();
  });

  it('embeds a subset TrueType font Identity-H, with a ToUnicode map or, for no_tounicode, none', async () => {
    for (const variant of [
      'identity_h',
      'ligature_codepoint',
      'ligature_unmapped',
      'no_tounicode',
    ] as const) {
      const text = (await zooManual('wrapped', 'en', 3, variant)).pdf.toString('latin1');
      expect(text, variant).toMatch(/\/Subtype \/Type0/);
      expect(text, variant).toMatch(/\/Encoding \/Identity-H/);
      expect(text, variant).toMatch(/\/FontFile2/);
      expect(/\/ToUnicode/.test(text), variant).toBe(variant !== 'no_tounicode');
    }
  });

  it('draws every page of ocr_invisible as an image under invisible text, without vector rules', async () => {
    const m = await zooManual('wrapped', 'en', 3, 'ocr_invisible');
    const doc = await openPdf(m.pdf);
    try {
      let text = '';
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const ops = await page.getOperatorList();
        expect(ops.fnArray.filter((op) => op === OPS.paintImageXObject).length, `page ${n}`).toBe(1);
        expect(ops.fnArray.includes(OPS.setTextRenderingMode), `page ${n}`).toBe(true);
        text += (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' ');
      }
      // The table's page has no path of its own: its rules are in the image.
      const codePage = m.key.find((k) => k.expected_state === 'answer')!.pages[0]!;
      const ops = await (await doc.getPage(codePage)).getOperatorList();
      expect(ops.fnArray.includes(OPS.constructPath)).toBe(false);
      for (const k of m.key.filter((k) => k.expected_state === 'answer')) expect(text).toContain(k.code);
    } finally {
      await doc.destroy();
    }
  });
});
