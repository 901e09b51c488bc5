import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../../src/search/analyzer.js';
import { decodeChunkTerms, encodeChunkTerms, INDEX_FIELDS } from '../../src/search/chunk-index.js';
import { type ChunkIndex, rankPages } from '../../src/search/rank.js';

/**
 * An index of `total` chunks that reports what candidate queries it was asked, returning `proposed`
 * chunks for each; `counts` holds the chunk count of each term (see question()).
 */
function fakeIndex(options: { proposed: number; brandChunks?: number }) {
  const total = 1_000_000;
  const counts: Record<string, number> = {};
  const asked: string[][] = [];
  const index: ChunkIndex = {
    searchStats: { chunks: total, lengths: INDEX_FIELDS.map(() => total * 20) },
    termFrequencies: (term) => {
      const n = counts[term];
      return n === undefined ? null : [n, 0, 0, 0, 0];
    },
    facetChunks: () => options.brandChunks ?? 0,
    similarTerms: () => [],
    searchCandidates: (terms, limit) => {
      asked.push(terms.map((t) => t.match));
      const chunk = {
        terms: ['rare', 'common', 'frequent'],
        stems: [],
        concepts: [],
        pairs: [],
        section: [],
      };
      return Array.from({ length: Math.min(limit, options.proposed) }, (_, i) => ({
        id: `c${i}`,
        documentId: 'doc',
        page: i + 1,
        language: 'en',
        terms: decodeChunkTerms(encodeChunkTerms(chunk)),
      }));
    },
  };
  return { index, asked, counts };
}

/**
 * A question of three words, `rare`, `common` and `frequent`, whose exact forms stand in 50, 15,000
 * and 16,000 chunks of the index; other views stay unknown.
 */
function question(counts: Record<string, number>) {
  const query = analyzeQuery('rare common frequent');
  const words = query.words.map((w) => w.exact[0]!) as [string, string, string];
  const [rare, common, frequent] = words;
  counts[rare] = 50;
  counts[common] = 15_000;
  counts[frequent] = 16_000;
  return { query, rare, common, frequent };
}

describe('candidate postings bound', () => {
  it('lets only the rarest terms propose when all of them would exceed the bound, and scores with all', () => {
    const { index, asked, counts } = fakeIndex({ proposed: 100 });
    const { query, rare, common, frequent } = question(counts);
    const ranked = rankPages(index, query, {});
    expect(asked).toHaveLength(1);
    expect(asked[0]!.join(' ')).toContain(`"${rare}"`);
    expect(asked[0]!.join(' ')).toContain(`"${common}"`);
    expect(asked[0]!.join(' ')).not.toContain(`"${frequent}"`);
    // The candidates are still scored on every word: each chunk matches all three.
    expect(ranked).toHaveLength(100);
  });

  it('asks again with every term when the rarest propose fewer chunks than wanted', () => {
    const { index, asked, counts } = fakeIndex({ proposed: 3 });
    const { query, frequent } = question(counts);
    rankPages(index, query, {});
    expect(asked).toHaveLength(2);
    expect(asked[1]!.join(' ')).toContain(`"${frequent}"`);
  });

  it('counts only the filtered share of the postings', () => {
    const { index, asked, counts } = fakeIndex({ proposed: 100, brandChunks: 100_000 });
    const { query, frequent } = question(counts);
    rankPages(index, query, { brand: 'Acme' });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.join(' ')).toContain(`"${frequent}"`);
  });
});
