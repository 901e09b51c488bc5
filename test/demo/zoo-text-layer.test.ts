import { describe, expect, it } from 'vitest';
import { printedCode, TEXT_LAYERS } from '../../pipeline/demo/text-layer.js';
import { zooManual } from '../../pipeline/demo/zoo.js';

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
});
