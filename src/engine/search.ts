import { LRUCache } from 'lru-cache';
import type { BundleReader } from '../bundle/reader.js';
import type { ChunkRow } from '../bundle/schema.js';
import { pageResourceUri, snapshotUrl } from '../contract/common.js';
import type { SearchQuery, SearchResponse, SearchResult } from '../contract/search.js';
import { type AnalyzedQuery, analyzeQuery, analyzeText } from '../search/analyzer.js';
import { bestLinesHoldNumber } from '../search/answer-type.js';
import { decodeCursor, encodeCursor, InvalidCursorError, queryFingerprint } from '../search/cursor.js';
import { asksForQuantity } from '../search/question-types.js';
import { type RankedPage, rankPages } from '../search/rank.js';
import { bestSnippet } from '../search/snippet.js';
import { collapseSpace, containsVerbatim, normBrand, normModel } from '../text/normalise.js';
import { Admission } from './admission.js';
import { type CorpusView, corpusView } from './corpus.js';

export { InvalidCursorError };

const MAX_LIMIT = 50;
/** Results a query can page through: enough for any reader, and a bound on what the cache holds. */
const MAX_RESULTS = 500;
/** Bytes of ranked lists and of responses kept per reader: the bundle is immutable, so they never go stale. */
const RANKED_CACHE_BYTES = 8 * 2 ** 20;
const RESPONSE_CACHE_BYTES = 8 * 2 ** 20;

interface Ranked {
  pages: RankedPage[];
  analyzed: AnalyzedQuery;
}

interface ReaderCache {
  ranked: LRUCache<string, Ranked>;
  responses: LRUCache<string, SearchResponse>;
  /** Queries asked before: a ranked list and a response are kept from their second ask. */
  admission: Admission;
}

const caches = new WeakMap<BundleReader, ReaderCache>();

function cacheFor(reader: BundleReader): ReaderCache {
  let cache = caches.get(reader);
  if (!cache) {
    cache = {
      ranked: new LRUCache<string, Ranked>({
        maxSize: RANKED_CACHE_BYTES,
        // A ranked page is a few short strings and numbers; the analysed question is small.
        sizeCalculation: (r) => 2_000 + r.pages.length * 160,
      }),
      responses: new LRUCache<string, SearchResponse>({
        maxSize: RESPONSE_CACHE_BYTES,
        sizeCalculation: (r) => 2 * JSON.stringify(r).length,
      }),
      admission: new Admission(),
    };
    caches.set(reader, cache);
  }
  return cache;
}

/**
 * Free-text search over the manuals' chunks, in any of their languages: one result per page, best first
 * (ties by document, page, chunk), at most MAX_RESULTS of them, paginated with an opaque cursor bound to
 * the query (its text and filters, not the page size). A brand or model that the bundle does not know
 * gives no results. Responses are cached per reader and frozen. Throws InvalidCursorError for a cursor
 * issued for another query.
 */
export function searchChunks(reader: BundleReader, params: SearchQuery): SearchResponse {
  const cache = cacheFor(reader);
  const view = corpusView(reader);
  const q = collapseSpace(params.q);
  const limit = Math.min(MAX_LIMIT, Math.max(1, Math.trunc(params.limit ?? 10)));
  const brandKey = params.brand ? normBrand(params.brand) : '';
  const modelKey = params.model ? normModel(params.model) : '';
  const language = params.language ? params.language.trim().toLowerCase() : '';
  const queryKey = JSON.stringify([q, brandKey, modelKey, language]);
  const responseKey = `${queryKey}${limit}|${params.cursor ?? ''}`;
  const cached = cache.responses.get(responseKey);
  if (cached) return cached;

  const fingerprint = queryFingerprint(queryKey);
  const offset = params.cursor ? decodeCursor(params.cursor, fingerprint) : 0;
  const scope = scopeOf(view, brandKey, modelKey);
  let ranked = cache.ranked.get(queryKey);
  if (!ranked) {
    const analyzed = analyzeQuery(q);
    ranked = { pages: rank(view, q, analyzed, scope, language), analyzed };
    if (cache.admission.admit(queryKey)) cache.ranked.set(queryKey, ranked);
  }
  const { pages, analyzed } = ranked;
  const results = navigationDown(view, pages, offset + limit)
    .slice(offset, offset + limit)
    .map((r) => toResult(view, r, analyzed));
  const next = offset + limit < pages.length ? encodeCursor(offset + limit, fingerprint) : null;
  const response = deepFreeze({
    query: params.q,
    results,
    next_cursor: next,
    unmatched_filters: scope.unmatched,
  });
  if (cache.admission.admit(responseKey)) cache.responses.set(responseKey, response);
  return response;
}

/**
 * What the brand and model filters leave to search: the brand's name, the documents covering the model,
 * and the filters that name nothing the corpus holds (then nothing is searched).
 */
interface Scope {
  brand?: string;
  documents?: Set<string>;
  unmatched: ('brand' | 'model')[];
}

function scopeOf(view: CorpusView, brandKey: string, modelKey: string): Scope {
  let brand: string | undefined;
  if (brandKey) {
    brand = view.brandOf(brandKey);
    if (!brand) return { unmatched: ['brand'] };
  }
  let documents: Set<string> | undefined;
  if (modelKey) {
    documents = new Set();
    for (const b of brand ? [brand] : view.brands) {
      for (const entry of view.modelIndexOf(b).get(modelKey) ?? []) {
        for (const id of view.documentsOfModel(entry.model.id)) documents.add(id);
      }
    }
    if (documents.size === 0) return { ...(brand ? { brand } : {}), unmatched: ['model'] };
  }
  return { ...(brand ? { brand } : {}), ...(documents ? { documents } : {}), unmatched: [] };
}

function rank(
  view: CorpusView,
  q: string,
  analyzed: AnalyzedQuery,
  scope: Scope,
  language: string,
): RankedPage[] {
  const { brand, documents, unmatched } = scope;
  if (unmatched.length > 0 || analyzed.words.length === 0) return [];
  const filter = { brand, documents, language: language || undefined };
  const named = brand || documents ? undefined : namedDocuments(view, analyzed);
  const options = { named, titleTerms: titleTermsOf(view), modelWords: modelWords(view, analyzed) };
  const pages = rankPages(view.reader, analyzed, filter, options).slice(0, MAX_RESULTS);
  return asksForQuantity(q) ? numbersFirst(view, analyzed, pages) : pages;
}

/** Results re-scored for a question asking for a quantity: the first ones only, as a snippet is chosen. */
const ANSWER_TYPE_PAGES = 10;
/**
 * Score factor of such a page whose best-matching lines hold a number. Chosen on the working half of
 * the shared questions (BENCHMARKS.md, search round of 2026-11-26, third): 1.2 and 1.5 gave the same figures there.
 */
const ANSWER_TYPE_BOOST = 1.2;

/**
 * For a question asking for a quantity ("how many", "wie viele"), the first ANSWER_TYPE_PAGES pages
 * re-ordered with those whose best-matching lines hold a number (answer-type.ts) x ANSWER_TYPE_BOOST;
 * their scores only grow, so they stay ahead of the pages after them.
 */
function numbersFirst(view: CorpusView, analyzed: AnalyzedQuery, pages: RankedPage[]): RankedPage[] {
  const head = pages.slice(0, ANSWER_TYPE_PAGES).map((p) => {
    const chunk = view.chunk(p.chunkId);
    const doc = view.document(p.documentId);
    if (!chunk || !doc || !bestLinesHoldNumber(chunk.text, doc.language, analyzed)) return p;
    return { ...p, score: p.score * ANSWER_TYPE_BOOST };
  });
  // A stable sort: equal scores keep the ranking's own tie order.
  head.sort((a, b) => b.score - a.score);
  return [...head, ...pages.slice(ANSWER_TYPE_PAGES)];
}

const titleTerms = new WeakMap<CorpusView, Map<string, ReadonlySet<string> | undefined>>();

/**
 * The index terms of each document's title (exact, stems, concepts, pairs), analysed in its language on
 * first use and kept for the view: one small set per document, whatever the number of pages.
 */
function titleTermsOf(view: CorpusView): (documentId: string) => ReadonlySet<string> | undefined {
  let memo = titleTerms.get(view);
  if (!memo) {
    memo = new Map();
    titleTerms.set(view, memo);
  }
  const known = memo;
  return (documentId) => {
    if (known.has(documentId)) return known.get(documentId);
    const doc = view.document(documentId);
    const a = doc?.title ? analyzeText(doc.title, doc.language) : undefined;
    const terms = a ? new Set([...a.exact, ...a.stems, ...a.concepts, ...a.pairs]) : undefined;
    known.set(documentId, terms);
    return terms;
  };
}

/**
 * The manuals of the brands and models a question names ("… on the PAW-AW-MBS-H?", "Panasonic …"), for a
 * question sent without a brand or model: most such questions are about those manuals, in whatever
 * language they are asked, so their pages are preferred (not filtered: a manual may answer for another).
 */
function namedDocuments(view: CorpusView, analyzed: AnalyzedQuery): ReadonlySet<string> | undefined {
  const out = new Set<string>();
  for (const word of analyzed.words) {
    const name = word.exact[0];
    if (!name) continue;
    if (word.code) for (const id of view.documentsOfModelName(normModel(name))) out.add(id);
    const brand = view.brandOf(name);
    if (brand) for (const id of view.documentsOfBrand(brand)) out.add(id);
  }
  return out.size > 0 ? out : undefined;
}

/** Indexes of the question's words that name a model of the bundle ("PC1001", "BLN-010TB1"). */
function modelWords(view: CorpusView, analyzed: AnalyzedQuery): ReadonlySet<number> {
  const out = new Set<number>();
  analyzed.words.forEach((word, i) => {
    const name = word.exact[0];
    if (name && word.code && view.documentsOfModelName(normModel(name)).length > 0) out.add(i);
  });
  return out;
}

/**
 * Navigation pages (tables of contents, indexes, lists of figures, flagged at ingest) name the pages that
 * answer, not the answer: they follow every other page found, in their own order. Only the first `needed`
 * pages of that order are asked for: pages are looked at in rank order until that many others are found
 * (each flag is a look-up in the bundle), and all of them only when there are fewer.
 */
function navigationDown(view: CorpusView, pages: RankedPage[], needed: number): RankedPage[] {
  const content: RankedPage[] = [];
  const navigation: RankedPage[] = [];
  for (const p of pages) {
    if (content.length >= needed) return content;
    if (view.isNavigationPage(p.documentId, p.page)) navigation.push(p);
    else content.push(p);
  }
  return navigation.length === 0 ? pages : [...content, ...navigation];
}

function toResult(view: CorpusView, r: RankedPage, query: AnalyzedQuery): SearchResult {
  const chunk = view.chunk(r.chunkId);
  const doc = view.document(r.documentId);
  if (!chunk || !doc) throw new Error(`the search index refers to a chunk the bundle lacks: ${r.chunkId}`);
  const models = view
    .modelsOfDocument(doc.id)
    .map((m) => m.name)
    .sort();
  const snippet = bestSnippet(chunk.text, doc.language, query, r.corrected);
  const page = pageOf(view.reader, chunk, snippet);
  const section = sectionOf(chunk.section_path);
  return {
    chunk_id: chunk.id,
    document_id: doc.id,
    title: doc.title,
    brand: doc.brand,
    models,
    page,
    section,
    snippet,
    score: Math.round(r.score * 10_000) / 10_000,
    citation: {
      document_id: doc.id,
      title: doc.title,
      page,
      page_end: page,
      section,
      snapshot_url: snapshotUrl(doc.id, page),
      resource_uri: pageResourceUri(doc.id, page),
    },
  };
}

function sectionOf(json: string): string | null {
  try {
    const path = JSON.parse(json) as unknown;
    if (Array.isArray(path)) {
      const parts = path.map((p) => collapseSpace(String(p))).filter(Boolean);
      if (parts.length > 0) return parts.join(' / ');
    }
  } catch {
    // an unreadable path is reported as no section
  }
  return null;
}

/** The page of a chunk on which the snippet stands (a chunk may run over a page break). */
function pageOf(reader: BundleReader, chunk: ChunkRow, snippet: string): number {
  if (chunk.page_end <= chunk.page_start) return chunk.page_start;
  const firstLine = snippet.split('\n')[0] ?? snippet;
  for (const needle of [snippet, firstLine]) {
    for (let p = chunk.page_start; p <= chunk.page_end; p++) {
      const text = reader.page(chunk.document_id, p)?.text;
      if (text && containsVerbatim(text, needle)) return p;
    }
  }
  return chunk.page_start;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
