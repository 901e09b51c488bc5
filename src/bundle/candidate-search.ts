import type Database from 'better-sqlite3';
import { CandidateCounter } from '../search/candidates.js';
import { type ChunkTerms, decodeChunkTerms, facet } from '../search/chunk-index.js';
import { LanguageRuns } from './language-runs.js';

/** Language filters whose chunk sets a reader keeps (the API takes any two- or three-letter code). */
const LANGUAGE_SETS = 16;

/** One term of a question for candidate search: an FTS5 query, the word it stands for, its weight. */
export interface CandidateTerm {
  match: string;
  word: number;
  weight: number;
}

/** A chunk the full-text index returned as a candidate, with what exact scoring needs of it. */
export interface CandidateChunk {
  id: string;
  documentId: string;
  page: number;
  language: string;
  terms: ChunkTerms;
}

/** A bundle's candidate search (BundleReader.searchCandidates): its statements and counting state. */
export class CandidateSearch {
  private readonly postings: Database.Statement;
  private readonly lastChunk: Database.Statement;
  /** Statements reading candidate chunks by number of rowids (at most the candidate limit). */
  private readonly candidateStatements = new Map<number, Database.Statement>();
  /** Counts the postings of a question's terms; built on the first search (a few MB at 100,000 pages). */
  private counter: CandidateCounter | undefined;
  /** The chunks of a language filter, per language asked, as bit sets over rowids (see languageChunks). */
  private readonly languageSets = new Map<string, Uint32Array>();
  private readonly languageRuns: LanguageRuns;

  /** `sorted`: the bundle's chunk_terms lines hold their terms in order (META.chunkTermsOrder). */
  constructor(
    private readonly db: Database.Database,
    private readonly sorted = false,
  ) {
    this.postings = db.prepare('SELECT rowid FROM chunk_index WHERE chunk_index MATCH ?').pluck();
    this.lastChunk = db.prepare('SELECT max(rowid) FROM chunks').pluck();
    this.languageRuns = new LanguageRuns(db);
  }

  /**
   * Candidate chunks for a question: each term an FTS5 query with the word it belongs to and its weight;
   * the chunks with the highest product of the words they hold and the weight of the first term they
   * hold (CandidateCounter) first, ties by rowid, at most
   * `limit`, with their term frequencies for exact scoring. The postings are read from the index and
   * counted in JavaScript (CandidateCounter). With `language`, only chunks in that language or in several
   * (`mul`) count: a bit set of them, read once per reader and language, is cheaper than asking the index
   * to intersect every term with the language's posting list, which holds most of a corpus's chunks.
   */
  search(terms: readonly CandidateTerm[], limit: number, language?: string): CandidateChunk[] {
    if (terms.length === 0) return [];
    const allowed = language ? this.languageChunks(language) : undefined;
    this.counter ??= new CandidateCounter((Number(this.lastChunk.get()) || 0) + 1);
    const counter = this.counter;
    counter.begin();
    for (const t of terms) {
      counter.addPostings(this.postings.all(t.match) as number[], t.word, t.weight, allowed);
    }
    const rowids = counter.top(limit);
    if (rowids.length === 0) return [];
    const rows = this.candidateStatement(rowids.length).all(...rowids) as {
      rowid: number;
      id: string;
      document_id: string;
      page_start: number;
      language: string;
      data: string;
    }[];
    const byRowid = new Map(rows.map((r) => [r.rowid, r]));
    return rowids.flatMap((rowid) => {
      const r = byRowid.get(rowid);
      return r
        ? [
            {
              id: r.id,
              documentId: r.document_id,
              page: r.page_start,
              language: r.language,
              terms: decodeChunkTerms(r.data, this.sorted),
            },
          ]
        : [];
    });
  }

  /**
   * The chunks of one language and of multilingual manuals, as a bit set over chunk rowids, from the
   * bundle's language runs (LanguageRuns), or from the language facets of the full-text index in a bundle
   * written without them. Kept per language asked (at most LANGUAGE_SETS of them, 28 KB each at 100,000
   * pages).
   */
  private languageChunks(language: string): Uint32Array {
    let set = this.languageSets.get(language);
    if (set) return set;
    const size = (Number(this.lastChunk.get()) || 0) + 1;
    set = this.languageRuns.bitSet(language, size);
    if (!set) {
      const match = `{facets} : (${[facet.language(language), facet.language('mul')].map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ')})`;
      const rowids = this.postings.all(match) as number[];
      set = new Uint32Array(Math.ceil(size / 32));
      for (const rowid of rowids) if (rowid < size) set[rowid >>> 5]! |= 1 << (rowid & 31);
    }
    if (this.languageSets.size >= LANGUAGE_SETS) {
      const oldest = this.languageSets.keys().next().value;
      if (oldest !== undefined) this.languageSets.delete(oldest);
    }
    this.languageSets.set(language, set);
    return set;
  }

  private candidateStatement(rowids: number): Database.Statement {
    let statement = this.candidateStatements.get(rowids);
    if (!statement) {
      statement = this.db.prepare(
        `SELECT c.rowid AS rowid, c.id, c.document_id, c.page_start, d.language, t.data
         FROM chunks c
         JOIN documents d ON d.id = c.document_id
         JOIN chunk_terms t ON t.chunk_rowid = c.rowid
         WHERE c.rowid IN (${Array(rowids).fill('?').join(', ')})`,
      );
      this.candidateStatements.set(rowids, statement);
    }
    return statement;
  }
}
