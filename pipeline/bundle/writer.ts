import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { writeLanguageRuns } from '../../src/bundle/language-runs.js';
import { FORMAT_VERSION, META, SCHEMA_SQL, type SearchStats } from '../../src/bundle/schema.js';
import type { BrandAliases } from '../../src/catalog/brands.js';
import type { Sidecar } from '../../src/contract/sidecar.js';
import { analyzeChunk, encodeChunkTerms, facetTokens, INDEX_FIELDS } from '../../src/search/chunk-index.js';
import { codeKey, normBrand, normModel } from '../../src/text/normalise.js';
import { type DocumentSource, EXTRACTOR_VERSION } from '../extract-document.js';
import type { CodeLineRecord } from '../facts/code-index.js';
import type { ExtractedDocument } from '../types.js';

export interface SnapshotImage {
  page: number;
  webp: Buffer;
  width: number;
  height: number;
}

/** What the catalogue needs of a document once its rows are written: its id and sidecar, nothing more. */
interface DocumentEntry {
  id: string;
  sidecar: Sidecar;
}

/**
 * Builds a bundle in a temporary file beside the target and renames it into place only when complete,
 * so a crash or Ctrl-C at any point leaves the previous bundle as it was. Documents whose PDF is
 * unchanged are copied row for row from the previous bundle instead of being extracted again.
 */
export class BundleBuilder {
  readonly tempPath: string;
  private readonly db: Database.Database;
  private readonly documents: DocumentEntry[] = [];
  private previousAttached = false;
  private finished = false;
  private readonly stats: SearchStats = { chunks: 0, lengths: INDEX_FIELDS.map(() => 0) };

  constructor(
    readonly target: string,
    private readonly brands: BrandAliases,
    previous?: string,
  ) {
    fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
    this.tempPath = `${target}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    this.db = new Database(this.tempPath);
    // The temp file is rebuilt from scratch on failure, so durability per statement buys nothing.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec(SCHEMA_SQL);
    if (previous) {
      this.db.prepare('ATTACH DATABASE ? AS previous').run(previous);
      this.previousAttached = true;
    }
  }

  addDocument(doc: ExtractedDocument, snapshots: SnapshotImage[] | null): void {
    const insert = this.db.transaction(() => {
      this.insertDocumentRow(doc, doc.pageCount, snapshots !== null, doc.warnings);
      const page = this.db.prepare('INSERT INTO pages VALUES (?, ?, ?, ?, ?, ?, ?)');
      for (const p of doc.pages)
        page.run(doc.id, p.page, p.width, p.height, p.text, p.navigation ? 1 : 0, p.language);
      const chunk = this.db.prepare('INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
      for (const c of doc.chunks) {
        chunk.run(
          c.id,
          doc.id,
          c.pageStart,
          c.pageEnd,
          JSON.stringify(c.sectionPath),
          c.kind,
          c.text,
          JSON.stringify(c.boxes),
        );
      }
      const code = this.db.prepare(
        `INSERT INTO error_codes (document_id, brand, code, code_norm, title, causes_json, steps_json, part_json,
           excerpt, page, pages_json, chunk_id, procedure_chunk_id, procedure_page_start, procedure_page_end,
           excerpt_cells_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const brand = this.brands.canonical(doc.sidecar.brand);
      for (const e of doc.errorCodes) {
        code.run(
          doc.id,
          brand,
          e.code,
          codeKey(e.code),
          e.title,
          JSON.stringify(e.causes),
          JSON.stringify(e.steps),
          e.part ? JSON.stringify(e.part) : null,
          e.excerpt,
          e.page,
          JSON.stringify(e.pages),
          e.chunkId,
          e.procedure?.chunkId ?? null,
          e.procedure?.pageStart ?? null,
          e.procedure?.pageEnd ?? null,
          e.excerptCells ? JSON.stringify(e.excerptCells) : null,
        );
      }
      this.insertCodeLines(doc.id, brand, doc.codeLines, 'code_index');
      if (snapshots) this.insertSnapshots(doc.id, snapshots);
      this.indexChunks(doc.id, brand, doc.sidecar.language);
    });
    insert();
    this.documents.push({ id: doc.id, sidecar: doc.sidecar });
  }

  /**
   * Copies an unchanged document's pages, chunks, codes and (when wanted and present) snapshots from the
   * previous bundle. Sidecar fields are taken from the current sidecar, which may have changed.
   */
  reuseDocument(
    source: DocumentSource,
    previousId: string,
    snapshots: 'copy' | 'none' | SnapshotImage[],
    warnings: string[],
  ): void {
    if (!this.previousAttached) throw new Error('no previous bundle to reuse from');
    const prev = this.db.prepare('SELECT page_count FROM previous.documents WHERE id = ?').get(previousId) as
      | { page_count: number }
      | undefined;
    if (!prev) throw new Error(`document ${previousId} is not in the previous bundle`);
    const copy = this.db.transaction(() => {
      const hasSnapshots = snapshots !== 'none';
      this.insertDocumentRow(source, prev.page_count, hasSnapshots, warnings);
      const id = source.id;
      this.db
        .prepare(
          'INSERT INTO pages SELECT ?, page, width, height, text, navigation, language FROM previous.pages WHERE document_id = ?',
        )
        .run(id, previousId);
      this.db
        .prepare(
          `INSERT INTO chunks SELECT replace(id, ?, ?), ?, page_start, page_end, section_path, kind, text, boxes_json
           FROM previous.chunks WHERE document_id = ?`,
        )
        .run(`${previousId}.`, `${id}.`, id, previousId);
      this.db
        .prepare(
          `INSERT INTO error_codes (document_id, brand, code, code_norm, title, causes_json, steps_json, part_json,
             excerpt, page, pages_json, chunk_id, procedure_chunk_id, procedure_page_start, procedure_page_end,
             excerpt_cells_json)
           SELECT ?, ?, code, code_norm, title, causes_json, steps_json, part_json, excerpt, page, pages_json,
             replace(chunk_id, ?, ?), replace(procedure_chunk_id, ?, ?), procedure_page_start, procedure_page_end,
             excerpt_cells_json
           FROM previous.error_codes WHERE document_id = ? ORDER BY id`,
        )
        .run(
          id,
          this.brands.canonical(source.sidecar.brand),
          `${previousId}.`,
          `${id}.`,
          `${previousId}.`,
          `${id}.`,
          previousId,
        );
      this.db
        .prepare(
          `INSERT INTO code_lines (document_id, brand, code, code_norm, page, meaning, excerpt, origin)
           SELECT ?, ?, code, code_norm, page, meaning, excerpt, origin FROM previous.code_lines
           WHERE document_id = ? AND origin = 'code_index' ORDER BY id`,
        )
        .run(id, this.brands.canonical(source.sidecar.brand), previousId);
      if (snapshots === 'copy') {
        this.db
          .prepare(
            'INSERT INTO snapshots SELECT ?, page, width, height, webp FROM previous.snapshots WHERE document_id = ?',
          )
          .run(id, previousId);
      } else if (Array.isArray(snapshots)) {
        this.insertSnapshots(id, snapshots);
      }
      this.indexChunks(id, this.brands.canonical(source.sidecar.brand), source.sidecar.language);
    });
    copy();
    this.documents.push({ id: source.id, sidecar: source.sidecar });
  }

  /**
   * Writes the maintainer's corrections of a document already added (its sidecar's `corrections`, checked
   * on their pages by the caller).
   */
  addCorrections(documentId: string, brandName: string, records: readonly CodeLineRecord[]): void {
    this.db.transaction(() =>
      this.insertCodeLines(documentId, this.brands.canonical(brandName), records, 'maintainer'),
    )();
  }

  /** Copies a document's corrections from the previous bundle (a failed file keeping its previous version whole). */
  copyPreviousCorrections(documentId: string, previousId: string): void {
    this.db
      .prepare(
        `INSERT INTO code_lines (document_id, brand, code, code_norm, page, meaning, excerpt, origin)
         SELECT ?, brand, code, code_norm, page, meaning, excerpt, origin FROM previous.code_lines
         WHERE document_id = ? AND origin = 'maintainer' ORDER BY id`,
      )
      .run(documentId, previousId);
  }

  /** The text of a document's pages in the previous bundle (what a reused document's corrections are checked on). */
  previousPageTexts(previousId: string): Map<number, string> {
    if (!this.previousAttached) return new Map();
    const rows = this.db
      .prepare('SELECT page, text FROM previous.pages WHERE document_id = ?')
      .all(previousId) as { page: number; text: string }[];
    return new Map(rows.map((r) => [r.page, r.text]));
  }

  /** The code index of a document in the previous bundle. */
  previousCodeLines(previousId: string): CodeLineRecord[] {
    if (!this.previousAttached) return [];
    return this.db
      .prepare(
        `SELECT code, page, meaning, excerpt FROM previous.code_lines
         WHERE document_id = ? AND origin = 'code_index' ORDER BY id`,
      )
      .all(previousId) as CodeLineRecord[];
  }

  /** Pages, chunks and codes now held for a document: what a reused document contributes. */
  counts(documentId: string): { pages: number; chunks: number; error_codes: number } {
    const one = (sql: string) => (this.db.prepare(sql).get(documentId) as { n: number }).n;
    return {
      pages: one('SELECT count(*) AS n FROM pages WHERE document_id = ?'),
      chunks: one('SELECT count(*) AS n FROM chunks WHERE document_id = ?'),
      error_codes: one('SELECT count(*) AS n FROM error_codes WHERE document_id = ?'),
    };
  }

  /** Writes the catalogue and the search index, then moves the finished file into place. */
  finish(corpusHash: string, extraMeta: Record<string, string> = {}): void {
    this.writeCatalogue();
    this.finishSearchIndex();
    const meta = this.db.prepare('INSERT INTO meta VALUES (?, ?)');
    meta.run(META.formatVersion, String(FORMAT_VERSION));
    meta.run(META.builtAt, new Date().toISOString());
    meta.run(META.corpusHash, corpusHash);
    meta.run(META.extractorVersion, String(EXTRACTOR_VERSION));
    meta.run(META.searchStats, JSON.stringify(this.stats));
    meta.run(META.chunkTermsOrder, 'sorted');
    for (const [key, value] of Object.entries(extraMeta)) meta.run(key, value);
    if (this.previousAttached) this.db.exec('DETACH DATABASE previous');
    this.db.pragma('journal_mode = DELETE');
    this.db.exec('VACUUM');
    this.db.close();
    const fd = fs.openSync(this.tempPath, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(this.tempPath, this.target);
    this.finished = true;
  }

  /** Drops the temporary file; the previous bundle, if any, is untouched. */
  abort(): void {
    if (this.finished) return;
    try {
      this.db.close();
    } catch {
      // already closed
    }
    fs.rmSync(this.tempPath, { force: true });
  }

  private insertDocumentRow(
    source: DocumentSource,
    pageCount: number,
    hasSnapshots: boolean,
    warnings: string[],
  ): void {
    const s: Sidecar = source.sidecar;
    this.db
      .prepare('INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(
        source.id,
        source.fileName,
        source.sha256,
        s.title,
        this.brands.canonical(s.brand),
        s.doc_type,
        s.language,
        s.equipment,
        s.approved ? 1 : 0,
        s.edition ?? null,
        pageCount,
        hasSnapshots ? 1 : 0,
        source.sidecarSource,
        JSON.stringify(s),
        JSON.stringify(warnings),
        source.extractorVersion,
      );
  }

  private insertCodeLines(
    documentId: string,
    brand: string,
    records: readonly CodeLineRecord[],
    origin: 'code_index' | 'maintainer',
  ): void {
    const stmt = this.db.prepare(
      `INSERT INTO code_lines (document_id, brand, code, code_norm, page, meaning, excerpt, origin)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const r of records)
      stmt.run(documentId, brand, r.code, codeKey(r.code), r.page, r.meaning, r.excerpt, origin);
  }

  private insertSnapshots(documentId: string, snapshots: SnapshotImage[]): void {
    const stmt = this.db.prepare('INSERT INTO snapshots VALUES (?, ?, ?, ?, ?)');
    for (const s of snapshots) stmt.run(documentId, s.page, s.width, s.height, s.webp);
  }

  private writeCatalogue(): void {
    const brandRow = this.db.prepare('INSERT OR IGNORE INTO brands VALUES (?, ?)');
    const alias = this.db.prepare('INSERT OR IGNORE INTO brand_aliases VALUES (?, ?)');
    const range = this.db.prepare('INSERT OR IGNORE INTO ranges (brand, name, norm) VALUES (?, ?, ?)');
    const rangeId = this.db.prepare('SELECT id FROM ranges WHERE brand = ? AND norm = ?');
    const model = this.db.prepare(
      'INSERT OR IGNORE INTO models (brand, name, norm, range_id, equipment) VALUES (?, ?, ?, ?, ?)',
    );
    const modelId = this.db.prepare('SELECT id FROM models WHERE brand = ? AND norm = ?');
    const modelAlias = this.db.prepare('INSERT OR IGNORE INTO aliases VALUES (?, ?, ?)');
    const link = this.db.prepare('INSERT OR IGNORE INTO document_models VALUES (?, ?)');
    this.db.transaction(() => {
      for (const [norm, brand] of this.brands.entries()) alias.run(norm, brand);
      for (const { id: documentId, sidecar } of this.documents) {
        const brand = this.brands.canonical(sidecar.brand);
        brandRow.run(brand, normBrand(brand));
        alias.run(normBrand(brand), brand);
        for (const m of sidecar.models) {
          let rid: number | null = null;
          if (m.range) {
            range.run(brand, m.range, normModel(m.range));
            rid = (rangeId.get(brand, normModel(m.range)) as { id: number }).id;
          }
          model.run(brand, m.name, normModel(m.name), rid, sidecar.equipment);
          const id = (modelId.get(brand, normModel(m.name)) as { id: number }).id;
          for (const a of m.aliases) modelAlias.run(id, a, normModel(a));
          link.run(documentId, id);
        }
      }
    })();
  }

  /**
   * Indexes one document's chunks as its rows are written, so that nothing of earlier documents is held
   * in memory: the full-text index (FTS5 flushes its own buffers) and each chunk's term frequencies.
   */
  private indexChunks(documentId: string, brand: string, language: string): void {
    const rows = this.db
      .prepare('SELECT rowid, text, section_path FROM chunks WHERE document_id = ? ORDER BY rowid')
      .all(documentId) as { rowid: number; text: string; section_path: string }[];
    const fts = this.db.prepare(
      'INSERT INTO chunk_index (rowid, terms, stems, concepts, pairs, section, facets) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const terms = this.db.prepare('INSERT INTO chunk_terms VALUES (?, ?)');
    const facets = facetTokens(brand, language, documentId);
    for (const r of rows) {
      const section = (JSON.parse(r.section_path) as string[]).join(' / ');
      const chunk = analyzeChunk(r.text, section, language);
      fts.run(r.rowid, ...INDEX_FIELDS.map((f) => chunk[f].join(' ')), facets);
      terms.run(r.rowid, encodeChunkTerms(chunk));
      this.stats.chunks++;
      INDEX_FIELDS.forEach((f, i) => {
        this.stats.lengths[i]! += chunk[f].length;
      });
    }
  }

  /**
   * Merges the index into one segment, counts each term's chunks per view once (what a question's ranking
   * reads) and lists the words a mistyped word may stand for.
   */
  private finishSearchIndex(): void {
    this.db.exec(`INSERT INTO chunk_index (chunk_index) VALUES ('optimize')`);
    const count = (field: string) => `sum(CASE col WHEN '${field}' THEN doc ELSE 0 END)`;
    this.db.exec(
      `INSERT INTO chunk_term_counts (term, ${INDEX_FIELDS.join(', ')})
       SELECT term, ${INDEX_FIELDS.map(count).join(', ')} FROM chunk_vocabulary
       WHERE col <> 'facets' GROUP BY term`,
    );
    this.db.exec(
      `INSERT INTO facet_counts (token, chunks) SELECT term, doc FROM chunk_vocabulary WHERE col = 'facets'`,
    );
    writeLanguageRuns(this.db);
    this.db.exec(
      `INSERT OR IGNORE INTO spelling_terms
       SELECT length(term), term FROM chunk_vocabulary
       WHERE col IN ('terms', 'section') AND length(term) >= 3
         AND term NOT GLOB '*[0-9:~+]*'`,
    );
  }
}
