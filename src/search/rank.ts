import { isLanguage } from '../text/stopwords.js';
import type { AnalyzedQuery, QueryWord } from './analyzer.js';
import { bm25 } from './bm25.js';
import { CANDIDATES, candidateQuery, type RankFilter, type ScoredTerm } from './candidate-terms.js';

export type { RankFilter } from './candidate-terms.js';

import { type ChunkTerms, INDEX_FIELDS, type IndexField } from './chunk-index.js';
import { reciprocalRankFusion } from './fusion.js';
import { titleCredit } from './title-credit.js';

/**
 * Weights of the views of a query word. A word counts once, by the best view a chunk holds it in: as
 * written beats the same word by its stem or by a glossary equivalent (a synonym, or the word in another
 * language); a glossary equivalent counts more than an inflection (0.8 against 0.6), as it is how a
 * question in one language finds the page of a manual in another, where no word stands as written (with
 * the same glossary, 0.6 found 41 / 61 % hit@1 / hit@3 of the translated questions in sample,
 * data/search/eval/, and 0.8 47 / 67 %, the shared questions unchanged); the parts of a code written in
 * pieces count less than the whole and add up; the section path counts less than the body because
 * extracted headings are often partial.
 */
export const WEIGHT = {
  exact: 1,
  part: 0.3,
  stem: 0.6,
  concept: 0.8,
  pair: 0.5,
  section: 0.5,
  /** The series part of a model name the index lacks whole ("BLN-010" for "BLN-010TB1"). */
  family: 0.5,
} as const;

/** Score factor for documents in the language the question is written in, when no language is asked. */
const SAME_LANGUAGE_BOOST = 1.15;
/** Score factor for the documents of the brands and models a question names (`named`). */
const NAMED_BOOST = 1.5;

/**
 * Share of a page's score that comes from the page as a whole rather than from its best chunk: chunks cut
 * a page's text at headings, so the answer's words may stand in neighbouring chunks of one page.
 */
const PAGE_SHARE = 0.3;

/** Words (and as many pairs) of a question that are scored: a long paste costs no more than a question. */
const MAX_WORDS = 40;

/** About one edit per five letters for a word taken for a typo, at most MAX_EDITS. */
const FUZZY = 0.2;
const MAX_EDITS = 6;
/** Weight of a word found for a mistyped one, scaled down by its distance (as MiniSearch did). */
const FUZZY_WEIGHT = 0.45;
/** Words of the index a mistyped word may stand for. */
const MAX_SPELLINGS = 50;

/** The on-disk index as ranking sees it (BundleReader implements it). */
export interface ChunkIndex {
  readonly searchStats: { chunks: number; lengths: number[] };
  termFrequencies(term: string): number[] | null;
  facetChunks(token: string): number;
  similarTerms(term: string, maxDistance: number, limit: number): { term: string; distance: number }[];
  searchCandidates(
    terms: readonly { match: string; word: number; weight: number }[],
    limit: number,
    language?: string,
  ): {
    id: string;
    documentId: string;
    page: number;
    language: string;
    terms: ChunkTerms;
  }[];
}

/** What the ranking knows of the documents beside the index. */
export interface RankOptions {
  /** Documents of the brands and models the question names: their pages score x NAMED_BOOST. */
  named?: ReadonlySet<string>;
  /** The index terms of a document's title (all views), or undefined when it has none (title-credit.ts). */
  titleTerms?: (documentId: string) => ReadonlySet<string> | undefined;
  /** Indexes in `query.words` of the words that name a model the bundle knows (`headedModels`). */
  modelWords?: ReadonlySet<number>;
}

export interface RankedPage {
  documentId: string;
  page: number;
  /** The chunk of the page that matches the question best. */
  chunkId: string;
  /** The fused score (fusion.ts): 2 / 61 for a page first in both orderings; only its order means anything. */
  score: number;
  /** Index terms that mistyped words of the question were matched to in that chunk, if any. */
  corrected?: string[];
}

interface ChunkScore {
  id: string;
  score: number;
  words: number;
  corrected?: Set<string>;
}

interface PageScore {
  documentId: string;
  page: number;
  score: number;
  words: number;
  chunks: ChunkScore[];
  /** Per word of the question, the best score a chunk of this page got for it so far. */
  wordBest: number[];
}

type Group = QueryWord & { pairs?: string[] };

/**
 * Ranks the pages of the index for an analysed question. Each word of the question is scored on its own,
 * by its best view (so an exact match counts more than a stem or glossary match of the same word); pairs
 * of neighbouring words are scored like words. A chunk scores the sum over the words it matches times
 * how many it matches, so that covering more of the question beats repeating one word. A page scores
 * mostly as its best chunk, partly as if it were one chunk (per word, its best chunk's score); the pages
 * are then ordered by the reciprocal rank fusion (fusion.ts) of that score and of how many of the
 * question's words and pairs the page holds (coordination level, pages holding as many sharing a rank),
 * so that a page near the top of both (the answer's words spread over neighbouring chunks) comes before
 * one whose single chunk matches well but which holds fewer of the question's words, without a weight
 * fitted between the two (BENCHMARKS.md, search round of 2026-11-26, fifth). A page's `score` is its
 * fused score. With
 * `titleTerms`, a word of a manual's title counts on every page of it at half its best score there
 * (title-credit.ts), and with `modelWords` so does a model the question names that the manual prints in
 * a heading (`headedModels`). Ties are broken by document, page and chunk id, so the order is deterministic.
 *
 * The full-text index proposes CANDIDATES chunks: most words matched x weight x IDF of the first term held
 * (candidates.ts), filters applied; on a large corpus only the rarest
 * terms, up to POSTINGS_BUDGET postings, propose, as long as they propose CANDIDATES chunks. Each is then scored exactly with
 * BM25+ per view from its stored term frequencies. On the shared keys, 100 candidates give the same
 * hit@1 and hit@3 as scoring every chunk (50 lose two questions).
 */
export function rankPages(
  index: ChunkIndex,
  query: AnalyzedQuery,
  filter: RankFilter,
  options: RankOptions = {},
): RankedPage[] {
  const groups: Group[] = [
    ...query.words.slice(0, MAX_WORDS),
    ...query.pairs
      .slice(0, MAX_WORDS)
      .map((pairs) => ({ exact: [], parts: [], stems: [], concepts: [], pairs, code: false })),
  ];
  if (query.words.length === 0) return [];
  const frequencies = new Map<string, number[] | null>();
  const frequencyOf = (term: string): number[] | null => {
    let f = frequencies.get(term);
    if (f === undefined) {
      f = index.termFrequencies(term);
      frequencies.set(term, f);
    }
    return f;
  };
  const scored = groups.map((group) => groupTerms(index, group, frequencyOf));
  const { chunks: total, lengths } = index.searchStats;
  const { all: candidateTerms, within } = candidateQuery(index, scored, filter, frequencyOf, total);
  if (candidateTerms.length === 0) return [];
  let candidates = index.searchCandidates(within, CANDIDATES, filter.language);
  // The rarest terms alone may propose fewer chunks than asked (rare words, a narrow filter): then every
  // term proposes, as without the bound, rather than leaving the list short.
  if (candidates.length < CANDIDATES && within.length < candidateTerms.length) {
    candidates = index.searchCandidates(candidateTerms, CANDIDATES, filter.language);
  }

  const average = lengths.map((l) => l / Math.max(1, total));
  const preferred = filter.language ? null : query.language;
  // Each candidate's score per word of the question (its best view plus the parts of a code).
  const rows = candidates.map((candidate) => {
    const tagged = isLanguage(candidate.language);
    const boost =
      (preferred && candidate.language === preferred ? SAME_LANGUAGE_BOOST : 1) *
      (options.named?.has(candidate.documentId) ? NAMED_BOOST : 1);
    const scores: number[] = [];
    const corrections: (string[] | undefined)[] = [];
    scored.forEach(({ terms, own }) => {
      // The best view of the word, plus each part of a code it was written in.
      let bestView = 0;
      let parts = 0;
      let corrected: string[] | undefined;
      for (const t of terms) {
        // A chunk is analysed in its document's language only (all of them when it has none of ours):
        // another language's stems and pairs cannot stand in it, so its stored terms are not searched.
        if (t.language && tagged && t.language !== candidate.language) continue;
        const df = frequencyOf(t.term);
        if (!df) continue;
        let termScore = 0;
        for (const { field, boost: fieldBoost } of t.fields) {
          // A view no chunk holds the term in cannot hold it in this one: not searched for.
          if (!df[field]) continue;
          const tf = candidate.terms.frequency(field, t.term);
          if (!tf) continue;
          const raw = bm25(tf, df[field]!, total, candidate.terms.lengths[field]!, average[field]!);
          termScore += t.weight * fieldBoost * boost * raw;
        }
        if (termScore <= 0) continue;
        if (t.part) parts += termScore;
        else if (termScore > bestView) bestView = termScore;
        if (own && !own.has(t.term)) {
          corrected ??= [];
          corrected.push(t.term);
        }
      }
      scores.push(bestView + parts);
      corrections.push(corrected);
    });
    return { candidate, scores, corrections };
  });
  const credit = titleCredit(
    rows,
    scored,
    options.titleTerms,
    headedModels(rows, scored, options.modelWords),
  );

  const pages = new Map<string, PageScore>();
  for (const { candidate, scores, corrections } of rows) {
    const key = `${candidate.documentId}\u0000${candidate.page}`;
    let page = pages.get(key);
    if (!page) {
      page = {
        documentId: candidate.documentId,
        page: candidate.page,
        score: 0,
        words: 0,
        chunks: [],
        wordBest: [],
      };
      pages.set(key, page);
    }
    const chunk: ChunkScore = { id: candidate.id, score: 0, words: 0 };
    const titled = credit.get(candidate.documentId);
    scores.forEach((own, w) => {
      const score = Math.max(own, titled?.[w] ?? 0);
      if (score <= 0) return;
      chunk.score += score;
      chunk.words += 1;
      const corrected = corrections[w];
      if (corrected && own >= score) {
        chunk.corrected ??= new Set();
        for (const c of corrected) chunk.corrected.add(c);
      }
      const best = page.wordBest[w];
      if (best === undefined) {
        page.wordBest[w] = score;
        page.score += score;
        page.words += 1;
      } else if (score > best) {
        page.score += score - best;
        page.wordBest[w] = score;
      }
    });
    if (chunk.words > 0) page.chunks.push(chunk);
  }

  // Two orderings of the pages: by their score (mostly the best chunk's, partly the page read as one
  // chunk), and by how many of the question's words (and pairs) the page holds; fused by rank (fusion.ts).
  const found: (Omit<RankedPage, 'score'> & { own: number; words: number })[] = [];
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
    if (!best) continue;
    found.push({
      documentId: page.documentId,
      page: page.page,
      chunkId: best.id,
      own: (1 - PAGE_SHARE) * bestScore + PAGE_SHARE * page.score * page.words,
      words: page.words,
      ...(best.corrected?.size ? { corrected: [...best.corrected] } : {}),
    });
  }
  const fused = reciprocalRankFusion([found.map((p) => p.own), found.map((p) => p.words)]);
  const ranked = found.map(({ own, words: _, ...page }, i) => ({ ...page, score: fused[i]!, own }));
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      b.own - a.own ||
      compare(a.documentId, b.documentId) ||
      a.page - b.page ||
      compare(a.chunkId, b.chunkId),
  );
  return ranked.map(({ own: _, ...page }) => page);
}

/**
 * Per candidate document, the model words of the question (`modelWords`) that one of its candidate
 * chunks holds in its section path: a manual that prints a model's name in a heading has a part about
 * that model (a pool heat pump's manual with a section on its controller), so the name counts on every
 * page of that manual as a title word does (title-credit.ts), and the pages of that part compete with
 * the manual named after the model on the question's other words. A model name standing only in running
 * text gives no such credit: a word credited on every page of each manual that merely mentions it lost
 * a held-out question (BENCHMARKS.md, search round of 2026-11-26, fourth). One pass over the candidates,
 * and none when the question names no model.
 */
function headedModels(
  rows: readonly { candidate: { documentId: string; terms: ChunkTerms }; scores: readonly number[] }[],
  scored: readonly { terms: readonly ScoredTerm[] }[],
  modelWords: ReadonlySet<number> | undefined,
): Map<string, Set<number>> | undefined {
  if (!modelWords?.size) return undefined;
  const headed = new Map<string, Set<number>>();
  for (const { candidate, scores } of rows) {
    for (const w of modelWords) {
      if (!scores[w] || headed.get(candidate.documentId)?.has(w)) continue;
      const terms = scored[w]?.terms ?? [];
      if (!terms.some((t) => !t.part && candidate.terms.frequency(FIELD.section, t.term) > 0)) continue;
      const set = headed.get(candidate.documentId) ?? new Set<number>();
      set.add(w);
      headed.set(candidate.documentId, set);
    }
  }
  return headed;
}

const FIELD = Object.fromEntries(INDEX_FIELDS.map((f, i) => [f, i])) as Record<IndexField, number>;

/** The language tag of a stem or pair term ("fr:pression", "en:heat+pump"), or null. */
function tagOf(term: string): string | null {
  const colon = term.indexOf(':');
  if (colon !== 2) return null;
  const tag = term.slice(0, 2);
  return isLanguage(tag) ? tag : null;
}

/**
 * The terms of one word of the question, each with the views it is looked up in: the exact forms (and,
 * weaker, the parts of a code) in the exact view, the stems, the concepts, the pairs, each also in the
 * section path except pairs. A mistyped word also stands for the index's words within a few edits.
 */
function groupTerms(
  index: ChunkIndex,
  group: Group,
  frequencyOf: (term: string) => number[] | null,
): { terms: ScoredTerm[]; own?: Set<string> } {
  const terms: ScoredTerm[] = [];
  const view = (list: readonly string[], field: IndexField, weight: number, termWeight = 1, part = false) => {
    const fields = [{ field: FIELD[field], boost: weight }];
    if (field !== 'pairs') fields.push({ field: FIELD.section, boost: weight * WEIGHT.section });
    for (const term of list) terms.push({ term, fields, weight: termWeight, part, language: tagOf(term) });
  };
  view(group.exact, 'terms', WEIGHT.exact);
  view(group.parts, 'terms', WEIGHT.exact, WEIGHT.part, true);
  view(group.stems, 'stems', WEIGHT.stem);
  view(group.concepts, 'concepts', WEIGHT.concept);
  if (group.pairs) view(group.pairs, 'pairs', WEIGHT.pair);
  const family = modelFamily(group, frequencyOf);
  if (family) view([family], 'terms', WEIGHT.exact, WEIGHT.family);
  if (!isTypo(group, frequencyOf)) return { terms };
  const word = group.exact[0]!;
  const maxDistance = Math.min(MAX_EDITS, Math.round(word.length * FUZZY));
  if (maxDistance > 0) {
    for (const { term, distance } of index.similarTerms(word, maxDistance, MAX_SPELLINGS)) {
      view([term], 'terms', WEIGHT.exact, (FUZZY_WEIGHT * term.length) / (term.length + distance));
    }
  }
  return { terms, own: new Set([...group.exact, ...group.parts, ...group.stems, ...group.concepts]) };
}

/**
 * For a model name or code ("BLN-010TB1"), its longest leading part that the index holds as a word of
 * its own, cut where letters and digits meet and holding both ("bln010"): specification tables print a
 * series name and its suffix in separate cells, and a question may name a variant of a model the manual
 * names by its series. Four characters at least, so a short fault code never stands for a shorter one;
 * weaker than the whole name (WEIGHT.family).
 */
function modelFamily(group: Group, frequencyOf: (term: string) => number[] | null): string | null {
  if (!group.code || group.exact.length !== 1) return null;
  const word = group.exact[0]!;
  const cuts = [...word.matchAll(/(?<=\d)(?=\p{L})|(?<=\p{L})(?=\d)/gu)].map((m) => m.index ?? 0);
  for (const cut of cuts.reverse()) {
    const prefix = word.slice(0, cut);
    if (prefix.length >= 4 && /\d/.test(prefix) && /\p{L}/u.test(prefix) && frequencyOf(prefix))
      return prefix;
  }
  return null;
}

/**
 * A word of five letters or more, without digits, that the index holds neither as written nor by any of
 * its stems is taken for a typo and matched loosely. Known words and codes are never matched loosely (and
 * there is no prefix search, so a code never matches a longer one).
 */
function isTypo(word: QueryWord, frequencyOf: (term: string) => number[] | null): boolean {
  if (word.code || word.exact.length !== 1 || word.parts.length > 0) return false;
  const term = word.exact[0]!;
  return term.length >= 5 && !frequencyOf(term) && !word.stems.some((s) => frequencyOf(s));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
