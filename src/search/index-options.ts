import type { Options } from 'minisearch';
import { analyzeText } from './analyzer.js';

/**
 * What the chunk index holds for each chunk. Every field is pre-analysed (space-separated terms): `terms`
 * the exact folded forms and codes, `stems` the language-tagged stems and compound parts, `concepts` the
 * glossary concepts, `pairs` neighbouring stems, `section` the first three views of the section path.
 */
export interface IndexedChunk {
  id: string;
  terms: string;
  stems: string;
  concepts: string;
  pairs: string;
  section: string;
  document_id: string;
  brand: string;
  language: string;
  page: number;
}

/**
 * Name of the chunk index in the bundle's search_indexes table. It changes whenever the analysis changes,
 * so that a bundle indexed the old way is reported as lacking an index instead of being searched wrongly.
 */
export const CHUNK_INDEX = 'chunks-v2';

export const INDEX_FIELDS = ['terms', 'stems', 'concepts', 'pairs', 'section'] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];

/** The one set of MiniSearch options used to build the chunk index and to load it back. */
export const chunkIndexOptions: Options<IndexedChunk> = {
  fields: [...INDEX_FIELDS],
  storeFields: ['document_id', 'brand', 'language', 'page'],
  // Fields are analysed before indexing (so that language-aware analysis can run per document); the
  // index only splits on spaces. Queries are analysed by the search engine the same way.
  tokenize: (text) => text.split(' ').filter(Boolean),
  processTerm: (term) => term,
  searchOptions: { prefix: false, fuzzy: false },
};

export function toIndexedChunk(chunk: {
  id: string;
  text: string;
  section: string;
  document_id: string;
  brand: string;
  language: string;
  page: number;
}): IndexedChunk {
  const body = analyzeText(chunk.text, chunk.language);
  const section = analyzeText(chunk.section, chunk.language);
  return {
    id: chunk.id,
    terms: body.exact.join(' '),
    stems: body.stems.join(' '),
    concepts: body.concepts.join(' '),
    pairs: body.pairs.join(' '),
    section: [...section.exact, ...section.stems, ...section.concepts].join(' '),
    document_id: chunk.document_id,
    brand: chunk.brand,
    language: chunk.language,
    page: chunk.page,
  };
}
