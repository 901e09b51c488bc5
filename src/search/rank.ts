import type MiniSearch from 'minisearch';
import type { Query, SearchOptions } from 'minisearch';
import type { AnalyzedQuery, QueryWord } from './analyzer.js';
import type { IndexedChunk, IndexField } from './index-options.js';

/**
 * Weights of the views of a query word. A word found as written beats the same word found by its stem,
 * which beats a glossary equivalent (possibly in another language); the parts of a code written in
 * pieces count less than the whole; the section path counts less than the body because extracted
 * headings are often partial.
 */
export const WEIGHT = {
  exact: 1,
  part: 0.3,
  stem: 0.6,
  concept: 0.45,
  pair: 0.5,
  section: 0.5,
} as const;

/** Score factor for documents in the language the question is written in, when no language is asked. */
const SAME_LANGUAGE_BOOST = 1.3;

/**
 * Share of a page's score that comes from the page as a whole rather than from its best chunk: chunks cut
 * a page's text at headings, so the answer's words may stand in neighbouring chunks of one page.
 */
const PAGE_SHARE = 0.3;

/** BM25+ with less length normalisation than usual, as heading fragments make very short chunks. */
const BM25 = { k: 1.2, b: 0.5, d: 0.5 };

/** Words (and as many pairs) of a question that are scored: a long paste costs no more than a question. */
const MAX_WORDS = 40;

/** About one edit per five letters for a word taken for a typo. */
const FUZZY = 0.2;

/** Which chunks may be returned; an empty value does not restrict. */
export interface RankFilter {
  brand?: string;
  documents?: ReadonlySet<string>;
  language?: string;
}

export interface RankedPage {
  documentId: string;
  page: number;
  /** The chunk of the page that matches the question best. */
  chunkId: string;
  score: number;
  /** Index terms that mistyped words of the question were matched to in that chunk, if any. */
  corrected?: string[];
}

interface ChunkScore {
  id: string;
  score: number;
  words: number;
  page: PageScore;
  corrected?: Set<string>;
}

interface PageScore {
  documentId: string;
  page: number;
  score: number;
  words: number;
  chunks: ChunkScore[];
  /** The word being scored and the best score a chunk of this page got for it so far. */
  lastWord: number;
  wordBest: number;
}

type Group = QueryWord & { pairs?: string[] };

/**
 * Ranks the pages of the index for an analysed question. Each word of the question is scored on its own,
 * its views summed (so an exact match counts more than a stem or glossary match of the same word); pairs
 * of neighbouring words are scored like words. A chunk scores the sum over the words it matches times
 * how many it matches, so that covering more of the question beats repeating one word. A page scores
 * mostly as its best chunk, partly as if it were one chunk (per word, its best chunk's score).
 * Ties are broken by document, page and chunk id, so the order is deterministic.
 */
export function rankPages(
  index: MiniSearch<IndexedChunk>,
  query: AnalyzedQuery,
  filter: RankFilter,
): RankedPage[] {
  const groups: Group[] = [
    ...query.words.slice(0, MAX_WORDS),
    ...query.pairs
      .slice(0, MAX_WORDS)
      .map((pairs) => ({ exact: [], parts: [], stems: [], concepts: [], pairs, code: false })),
  ];
  if (query.words.length === 0) return [];
  const preferred = filter.language ? null : query.language;
  const boostDocument = (_id: unknown, _term: string, stored?: Record<string, unknown>): number => {
    const s = stored as Pick<IndexedChunk, 'document_id' | 'brand' | 'language'> | undefined;
    if (!s) return 0;
    if (filter.brand && s.brand !== filter.brand) return 0;
    if (filter.documents && !filter.documents.has(s.document_id)) return 0;
    if (filter.language && s.language !== filter.language && s.language !== 'mul') return 0;
    return preferred && s.language === preferred ? SAME_LANGUAGE_BOOST : 1;
  };

  const pages = new Map<string, PageScore>();
  const chunks = new Map<string, ChunkScore>();
  groups.forEach((group, w) => {
    const typo = isTypo(index, group);
    const own = typo
      ? new Set([...group.exact, ...group.parts, ...group.stems, ...group.concepts])
      : undefined;
    const queries = groupQueries(group, typo);
    for (const hit of index.search({ combineWith: 'OR', queries }, { boostDocument, bm25: BM25 })) {
      // MiniSearch multiplies by the number of query terms matched; undo it, the words are counted here.
      const score = hit.score / Math.max(1, hit.queryTerms.length);
      const id = String(hit.id);
      let chunk = chunks.get(id);
      if (!chunk) {
        const documentId = String(hit.document_id);
        const pageNumber = Number(hit.page);
        const key = `${documentId}\u0000${pageNumber}`;
        let page = pages.get(key);
        if (!page) {
          page = { documentId, page: pageNumber, score: 0, words: 0, chunks: [], lastWord: -1, wordBest: 0 };
          pages.set(key, page);
        }
        chunk = { id, score: 0, words: 0, page };
        page.chunks.push(chunk);
        chunks.set(id, chunk);
      }
      chunk.score += score;
      chunk.words += 1;
      if (own) {
        chunk.corrected ??= new Set();
        for (const term of Object.keys(hit.match)) if (!own.has(term)) chunk.corrected.add(term);
      }
      const page = chunk.page;
      if (page.lastWord !== w) {
        page.lastWord = w;
        page.wordBest = score;
        page.score += score;
        page.words += 1;
      } else if (score > page.wordBest) {
        page.score += score - page.wordBest;
        page.wordBest = score;
      }
    }
  });

  const ranked: RankedPage[] = [];
  for (const page of pages.values()) {
    let best: ChunkScore | undefined;
    let bestScore = -1;
    for (const chunk of page.chunks) {
      const score = chunk.score * chunk.words;
      if (score > bestScore || (score === bestScore && best && chunk.id < best.id)) {
        bestScore = score;
        best = chunk;
      }
    }
    ranked.push({
      documentId: page.documentId,
      page: page.page,
      chunkId: best!.id,
      score: (1 - PAGE_SHARE) * bestScore + PAGE_SHARE * page.score * page.words,
      ...(best!.corrected?.size ? { corrected: [...best!.corrected] } : {}),
    });
  }
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      compare(a.documentId, b.documentId) ||
      a.page - b.page ||
      compare(a.chunkId, b.chunkId),
  );
  return ranked;
}

/** One MiniSearch sub-query per view of a word, each on its field (and the section path). */
function groupQueries(group: Group, typo: boolean): Query[] {
  const queries: Query[] = [];
  const view = (terms: readonly string[], field: IndexField, weight: number, extra: SearchOptions = {}) => {
    if (terms.length === 0) return;
    queries.push({
      ...extra,
      queries: [terms.join(' ')],
      fields: field === 'pairs' ? [field] : [field, 'section'],
      boost: { [field]: weight, section: weight * WEIGHT.section },
    });
  };
  const partial = new Set(group.parts);
  view([...group.exact, ...group.parts], 'terms', WEIGHT.exact, {
    ...(typo ? { fuzzy: FUZZY } : {}),
    ...(partial.size > 0 ? { boostTerm: (term: string) => (partial.has(term) ? WEIGHT.part : 1) } : {}),
  });
  view(group.stems, 'stems', WEIGHT.stem);
  view(group.concepts, 'concepts', WEIGHT.concept);
  if (group.pairs) view(group.pairs, 'pairs', WEIGHT.pair);
  return queries;
}

/**
 * A word of five letters or more, without digits, that the index holds neither as written nor by any of
 * its stems is taken for a typo and matched loosely. Known words and codes are never matched loosely (and
 * prefix search is off throughout, so a code never matches a longer one).
 */
function isTypo(index: MiniSearch<IndexedChunk>, word: QueryWord): boolean {
  if (word.code || word.exact.length !== 1 || word.parts.length > 0) return false;
  const term = word.exact[0]!;
  return term.length >= 5 && !indexHasTerm(index, term) && !word.stems.some((s) => indexHasTerm(index, s));
}

/** Whether a term is in the index vocabulary; false (so: fuzzy search) if MiniSearch's internals differ. */
function indexHasTerm(index: MiniSearch<IndexedChunk>, term: string): boolean {
  const map = (index as unknown as { _index?: { has?: (t: string) => boolean } })._index;
  return typeof map?.has === 'function' ? map.has(term) : false;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
