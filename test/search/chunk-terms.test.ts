import { describe, expect, it } from 'vitest';
import {
  decodeChunkTerms,
  encodeChunkTerms,
  INDEX_FIELDS,
  type IndexedChunk,
} from '../../src/search/chunk-index.js';

/*
 * A chunk's stored term counts read back exactly, whether a line is bisected (a bundle that writes its
 * terms in order) or read from end to end (a bundle written before), for every term it holds and for
 * terms it does not: prefixes and extensions of its terms, and terms before the first and after the last.
 */

/** A small deterministic generator (mulberry32): the same chunks on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdeéfgz019_:-.';

function term(next: () => number): string {
  const length = 1 + Math.floor(next() * 6);
  let out = '';
  for (let i = 0; i < length; i++) out += LETTERS[Math.floor(next() * LETTERS.length)];
  return out;
}

function chunkOf(next: () => number): IndexedChunk {
  const chunk = {} as IndexedChunk;
  for (const field of INDEX_FIELDS) {
    const distinct = Array.from({ length: Math.floor(next() * 40) }, () => term(next));
    // Some terms many times (written `term*N`), some once.
    chunk[field] = distinct.flatMap((t) =>
      Array.from({ length: next() < 0.3 ? 2 + Math.floor(next() * 11) : 1 }, () => t),
    );
  }
  return chunk;
}

function truth(chunk: IndexedChunk, field: number, t: string): number {
  return chunk[INDEX_FIELDS[field]!].filter((x) => x === t).length;
}

describe('stored term counts', () => {
  it('are written in code-unit order, one line per view, led by its length', () => {
    const data = encodeChunkTerms({
      terms: ['pompe', 'eau', 'pompe', 'Zone', 'e9'],
      stems: [],
      concepts: ['c:pump'],
      pairs: [],
      section: ['eau'],
    });
    expect(data.split('\n')).toEqual(['5 Zone e9 eau pompe*2', '0', '1 c:pump', '0', '1 eau']);
  });

  it('read back every term and no other, bisected or read in full', () => {
    const next = random(20261127);
    for (let round = 0; round < 200; round++) {
      const chunk = chunkOf(next);
      const data = encodeChunkTerms(chunk);
      const bisected = decodeChunkTerms(data, true);
      const scanned = decodeChunkTerms(data, false);
      expect(bisected.lengths).toEqual(INDEX_FIELDS.map((f) => chunk[f].length));
      INDEX_FIELDS.forEach((field, i) => {
        const held = [...new Set(chunk[field])];
        const asked = [
          ...held,
          ...held.flatMap((t) => [t.slice(0, -1), `${t}a`, `${t}*`, `a${t}`]),
          '',
          '0',
          '\u0000',
          '\uffff',
          term(next),
        ];
        for (const t of asked) {
          const expected = t === '' ? 0 : truth(chunk, i, t);
          expect(bisected.frequency(i, t), `${field} ${JSON.stringify(t)} in ${data}`).toBe(expected);
          expect(scanned.frequency(i, t), `${field} ${JSON.stringify(t)}`).toBe(expected);
        }
      });
    }
  });
});
