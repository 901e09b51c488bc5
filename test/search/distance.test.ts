import { describe, expect, it } from 'vitest';
import { boundedDistance } from '../../src/search/chunk-index.js';

/** The textbook edit distance, the whole table, as the reference the bounded one must agree with. */
function fullDistance(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) table[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      table[i]![j] = Math.min(table[i - 1]![j]! + 1, table[i]![j - 1]! + 1, table[i - 1]![j - 1]! + cost);
    }
  }
  return table[a.length]![b.length]!;
}

describe('boundedDistance', () => {
  it('agrees with the full edit distance within the bound and is null beyond it', () => {
    // A fixed pseudo-random sequence: words over a small alphabet, so that near spellings are common.
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () =>
      Array.from({ length: 1 + Math.floor(next() * 14) }, () => 'abcde'[Math.floor(next() * 5)]).join('');
    let within = 0;
    for (let n = 0; n < 3000; n++) {
      const a = word();
      const b = next() < 0.5 ? word() : a.slice(0, Math.floor(next() * a.length)) + word().slice(0, 2);
      const max = Math.floor(next() * 5);
      const d = fullDistance(a, b);
      expect(boundedDistance(a, b, max)).toBe(d <= max ? d : null);
      if (d <= max) within++;
    }
    // Both outcomes were exercised.
    expect(within).toBeGreaterThan(300);
    expect(within).toBeLessThan(2700);
  });

  it('handles a term longer than any before it, and the empty term', () => {
    const long = 'x'.repeat(300);
    expect(boundedDistance(long, `${long}yz`, 2)).toBe(2);
    expect(boundedDistance('', 'ab', 2)).toBe(2);
    expect(boundedDistance('ab', '', 1)).toBeNull();
    expect(boundedDistance('kompressor', 'compressor', 1)).toBe(1);
  });
});
