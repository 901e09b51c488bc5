import { describe, expect, it } from 'vitest';
import { CandidateCounter, kthLargest } from '../../src/search/candidates.js';

describe('CandidateCounter', () => {
  it('ranks by words held times the weight of the first term held, ties by rowid', () => {
    const counter = new CandidateCounter(16);
    counter.begin();
    // Word 0 has two terms: a chunk holding both still holds one word.
    counter.addPostings([3], 0, 2);
    counter.addPostings([3], 0, 5);
    counter.addPostings([5], 0, 2);
    counter.addPostings([3], 1, 1);
    counter.addPostings([5], 1, 1);
    counter.addPostings([7], 1, 4);
    counter.addPostings([9], 2, 4);
    // 3: 2 words x 2 = 4; 5: 2 x 2 = 4; 7: 1 x 4 = 4; 9: 1 x 4 = 4: all tie, lowest rowid first.
    expect(counter.top(10)).toEqual([3, 5, 7, 9]);
    counter.addPostings([11], 1, 3);
    counter.addPostings([11], 2, 9);
    // 11: 2 words x its first term's weight 3 = 6, ahead of all; the limit keeps the lowest tied rowids.
    expect(counter.top(3)).toEqual([11, 3, 5]);
  });

  it('starts each question afresh and grows past its first size', () => {
    const counter = new CandidateCounter(4);
    counter.begin();
    counter.addPostings([1], 0, 1);
    counter.addPostings([2], 0, 3);
    counter.begin();
    counter.addPostings([100], 0, 1);
    counter.addPostings([1], 0, 2);
    counter.addPostings([1], 1, 1);
    expect(counter.top(5)).toEqual([1, 100]);
  });

  it('keeps exactly `limit` of many, the same as sorting them all', () => {
    const counter = new CandidateCounter(5000);
    counter.begin();
    let seed = 11;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const firsts = new Map<number, number>();
    const words = new Map<number, Set<number>>();
    for (let word = 0; word < 6; word++) {
      for (let n = 0; n < 800; n++) {
        const rowid = Math.floor(next() * 4000);
        // Few distinct weights, so that ties are common.
        const weight = 1 + Math.floor(next() * 4);
        counter.addPostings([rowid], word, weight);
        if (!firsts.has(rowid)) firsts.set(rowid, weight);
        words.set(rowid, (words.get(rowid) ?? new Set()).add(word));
      }
    }
    const key = (r: number) => words.get(r)!.size * firsts.get(r)!;
    const expected = [...firsts.keys()].sort((a, b) => key(b) - key(a) || a - b).slice(0, 100);
    expect(counter.top(100)).toEqual(expected);
  });
});

describe('kthLargest', () => {
  it('is the k-th value of the list sorted from the largest', () => {
    const values = [5, 1, 9, 9, 3, 7, 2, 9, 0, 4];
    const sorted = [...values].sort((a, b) => b - a);
    for (let k = 0; k < values.length; k++) {
      expect(kthLargest(Float64Array.from(values), k)).toBe(sorted[k]);
    }
  });
});
