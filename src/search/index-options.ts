import type { Options } from 'minisearch';
import { analyze } from './analyzer.js';

/** What the chunk index holds for each chunk; `terms` is pre-analysed text (space-separated terms). */
export interface IndexedChunk {
  id: string;
  terms: string;
  section: string;
  document_id: string;
  brand: string;
  language: string;
  page: number;
}

export const CHUNK_INDEX = 'chunks';

/** The one set of MiniSearch options used to build the chunk index and to load it back. */
export const chunkIndexOptions: Options<IndexedChunk> = {
  fields: ['terms', 'section'],
  storeFields: ['document_id', 'brand', 'language', 'page'],
  // Fields are analysed before indexing (so that language-aware analysis can run per document); the
  // index only splits on spaces. Queries go through the same analyzer in the search engine.
  tokenize: (text) => text.split(' ').filter(Boolean),
  processTerm: (term) => term,
  searchOptions: { boost: { section: 2 }, prefix: false, fuzzy: false },
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
  return {
    id: chunk.id,
    terms: analyze(chunk.text).join(' '),
    section: analyze(chunk.section).join(' '),
    document_id: chunk.document_id,
    brand: chunk.brand,
    language: chunk.language,
    page: chunk.page,
  };
}
