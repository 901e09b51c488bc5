import { fold } from '../text/normalise.js';
import { analyzeText } from './analyzer.js';

/**
 * The views of a chunk the index holds, each pre-analysed: `terms` the exact folded forms and codes,
 * `stems` the language-tagged stems and compound parts, `concepts` the glossary concepts, `pairs`
 * neighbouring stems, `section` the first three views of the section path.
 */
export const INDEX_FIELDS = ['terms', 'stems', 'concepts', 'pairs', 'section'] as const;
export type IndexField = (typeof INDEX_FIELDS)[number];
export type IndexedChunk = Record<IndexField, string[]>;

/** Analyses a chunk in its document's language into the indexed views. */
export function analyzeChunk(text: string, section: string, language: string): IndexedChunk {
  const body = analyzeText(text, language);
  const head = analyzeText(section, language);
  return {
    terms: body.exact,
    stems: body.stems,
    concepts: body.concepts,
    pairs: body.pairs,
    section: [...head.exact, ...head.stems, ...head.concepts],
  };
}

/**
 * Filter tokens of a chunk, indexed in their own column so that brand, language and document filters are
 * part of the full-text query instead of a join over every match.
 */
export const facet = {
  brand: (brand: string) => `b:${fold(brand).replace(/[^\p{L}\p{N}]/gu, '')}`,
  language: (language: string) => `l:${language}`,
  document: (id: string) => `d:${id}`,
};

export function facetTokens(brand: string, language: string, documentId: string): string {
  return [facet.brand(brand), facet.language(language), facet.document(documentId)].join(' ');
}

/** How often a term stands in a view of one chunk (0 when it does not), and each view's length in terms. */
export interface ChunkTerms {
  lengths: number[];
  frequency(field: number, term: string): number;
}

/**
 * A chunk's term frequencies, stored beside the full-text index so that the final ranking can score a
 * few hundred candidates exactly (BM25+ per view) without analysing their text again. One line per view:
 * its length, then each distinct term in code-unit order, `*N` appended when it stands N > 1 times. Plain
 * text: inflating a few hundred small blobs per query costs more (a zlib stream each) than the space it
 * would save. In order so that a term is found by bisection (`decodeChunkTerms`); a bundle says so in its
 * meta (`META.chunkTermsOrder`), and lines of a bundle written before are searched from end to end.
 */
export function encodeChunkTerms(chunk: IndexedChunk): string {
  const lines = INDEX_FIELDS.map((field) => {
    const counts = new Map<string, number>();
    for (const t of chunk[field]) counts.set(t, (counts.get(t) ?? 0) + 1);
    const parts = [String(chunk[field].length)];
    for (const t of [...counts.keys()].sort(byCodeUnits)) {
      const n = counts.get(t)!;
      parts.push(n > 1 ? `${t}*${n}` : t);
    }
    return parts.join(' ');
  });
  return lines.join('\n');
}

/** `<` on strings: UTF-16 code units, the order `compareAt` bisects in. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A chunk's stored term frequencies, read in place: a term is looked up in its view's line when asked
 * for. A question asks for a few dozen terms in chunks that hold hundreds, and splitting every line into
 * a map was most of a search's JavaScript time (and garbage). With `sorted` (lines written in order), by
 * bisection over the line: at 100,000 pages a slow question asked some 6,000 look-ups of lines 4 KB long,
 * each read from the line's start; bisecting took 4-5 ms off the p99 of the search's own CPU
 * (BENCHMARKS.md, search at scale).
 */
export function decodeChunkTerms(data: string, sorted = false): ChunkTerms {
  const lines = data.split('\n');
  const count = sorted ? termCountSorted : termCount;
  return {
    lengths: lines.map((line) => Number.parseInt(line, 10)),
    frequency: (field, term) => {
      const line = lines[field];
      return line === undefined || term === '' ? 0 : count(line, term);
    },
  };
}

/** How often `term` stands in an encoded line: as a whole token, bare (once) or with `*N`. */
function termCount(line: string, term: string): number {
  for (let at = line.indexOf(term); at >= 0; at = line.indexOf(term, at + 1)) {
    if (at === 0 || line.charCodeAt(at - 1) !== 32) continue;
    const n = countAfter(line, at + term.length);
    if (n > 0) return n;
  }
  return 0;
}

/**
 * The count written after a term that ends at `end`: 1 when the token ends there, N for `*N`, 0 when
 * the token goes on (the term was only its start).
 */
function countAfter(line: string, end: number): number {
  if (end === line.length || line.charCodeAt(end) === 32) return 1;
  if (line.charCodeAt(end) !== 42) return 0;
  let n = 0;
  let i = end + 1;
  for (; i < line.length && line.charCodeAt(i) !== 32; i++) {
    const c = line.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return 0;
    n = n * 10 + c;
  }
  return i > end + 1 ? n : 0;
}

/**
 * `termCount` over a line whose terms are in code-unit order: bisection over the characters, each probe
 * moved back to the start of its token. No allocation: the term is compared in place.
 */
function termCountSorted(line: string, term: string): number {
  // The first token is the view's length, not a term.
  let lo = line.indexOf(' ') + 1;
  if (lo === 0) return 0;
  let hi = line.length;
  while (lo < hi) {
    let start = (lo + hi) >>> 1;
    while (start > lo && line.charCodeAt(start - 1) !== 32) start--;
    let end = line.indexOf(' ', start);
    if (end < 0) end = line.length;
    const keyEnd = keyEndOf(line, start, end);
    const order = compareAt(term, line, start, keyEnd);
    if (order === 0) return keyEnd === end ? 1 : countAfter(line, keyEnd);
    if (order < 0) hi = start;
    else lo = end + 1;
  }
  return 0;
}

/** Where the term of the token [start, end) ends: before its `*N`, if it has one. */
function keyEndOf(line: string, start: number, end: number): number {
  let i = end;
  while (i > start && line.charCodeAt(i - 1) >= 48 && line.charCodeAt(i - 1) <= 57) i--;
  return i < end && i - 1 > start && line.charCodeAt(i - 1) === 42 ? i - 1 : end;
}

/** `term` against line[start, end) in code-unit order: negative, 0 or positive. */
function compareAt(term: string, line: string, start: number, end: number): number {
  const length = end - start;
  const common = Math.min(term.length, length);
  for (let i = 0; i < common; i++) {
    const d = term.charCodeAt(i) - line.charCodeAt(start + i);
    if (d !== 0) return d;
  }
  return term.length - length;
}

/**
 * Two rows of the distance table, reused by every call and grown when a longer term comes: a typo's
 * spellings are searched by computing this for each index word of a similar length in SQL, a few
 * thousand calls per question at 100,000 pages, and fresh arrays per row were most of their cost.
 */
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** Levenshtein distance of two terms if it is at most `max`, else null (rows cut off early). */
export function boundedDistance(a: string, b: string, max: number): number | null {
  if (Math.abs(a.length - b.length) > max) return null;
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length * 2 + 1);
    currentRow = new Int32Array(b.length * 2 + 1);
  }
  let prev = previousRow;
  let row = currentRow;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return null;
    const done = prev;
    prev = row;
    row = done;
  }
  const d = prev[b.length]!;
  return d <= max ? d : null;
}
