import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../src/search/analyzer.js';
import { analyzeChunk } from '../../src/search/chunk-index.js';
import { competitionRanks, FUSION_K, reciprocalRankFusion } from '../../src/search/fusion.js';
import { type ChunkIndex, rankPages } from '../../src/search/rank.js';
import { memoryIndex } from './memory-index.js';

/** An in-memory index of generated pages, each a list of chunks, every chunk proposed as a candidate. */
function pagesIndex(pages: { documentId: string; page: number; chunks: string[] }[]): ChunkIndex {
  const chunks = pages.flatMap((p) =>
    p.chunks.map((text, i) => ({
      id: `${p.documentId}.p${p.page}.c${i}`,
      documentId: p.documentId,
      page: p.page,
      language: 'en',
      indexed: analyzeChunk(text, '', 'en'),
    })),
  );
  return memoryIndex(chunks);
}

describe('reciprocal rank fusion', () => {
  it('gives equal scores one rank and skips the next', () => {
    expect(competitionRanks([3, 5, 5, 1])).toEqual([3, 1, 1, 4]);
    expect(competitionRanks([])).toEqual([]);
  });

  it('puts an item second in one ordering and first in the other before one first and third', () => {
    const fused = reciprocalRankFusion([
      [10, 9, 1],
      [1, 10, 9],
    ]);
    expect(fused[1]).toBeGreaterThan(fused[0]!);
    expect(fused[0]).toBeCloseTo(1 / (FUSION_K + 1) + 1 / (FUSION_K + 3));
    // Tied items stay tied.
    expect(reciprocalRankFusion([[2, 2, 1]]).slice(0, 2)).toEqual([1 / (FUSION_K + 1), 1 / (FUSION_K + 1)]);
  });

  it("ranks first a page whose answer's words stand in two chunks over a page with one closer chunk", () => {
    // One manual's page holds three of the question's words in one chunk; two others' pages hold all four,
    // split over two chunks. By its score (mostly its best chunk's) the first page leads; by the words
    // of the question a page holds the others do.
    const filler = Array.from({ length: 8 }, (_, i) => ({
      documentId: `other-${i}`,
      page: 1,
      chunks: [`Wiring of the terminal block number ${i} and its fuse`],
    }));
    const index = pagesIndex([
      { documentId: 'one-chunk', page: 4, chunks: ['Defrost cycle interval'] },
      { documentId: 'split-a', page: 7, chunks: ['Defrost cycle', 'Interval sensor'] },
      { documentId: 'split-b', page: 9, chunks: ['Defrost cycle', 'Interval sensor'] },
      ...filler,
    ]);
    const ranked = rankPages(index, analyzeQuery('defrost cycle interval sensor'), {});
    expect(ranked.slice(0, 3).map((p) => p.documentId)).toEqual(['split-a', 'split-b', 'one-chunk']);
    // The two split pages are equal in both orderings: one fused score, ordered by document.
    expect(ranked[0]!.score).toBe(ranked[1]!.score);
  });
});
