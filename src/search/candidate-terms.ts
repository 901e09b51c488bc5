/**
 * The full-text terms that propose a question's candidate chunks: which of its terms are rare enough to
 * propose, within a budget of postings, each as an FTS5 query with its word and estimated weight. The
 * candidates are then scored exactly by rank.ts.
 */
import { idf } from './bm25.js';
import { facet, INDEX_FIELDS } from './chunk-index.js';

/**
 * Chunks the full-text index proposes for exact scoring. Its cheap estimate (words matched, summed IDF)
 * only chooses which chunks are scored; the order is decided by the exact scoring.
 */
/** Which chunks may be returned; an empty value does not restrict. */
export interface RankFilter {
  brand?: string;
  documents?: ReadonlySet<string>;
  language?: string;
}

/**
 * One term of a query word in one view: the columns it is looked up in and its weight there. The terms
 * of a word are alternatives (as written, its stem under each language's stemmer, its glossary concepts,
 * the index words a typo may stand for): a chunk scores the best of them, not their sum, so that a page
 * indexed under every language (a manual in a language without a stemmer, or in several) does not score
 * a word once per language. The parts of a code written in pieces (`part`) each add to that.
 */
export interface ScoredTerm {
  term: string;
  fields: { field: number; boost: number }[];
  weight: number;
  part: boolean;
  /** The language a stem or pair term is tagged with ("fr:pression"), or null for untagged terms. */
  language: string | null;
}

/** What the candidate estimate reads of the index: how many chunks carry a facet. */
type FacetCounts = { facetChunks(token: string): number };

export const CANDIDATES = 100;
/** Share of the chunks above which a term is too common to propose candidates. */
const COMMON_SHARE = 0.05;
/**
 * Postings (chunks per term within the filters, summed over the terms) that one question may count to
 * choose its candidates: counting and grouping them in SQLite is most of a search's cost and grows with
 * the corpus, so past this bound the rarest terms propose and the commoner ones only score (unless the
 * rarest propose fewer than CANDIDATES chunks). Far above what a question costs on a corpus of a few
 * thousand pages, so there it changes nothing.
 */
const POSTINGS_BUDGET = 20_000;

/**
 * The terms that propose candidates, each an FTS5 query with its word and weight (view weight x IDF).
 * Terms standing in more than COMMON_SHARE of the chunks are left out: their postings are what a query
 * costs, and their IDF adds little to the estimate (the exact scoring still counts them). Only when every
 * term of the question is that common does each word propose by its rarest term.
 */
export function candidateQuery(
  index: FacetCounts,
  scored: { terms: ScoredTerm[] }[],
  filter: RankFilter,
  frequencyOf: (term: string) => number[] | null,
  total: number,
): { all: CandidateTerm[]; within: CandidateTerm[] } {
  const filterMatch = facetExpression(filter);
  const common = Math.max(CANDIDATES, COMMON_SHARE * total);
  const all = scored.flatMap(({ terms }, word) =>
    terms.flatMap((t) => {
      const df = frequencyOf(t.term);
      if (!df) return [];
      const main = t.fields[0]!;
      const columns = t.fields.map((f) => INDEX_FIELDS[f.field]).join(' ');
      return [
        {
          match: `{${columns}} : ${quote(t.term)}${filterMatch ? ` AND ${filterMatch}` : ''}`,
          word,
          weight: t.weight * main.boost * idf(Math.max(1, df[main.field]!), total),
          df: Math.max(...df),
          postings: t.fields.reduce((sum, f) => sum + df[f.field]!, 0),
        },
      ];
    }),
  );
  let chosen = all.filter((t) => t.df <= common);
  if (chosen.length === 0) {
    const rarest = new Map<number, (typeof all)[number]>();
    for (const t of all) {
      const r = rarest.get(t.word);
      if (!r || t.df < r.df) rarest.set(t.word, t);
    }
    chosen = [...rarest.values()];
  }
  // A filter is applied inside the full-text query, so only its share of a term's postings is counted.
  const share = Math.min(1, filterChunks(index, filter, total) / Math.max(1, total));
  let postings = 0;
  const kept = new Set(
    [...chosen]
      .sort((a, b) => a.postings - b.postings)
      .filter((t, i) => {
        postings += t.postings * share;
        return i === 0 || postings <= POSTINGS_BUDGET;
      }),
  );
  const term = ({ match, word, weight }: CandidateTerm): CandidateTerm => ({ match, word, weight });
  return { all: chosen.map(term), within: chosen.filter((t) => kept.has(t)).map(term) };
}

export type CandidateTerm = { match: string; word: number; weight: number };

/** How many chunks the filters leave at most (the narrowest of them), or `total` when none is set. */
function filterChunks(index: FacetCounts, filter: RankFilter, total: number): number {
  let chunks = total;
  if (filter.brand) chunks = Math.min(chunks, index.facetChunks(facet.brand(filter.brand)));
  if (filter.language) {
    const language = index.facetChunks(facet.language(filter.language));
    chunks = Math.min(chunks, language + index.facetChunks(facet.language('mul')));
  }
  if (filter.documents) {
    let documents = 0;
    for (const d of filter.documents) documents += index.facetChunks(facet.document(d));
    chunks = Math.min(chunks, documents);
  }
  return chunks;
}

/** Brand and document filters as an FTS5 query on the facets, or null (language: searchCandidates). */
function facetExpression(filter: RankFilter): string | null {
  const facets: string[] = [];
  if (filter.brand) facets.push(quote(facet.brand(filter.brand)));
  if (filter.documents) {
    facets.push(`(${[...filter.documents].map((d) => quote(facet.document(d))).join(' OR ')})`);
  }
  return facets.length ? `{facets} : (${facets.join(' AND ')})` : null;
}

function quote(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
