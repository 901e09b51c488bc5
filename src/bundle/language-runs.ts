import type Database from 'better-sqlite3';

/**
 * The chunks of each language as runs of rowids (table chunk_language_runs), written once when a bundle
 * or an offline pack is finished and read when a reader first filters its search by a language.
 *
 * A document's chunks are written one after the other, so a language's chunks are a few runs of
 * consecutive rowids (about one per document). Without the runs, the first language-filtered search of a
 * reader read the language's facet postings from the full-text index: one posting per chunk, 114,000 at
 * 100,000 pages, 12-29 ms paid by one question (BENCHMARKS.md, search at scale); with them it reads one
 * row per document.
 */

/**
 * Writes the runs from the chunks and their documents' languages; the table must be empty. A run is a
 * stretch of chunks, in rowid order, of one language (the "gaps and islands" of the two row numbers).
 * Rowids of chunks left out (a pack keeps some documents) may sit inside a run: no posting names them.
 */
export function writeLanguageRuns(db: Database.Database): number {
  return db
    .prepare(
      `INSERT INTO chunk_language_runs (first_rowid, last_rowid, language)
       SELECT min(rowid), max(rowid), language FROM (
         SELECT c.rowid AS rowid, lower(d.language) AS language,
           row_number() OVER (ORDER BY c.rowid)
             - row_number() OVER (PARTITION BY lower(d.language) ORDER BY c.rowid) AS island
         FROM chunks c JOIN documents d ON d.id = c.document_id)
       GROUP BY language, island`,
    )
    .run().changes;
}

/**
 * Reads the chunks of a language and of multilingual manuals as a bit set over rowids `0 .. size - 1`, or
 * undefined when the bundle has no runs (written before the table existed): the caller then reads the
 * full-text index's facets. Lower case, as the index's tokenizer folds the facets.
 */
export class LanguageRuns {
  private readonly statement: Database.Statement | undefined;

  constructor(db: Database.Database) {
    const present = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_language_runs'")
      .pluck()
      .get();
    this.statement = present
      ? db.prepare('SELECT first_rowid, last_rowid FROM chunk_language_runs WHERE language IN (?, ?)').raw()
      : undefined;
  }

  bitSet(language: string, size: number): Uint32Array | undefined {
    if (!this.statement) return undefined;
    const runs = this.statement.all(language.toLowerCase(), 'mul') as [number, number][];
    const set = new Uint32Array(Math.ceil(size / 32));
    for (const [first, last] of runs) {
      const end = Math.min(last, size - 1);
      for (let rowid = Math.max(first, 0); rowid <= end; rowid++) set[rowid >>> 5]! |= 1 << (rowid & 31);
    }
    return set;
  }
}
