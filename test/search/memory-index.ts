import {
  type analyzeChunk,
  decodeChunkTerms,
  encodeChunkTerms,
  INDEX_FIELDS,
} from '../../src/search/chunk-index.js';
import type { ChunkIndex } from '../../src/search/rank.js';

/** A chunk of a generated page, analysed as ingest analyses it. */
export interface MemoryChunk {
  id: string;
  documentId: string;
  page: number;
  language: string;
  indexed: ReturnType<typeof analyzeChunk>;
}

/**
 * An in-memory index holding every chunk as the bundle's index would (the same stored term frequencies
 * and field lengths) and proposing all of them as candidates, so that ranking tests see the ranking alone.
 */
export function memoryIndex(chunks: MemoryChunk[]): ChunkIndex {
  const df = new Map<string, number[]>();
  const lengths = INDEX_FIELDS.map(() => 0);
  for (const c of chunks) {
    INDEX_FIELDS.forEach((field, f) => {
      lengths[f]! += c.indexed[field].length;
      for (const term of new Set(c.indexed[field])) {
        const counts = df.get(term) ?? INDEX_FIELDS.map(() => 0);
        counts[f]!++;
        df.set(term, counts);
      }
    });
  }
  return {
    searchStats: { chunks: chunks.length, lengths },
    termFrequencies: (term) => df.get(term) ?? null,
    facetChunks: () => chunks.length,
    similarTerms: () => [],
    searchCandidates: (_terms, limit) =>
      chunks.slice(0, limit).map((c) => ({
        id: c.id,
        documentId: c.documentId,
        page: c.page,
        language: c.language,
        terms: decodeChunkTerms(encodeChunkTerms(c.indexed)),
      })),
  };
}
