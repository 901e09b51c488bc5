import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIN_WORKER_HEAP_MB, SnapshotPool } from '../../pipeline/snapshots/index.js';
import { makeDensePdf, makePdf } from './fixtures.js';

let a4: Uint8Array;
let letter: Uint8Array;
const pools: SnapshotPool[] = [];

function pool(jobs: number, opts?: ConstructorParameters<typeof SnapshotPool>[1]): SnapshotPool {
  const p = new SnapshotPool(jobs, opts);
  pools.push(p);
  return p;
}

beforeAll(async () => {
  a4 = await makePdf({ pages: 3 });
  letter = await makePdf({ pages: 2, size: 'LETTER' });
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

// Worker start-up and rendering are slow on a busy 2-core machine.
describe('SnapshotPool', { timeout: 30_000 }, () => {
  it('serves several documents at once and in turn', async () => {
    const p = pool(2, { width: 400 });
    const [first, second] = await Promise.all([p.render(a4, 'all'), p.render(letter, 'all')]);
    expect(first.failures).toEqual([]);
    expect(second.failures).toEqual([]);
    expect(first.snapshots.map((s) => [s.page, s.height])).toEqual([
      [1, Math.round((400 * 842) / 595)],
      [2, Math.round((400 * 842) / 595)],
      [3, Math.round((400 * 842) / 595)],
    ]);
    expect(second.snapshots.map((s) => [s.page, s.height])).toEqual([
      [1, Math.round((400 * 792) / 612)],
      [2, Math.round((400 * 792) / 612)],
    ]);

    // Interleaved batches of two documents render exactly as each document alone.
    const alone = await pool(1, { width: 400 }).render(a4, 'all');
    for (const [i, snap] of alone.snapshots.entries()) {
      expect(Buffer.compare(snap.webp, first.snapshots[i]!.webp)).toBe(0);
    }

    const again = await p.render(letter, [2], { width: 200 });
    expect(again.snapshots).toHaveLength(1);
    expect((await sharp(again.snapshots[0]!.webp).metadata()).width).toBe(200);
    expect(Buffer.compare(again.snapshots[0]!.webp, second.snapshots[1]!.webp)).not.toBe(0);
  });

  it('terminates its workers on close and refuses work afterwards', async () => {
    const p = pool(2);
    await p.render(a4, [1, 2], { width: 200 });
    expect(p.workerCount).toBe(2);
    await p.close();
    expect(p.workerCount).toBe(0);
    await expect(p.render(a4, [1])).rejects.toThrow(/closed/);
  });

  it('fails the pages of a stuck worker and replaces it', async () => {
    const p = pool(1, { width: 300 });
    const stuck = await p.render(a4, 'all', { pageTimeoutMs: 1 });
    expect(stuck.snapshots).toEqual([]);
    expect(stuck.failures.map((f) => f.page)).toEqual([1, 2, 3]);
    for (const failure of stuck.failures) expect(failure.reason).toMatch(/no page rendered within 1 ms/);

    const after = await p.render(a4, 'all');
    expect(after.failures).toEqual([]);
    expect(after.snapshots).toHaveLength(3);
  });

  it('reports the pages of a worker that runs out of memory instead of hanging', async () => {
    // The smallest limit allowed; the dense page needs more than twice as much (it renders at 64 MB).
    const p = pool(1, { width: 300, maxWorkerHeapMb: MIN_WORKER_HEAP_MB });
    const { snapshots, failures } = await p.render(await makeDensePdf(), 'all');
    expect(snapshots).toEqual([]);
    expect(failures.map((f) => f.page)).toEqual([1]);
    for (const failure of failures) expect(failure.reason).toMatch(/worker crashed: .*memory/);
  });

  it('refuses a worker heap limit too small for V8 to start an isolate', () => {
    // Under a few MB V8 aborts the whole process while it starts the worker, not just the worker.
    for (const mb of [1, 8, MIN_WORKER_HEAP_MB - 1, Number.NaN]) {
      expect(() => new SnapshotPool(1, { maxWorkerHeapMb: mb })).toThrow(
        new RegExp(`maxWorkerHeapMb must be at least ${MIN_WORKER_HEAP_MB}`),
      );
    }
  });

  it('fails pending pages when closed mid-render', async () => {
    const p = pool(1, { width: 300 });
    const pending = p.render(a4, 'all');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await p.close();
    const { snapshots, failures } = await pending;
    expect(snapshots.length + failures.length).toBe(3);
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures) expect(failure.reason).toBe('pool closed');
  });
});
