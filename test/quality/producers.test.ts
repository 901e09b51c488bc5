import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CONTROL_PRODUCER,
  heldOutProducer,
  PRODUCERS,
  producerAvailable,
  reproduceCorpus,
  setAsideManuals,
} from '../../bench/quality-producers.js';
import { layoutDocument } from '../../pipeline/layout/document.js';
import { openPdf } from '../../pipeline/pdf/open.js';
import { drawTable, extract, makePdf } from '../pipeline/fixtures.js';

/**
 * The producer axis of the quality bench (bench/quality-producers.ts): its set-aside draw, and its
 * control, a structure-only rewrite that must read exactly as the original. The axis itself runs in the
 * bench (`node dist/bench/quality.js --producer all`), not here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(root, '../shared/corpus');
const qpdf = producerAvailable(CONTROL_PRODUCER);
if (!qpdf) console.warn('producer axis: control tests skipped, qpdf is not installed');
const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-producers-test-'));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

/** Every page's lines as text with their place, as the reader lays them out. */
async function pagesOf(bytes: Uint8Array): Promise<string[]> {
  const layout = await layoutDocument(await openPdf(bytes));
  return layout.pages.map((p) => p.lines.map((l) => `${l.y} ${l.x0} ${l.text}`).join('\n'));
}

describe('the producer axis draw', () => {
  it('holds out one non-control producer and a third of the manuals, by seeded digest alone', () => {
    const held = heldOutProducer();
    expect(PRODUCERS).toContain(held);
    expect(held).not.toBe(CONTROL_PRODUCER);
    const names = Array.from({ length: 15 }, (_, i) => `manual-${i}`);
    const aside = setAsideManuals(names);
    expect(aside.size).toBe(5);
    // The draw depends on the names only, not on their order.
    expect([...setAsideManuals([...names].reverse())].sort()).toEqual([...aside].sort());
  });
});

describe.skipIf(!qpdf)('the control producer', () => {
  it('rewrites a generated fault table that reads exactly as the original', async () => {
    const original = await makePdf((doc) => {
      doc.font('Helvetica-Bold').fontSize(14).text('Error codes', 50, 60, { lineBreak: false });
      drawTable(doc, {
        x: 50,
        y: 100,
        widths: [60, 300],
        ruled: true,
        header: ['Code', 'Description'],
        rows: [
          ['E01', 'Flow water temperature sensor fault'],
          ['E02', 'Return water temperature sensor fault'],
        ],
      });
    });
    const src = path.join(temp, 'generated-in');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'table.pdf'), original);
    const made = reproduceCorpus(CONTROL_PRODUCER, src, path.join(temp, 'generated-out'));
    expect(made.dropped).toEqual([]);
    const rewritten = new Uint8Array(fs.readFileSync(path.join(temp, 'generated-out', 'table.pdf')));
    expect(Buffer.compare(Buffer.from(rewritten), Buffer.from(original))).not.toBe(0);
    const [before, after] = [await extract(original), await extract(rewritten)];
    expect(after.codes.map((c) => [c.code, c.title, c.pages])).toEqual(
      before.codes.map((c) => [c.code, c.title, c.pages]),
    );
    expect(before.codes.map((c) => c.code)).toEqual(['E01', 'E02']);
  });

  it('drops a file the tool cannot re-produce, naming it', () => {
    const src = path.join(temp, 'empty-in');
    fs.mkdirSync(src);
    fs.writeFileSync(path.join(src, 'broken.pdf'), 'not a PDF');
    const made = reproduceCorpus(CONTROL_PRODUCER, src, path.join(temp, 'empty-out'));
    expect(made.produced).toEqual([]);
    expect(made.dropped.map((d) => d.file)).toEqual(['broken.pdf']);
    expect(fs.existsSync(path.join(temp, 'empty-out', 'broken.pdf'))).toBe(false);
  });

  const shared = fs.existsSync(corpus);
  if (!shared) console.warn(`producer axis: real-corpus control skipped, no corpus at ${corpus}`);
  it.skipIf(!shared)(
    'rewrites the smallest shared manual that reads line for line as the original',
    async () => {
      // The smallest file keeps this to a few seconds; which manual it is does not matter to the control.
      const smallest = fs
        .readdirSync(corpus)
        .filter((f) => f.endsWith('.pdf'))
        .sort((a, b) => fs.statSync(path.join(corpus, a)).size - fs.statSync(path.join(corpus, b)).size)[0]!;
      const src = path.join(temp, 'shared-in');
      fs.mkdirSync(src);
      fs.copyFileSync(path.join(corpus, smallest), path.join(src, smallest));
      const made = reproduceCorpus(CONTROL_PRODUCER, src, path.join(temp, 'shared-out'));
      expect(made.produced).toEqual([smallest]);
      const before = await pagesOf(new Uint8Array(fs.readFileSync(path.join(corpus, smallest))));
      const after = await pagesOf(new Uint8Array(fs.readFileSync(path.join(temp, 'shared-out', smallest))));
      expect(before.join('').length).toBeGreaterThan(0);
      expect(after).toEqual(before);
    },
    60_000,
  );
});
