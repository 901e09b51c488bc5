import fs from 'node:fs';
import Database from 'better-sqlite3';
import { facetTokens, INDEX_FIELDS } from '../search/chunk-index.js';
import { writeLanguageRuns } from './language-runs.js';
import { SCHEMA_SQL } from './schema.js';

/** Meta keys a pack carries beside the bundle's own (which it keeps: format, date, corpus hash, search stats). */
export const PACK_META = {
  /** JSON array of the brands whose catalogue the pack holds. */
  brands: 'pack_brands',
  /** JSON array of the document ids the pack holds. */
  documents: 'pack_documents',
  /** JSON of the troubleshooting knowledge (compiled), for guided sessions run from the pack. */
  knowledge: 'pack_knowledge',
} as const;

export interface PackSelection {
  /** Brands (canonical names) whose catalogue is kept: models, aliases, ranges. */
  brands: string[];
  /** Documents kept whole: pages, chunks, codes, snapshots, index entries. */
  documentIds: string[];
}

export interface PackCounts {
  pages: number;
  error_codes: number;
  snapshots: number;
}

/**
 * Writes an offline pack: a bundle (same schema, same format version, read by the same BundleReader)
 * holding only the selected documents and the catalogue of their brands. The search index is rebuilt
 * over the kept chunks from their stored term lists (no text is analysed again), while the statistics
 * ranking reads (search_stats, per-term and per-facet chunk counts, the spelling vocabulary) are the
 * whole bundle's: a search of the pack's brands ranks and scores exactly as the server does.
 */
export function writePack(
  bundleFile: string,
  selection: PackSelection,
  target: string,
  extraMeta: Record<string, string> = {},
): PackCounts {
  fs.rmSync(target, { force: true });
  const db = new Database(target);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(SCHEMA_SQL);
    db.prepare('ATTACH DATABASE ? AS src').run(bundleFile);
    db.exec(
      'CREATE TEMP TABLE keep_docs (id TEXT PRIMARY KEY); CREATE TEMP TABLE keep_brands (name TEXT PRIMARY KEY)',
    );
    const keepDoc = db.prepare('INSERT OR IGNORE INTO keep_docs VALUES (?)');
    const keepBrand = db.prepare('INSERT OR IGNORE INTO keep_brands VALUES (?)');
    db.transaction(() => {
      for (const id of selection.documentIds) keepDoc.run(id);
      for (const b of selection.brands) keepBrand.run(b);
      const docs = 'SELECT id FROM keep_docs';
      const brands = 'SELECT name FROM keep_brands';
      db.exec(`
        INSERT INTO meta SELECT key, value FROM src.meta;
        INSERT INTO documents SELECT * FROM src.documents WHERE id IN (${docs});
        INSERT INTO brands SELECT * FROM src.brands WHERE name IN (${brands});
        INSERT INTO brand_aliases SELECT * FROM src.brand_aliases WHERE brand IN (${brands});
        INSERT INTO ranges SELECT * FROM src.ranges WHERE brand IN (${brands});
        INSERT INTO models SELECT * FROM src.models WHERE brand IN (${brands});
        INSERT INTO aliases SELECT a.* FROM src.aliases a JOIN models m ON m.id = a.model_id;
        INSERT INTO document_models SELECT * FROM src.document_models
          WHERE document_id IN (${docs}) AND model_id IN (SELECT id FROM models);
        INSERT INTO pages SELECT * FROM src.pages WHERE document_id IN (${docs});
        INSERT INTO chunks (rowid, id, document_id, page_start, page_end, section_path, kind, text, boxes_json)
          SELECT rowid, id, document_id, page_start, page_end, section_path, kind, text, boxes_json
          FROM src.chunks WHERE document_id IN (${docs});
        INSERT INTO error_codes SELECT * FROM src.error_codes WHERE document_id IN (${docs});
        INSERT INTO code_lines SELECT * FROM src.code_lines WHERE document_id IN (${docs});
        INSERT INTO snapshots SELECT * FROM src.snapshots WHERE document_id IN (${docs});
        INSERT INTO chunk_terms SELECT * FROM src.chunk_terms WHERE chunk_rowid IN (SELECT rowid FROM chunks);
        INSERT INTO chunk_term_counts SELECT * FROM src.chunk_term_counts;
        INSERT INTO facet_counts SELECT * FROM src.facet_counts;
        INSERT INTO spelling_terms SELECT * FROM src.spelling_terms;
      `);
      const setMeta = db.prepare('INSERT OR REPLACE INTO meta VALUES (?, ?)');
      setMeta.run(PACK_META.brands, JSON.stringify([...selection.brands].sort()));
      setMeta.run(PACK_META.documents, JSON.stringify([...selection.documentIds].sort()));
      for (const [key, value] of Object.entries(extraMeta)) setMeta.run(key, value);
      indexChunks(db);
      writeLanguageRuns(db);
    })();
    db.exec(`INSERT INTO chunk_index (chunk_index) VALUES ('optimize')`);
    const count = (table: string) =>
      (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number) ?? 0;
    const counts = {
      pages: count('pages'),
      error_codes: count('error_codes'),
      snapshots: count('snapshots'),
    };
    db.exec('DETACH DATABASE src');
    db.exec('VACUUM');
    return counts;
  } finally {
    db.close();
  }
}

/**
 * Fills the full-text index of the kept chunks from their stored term lists: each view's terms, each
 * repeated as often as it stands (an FTS5 row with detail=column records which columns hold a term,
 * which is all the candidate search asks of it), and the chunk's filter tokens.
 */
function indexChunks(db: Database.Database): void {
  const rows = db
    .prepare(
      `SELECT c.rowid AS rowid, t.data AS data, d.brand AS brand, d.language AS language, d.id AS document_id
       FROM chunks c JOIN chunk_terms t ON t.chunk_rowid = c.rowid JOIN documents d ON d.id = c.document_id
       ORDER BY c.rowid`,
    )
    .all() as { rowid: number; data: string; brand: string; language: string; document_id: string }[];
  const insert = db.prepare(
    `INSERT INTO chunk_index (rowid, ${INDEX_FIELDS.join(', ')}, facets) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const r of rows) {
    insert.run(r.rowid, ...viewsOf(r.data), facetTokens(r.brand, r.language, r.document_id));
  }
}

/** The views' text of an encoded term list (encodeChunkTerms: per line, the length, then `term` or `term*N`). */
function viewsOf(data: string): string[] {
  const lines = data.split('\n');
  return INDEX_FIELDS.map((_, i) => {
    const tokens = (lines[i] ?? '').split(' ').slice(1);
    const out: string[] = [];
    for (const token of tokens) {
      if (!token) continue;
      const m = /^(.+)\*(\d+)$/.exec(token);
      if (m) for (let n = Number(m[2]); n > 0; n--) out.push(m[1]!);
      else out.push(token);
    }
    return out.join(' ');
  });
}
