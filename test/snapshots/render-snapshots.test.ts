import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderSnapshots } from '../../pipeline/snapshots/index.js';
import { makePdf } from './fixtures.js';

function isWebp(buf: Buffer): boolean {
  return (
    buf.subarray(0, 4).toString('latin1') === 'RIFF' && buf.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}

/** Number of pixels darker than `threshold` in the greyscale image. */
async function darkPixels(webp: Buffer, threshold = 96): Promise<number> {
  const { data } = await sharp(webp).greyscale().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (const v of data) if (v < threshold) n++;
  return n;
}

/** Mean and minimum grey level of a region (sharp's stats() would describe the whole input). */
async function greyRegion(
  webp: Buffer,
  region: { left: number; top: number; width: number; height: number },
): Promise<{ mean: number; min: number }> {
  const data = await sharp(webp).extract(region).greyscale().raw().toBuffer();
  let sum = 0;
  let min = 255;
  for (const v of data) {
    sum += v;
    min = Math.min(min, v);
  }
  return { mean: sum / data.length, min };
}

let threePages: Uint8Array;

beforeAll(async () => {
  threePages = await makePdf({ pages: 3 });
});

// Worker start-up and rendering are slow on a busy 2-core machine.
describe('renderSnapshots', { timeout: 30_000 }, () => {
  it('renders one WebP per page at the requested width and reports progress', async () => {
    const progress: [number, number][] = [];
    const { snapshots, failures } = await renderSnapshots(
      threePages,
      'all',
      { jobs: 1, width: 600 },
      (d, t) => progress.push([d, t]),
    );
    expect(failures).toEqual([]);
    expect(snapshots.map((s) => s.page)).toEqual([1, 2, 3]);
    for (const snap of snapshots) {
      expect(isWebp(snap.webp)).toBe(true);
      const meta = await sharp(snap.webp).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(600);
      expect(snap.width).toBe(600);
      // A4 is 595 x 842 pt.
      expect(meta.height).toBe(Math.round((600 * 842) / 595));
      expect(snap.height).toBe(meta.height);
    }
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('defaults to 1000 px and honours landscape page sizes', async () => {
    const landscape = await makePdf({ pages: 1, size: 'LETTER', layout: 'landscape' });
    const { snapshots } = await renderSnapshots(landscape, 'all', { jobs: 1 });
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]!.width).toBe(1000);
    expect(snapshots[0]!.height).toBe(Math.round((1000 * 612) / 792));
  });

  it('renders on a white background with dark text', async () => {
    const { snapshots } = await renderSnapshots(threePages, [1], { jobs: 1, width: 600 });
    const webp = snapshots[0]!.webp;
    for (const corner of [
      { left: 0, top: 0 },
      { left: 550, top: 790 },
    ]) {
      const region = await greyRegion(webp, { ...corner, width: 50, height: 50 });
      expect(region.mean).toBeGreaterThan(254);
      expect(region.min).toBeGreaterThan(245);
    }
    expect(await darkPixels(webp)).toBeGreaterThan(500);
  });

  it('gives byte-identical output with one and two workers', async () => {
    const one = await renderSnapshots(threePages, 'all', { jobs: 1, width: 500 });
    const two = await renderSnapshots(threePages, 'all', { jobs: 2, width: 500 });
    expect(two.failures).toEqual([]);
    expect(two.snapshots.map((s) => s.page)).toEqual([1, 2, 3]);
    for (const [i, snap] of one.snapshots.entries()) {
      expect(Buffer.compare(snap.webp, two.snapshots[i]!.webp)).toBe(0);
    }
  });

  it('renders only the requested pages, once each, and reports pages that do not exist', async () => {
    const { snapshots, failures } = await renderSnapshots(threePages, [3, 1, 3, 7, 0], {
      jobs: 2,
      width: 300,
    });
    expect(snapshots.map((s) => s.page)).toEqual([1, 3]);
    expect(failures.map((f) => f.page)).toEqual([0, 7]);
    expect(failures[0]!.reason).toMatch(/invalid page number/);
    expect(failures[1]!.reason).toMatch(/no page 7/);
  });

  it('reports a corrupt PDF as failures without throwing', async () => {
    const garbage = new TextEncoder().encode('%PDF-1.7\nthis is not really a PDF\n%%EOF');
    const all = await renderSnapshots(garbage, 'all', { jobs: 2 });
    expect(all.snapshots).toEqual([]);
    expect(all.failures).toHaveLength(1);
    expect(all.failures[0]!.page).toBe(0);
    expect(all.failures[0]!.reason).toMatch(/PDF/);

    const listed = await renderSnapshots(garbage, [1, 2], { jobs: 2 });
    expect(listed.snapshots).toEqual([]);
    expect(listed.failures.map((f) => f.page)).toEqual([1, 2]);
    for (const failure of listed.failures) expect(failure.reason).toMatch(/PDF/);

    const empty = await renderSnapshots(new Uint8Array(0), 'all', { jobs: 1 });
    expect(empty.failures).toEqual([{ page: 0, reason: 'file is empty' }]);
  });

  it('rejects options it cannot honour', async () => {
    await expect(renderSnapshots(threePages, 'all', { jobs: 1, width: 0 })).rejects.toThrow(/width/);
    await expect(renderSnapshots(threePages, 'all', { jobs: 1, quality: 101 })).rejects.toThrow(/quality/);
  });
});
