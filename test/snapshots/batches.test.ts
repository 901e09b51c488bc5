import { describe, expect, it } from 'vitest';
import { splitIntoBatches } from '../../pipeline/snapshots/batches.js';

describe('splitIntoBatches', () => {
  it('covers every page once, in order, in contiguous batches of near-equal size', () => {
    const pages = Array.from({ length: 97 }, (_, i) => i + 1);
    const batches = splitIntoBatches(pages, 2);
    expect(batches.flat()).toEqual(pages);
    const sizes = batches.map((b) => b.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
  });

  it('cuts small documents fine enough for every worker to share the tail', () => {
    expect(splitIntoBatches([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 2).length).toBeGreaterThanOrEqual(8);
    expect(splitIntoBatches([5, 9], 4)).toEqual([[5], [9]]);
    expect(splitIntoBatches([], 2)).toEqual([]);
  });
});
