/**
 * Splits pages into contiguous batches: at least `workers * perWorker` of them, so the tail of a
 * document is shared by all workers, and none longer than `maxSize`. Small batches cost little:
 * a worker keeps the document open while it receives consecutive batches of it.
 */
export function splitIntoBatches(
  pages: readonly number[],
  workers: number,
  maxSize = 4,
  perWorker = 4,
): number[][] {
  if (pages.length === 0) return [];
  const wanted = Math.max(1, workers) * perWorker;
  const size = Math.max(1, Math.min(maxSize, Math.floor(pages.length / wanted)));
  const count = Math.ceil(pages.length / size);
  // Spread the remainder so that batches differ by at most one page.
  const base = Math.floor(pages.length / count);
  const extra = pages.length % count;
  const batches: number[][] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const len = base + (i < extra ? 1 : 0);
    batches.push(pages.slice(start, start + len));
    start += len;
  }
  return batches;
}
