import fs from 'node:fs';
import Database from 'better-sqlite3';
import { boundedDistance, INDEX_FIELDS } from '../search/chunk-index.js';
import { type CandidateChunk, CandidateSearch, type CandidateTerm } from './candidate-search.js';
import { INTACT_CHECK_EVERY_MS, IntactCheck } from './intact.js';
import {
  type ChunkRow,
  type CodeLineRow,
  type DocumentRow,
  type ErrorCodeRow,
  FORMAT_VERSION,
  META,
  type PageRow,
  type SearchStats,
  type SnapshotRow,
} from './schema.js';
import type { SqlDatabase } from './sql.js';

export class BundleOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleOpenError';
  }
}

export interface ModelRow {
  id: number;
  brand: string;
  name: string;
  norm: string;
  range_id: number | null;
  equipment: string;
}

export type { CandidateChunk, CandidateTerm } from './candidate-search.js';

export interface RangeRow {
  id: number;
  brand: string;
  name: string;
  norm: string;
}

/**
 * Read-only access to a bundle. Statements are prepared once; the search index is queried in place, so
 * opening a bundle of any size loads nothing. A bundle of another format version is refused rather than
 * misread.
 */
export class BundleReader {
  readonly db: Database.Database;
  readonly formatVersion: number;
  readonly builtAt: string;
  readonly corpusHash: string;
  readonly searchStats: SearchStats;
  /** The bundle's chunk_terms lines hold their terms in order (META.chunkTermsOrder): bisected when read. */
  readonly chunkTermsSorted: boolean;
  private readonly stmts;
  private readonly candidates: CandidateSearch;

  readonly file: string;

  /** The file as it was when opened (none for a database handed in): a later write in place is told by its size and modification time. */
  private readonly intactCheck: IntactCheck | undefined;

  /**
   * Opens a bundle file read-only, or reads a database already open: an offline pack the browser holds
   * in SQLite compiled to WebAssembly (`name` then says what it is in messages).
   */
  constructor(
    source: string | SqlDatabase,
    name = 'offline pack',
    options: {
      /** At most one stat of the file per this many ms to tell a write in place (see IntactCheck); 0: every check. */
      intactCheckMs?: number;
    } = {},
  ) {
    const file = typeof source === 'string' ? source : name;
    this.file = file;
    if (typeof source === 'string' && !fs.existsSync(file))
      throw new BundleOpenError(`bundle not found: ${file}`);
    this.intactCheck =
      typeof source === 'string'
        ? new IntactCheck(file, fs.statSync(file), options.intactCheckMs ?? INTACT_CHECK_EVERY_MS)
        : undefined;
    try {
      // The adapter implements the subset of better-sqlite3 the reader calls (SqlDatabase); `db` keeps
      // better-sqlite3's type for the tools that read a bundle file further (info, verify).
      this.db =
        typeof source === 'string'
          ? new Database(file, { readonly: true, fileMustExist: true })
          : (source as unknown as Database.Database);
      const meta = new Map(
        (this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map(
          (r) => [r.key, r.value],
        ),
      );
      this.formatVersion = Number(meta.get(META.formatVersion));
      this.builtAt = meta.get(META.builtAt) ?? '';
      this.corpusHash = meta.get(META.corpusHash) ?? '';
      this.searchStats = JSON.parse(meta.get(META.searchStats) ?? '{"chunks":0,"lengths":[]}') as SearchStats;
      this.chunkTermsSorted = meta.get(META.chunkTermsOrder) === 'sorted';
    } catch (err) {
      throw new BundleOpenError(`not a heatsource bundle: ${file} (${(err as Error).message})`);
    }
    if (this.formatVersion !== FORMAT_VERSION) {
      this.db.close();
      throw new BundleOpenError(
        `bundle format ${this.formatVersion} is not supported (expected ${FORMAT_VERSION}): rebuild it with \`heatsource ingest\``,
      );
    }
    // Pages are read through SQLite's own cache, bounded here (32 MiB), and the OS page cache; no mmap,
    // whose touched pages would count in the process's resident memory up to the bundle's size.
    this.db.pragma('cache_size = -32768');
    this.db.function('hs_distance', { deterministic: true }, (a: unknown, b: unknown, max: unknown) =>
      boundedDistance(String(a), String(b), Number(max)),
    );
    // A table a statement needs that is missing means a damaged bundle (or one built by a development
    // version of this format): refused like any unreadable bundle.
    try {
      this.stmts = {
        codesOfProcedure: this.db.prepare(
          'SELECT code, title FROM error_codes WHERE procedure_chunk_id = ? ORDER BY id',
        ),
        brandCodeCount: this.db.prepare(
          'SELECT count(DISTINCT code_norm) AS n FROM error_codes WHERE brand = ?',
        ),
        termCounts: this.db
          .prepare(`SELECT ${INDEX_FIELDS.join(', ')} FROM chunk_term_counts WHERE term = ?`)
          .raw(),
        facetCount: this.db.prepare('SELECT chunks FROM facet_counts WHERE token = ?').pluck(),
        spelling: this.db.prepare(
          `SELECT term, hs_distance(term, @term, @max) AS distance FROM spelling_terms
           WHERE length BETWEEN length(@term) - @max AND length(@term) + @max
             AND (substr(term, 1, 1) = substr(@term, 1, 1) OR substr(term, 2, 1) = substr(@term, 2, 1))
             AND distance IS NOT NULL AND term <> @term
           ORDER BY distance, term LIMIT @limit`,
        ),
        document: this.db.prepare('SELECT * FROM documents WHERE id = ?'),
        page: this.db.prepare('SELECT * FROM pages WHERE document_id = ? AND page = ?'),
        navigation: this.db
          .prepare('SELECT navigation FROM pages WHERE document_id = ? AND page = ?')
          .pluck(),
        chunk: this.db.prepare('SELECT * FROM chunks WHERE id = ?'),
        chunksOnPage: this.db.prepare(
          'SELECT * FROM chunks WHERE document_id = ? AND page_start <= ? AND page_end >= ? ORDER BY id',
        ),
        ping: this.db.prepare('SELECT count(*) FROM meta').pluck(),
        codes: this.db.prepare(
          'SELECT * FROM error_codes WHERE brand = ? AND code_norm = ? ORDER BY document_id, id',
        ),
        codeLines: this.db.prepare(
          'SELECT * FROM code_lines WHERE brand = ? AND code_norm = ? AND origin = ? ORDER BY document_id, id',
        ),
        snapshot: this.db.prepare('SELECT * FROM snapshots WHERE document_id = ? AND page = ?'),
        brandAlias: this.db.prepare('SELECT brand FROM brand_aliases WHERE norm = ?'),
        modelByNorm: this.db.prepare('SELECT * FROM models WHERE brand = ? AND norm = ?'),
        modelByAlias: this.db.prepare(
          'SELECT m.* FROM aliases a JOIN models m ON m.id = a.model_id WHERE m.brand = ? AND a.norm = ?',
        ),
        model: this.db.prepare('SELECT * FROM models WHERE id = ?'),
        modelsOfBrand: this.db.prepare('SELECT * FROM models WHERE brand = ? ORDER BY name'),
        rangeByNorm: this.db.prepare('SELECT * FROM ranges WHERE brand = ? AND norm = ?'),
        modelsOfRange: this.db.prepare('SELECT * FROM models WHERE range_id = ? ORDER BY name'),
        aliasesOf: this.db.prepare('SELECT alias FROM aliases WHERE model_id = ? ORDER BY alias'),
        documentsOfModel: this.db.prepare(
          'SELECT d.* FROM document_models dm JOIN documents d ON d.id = dm.document_id WHERE dm.model_id = ? ORDER BY d.id',
        ),
        modelsOfDocument: this.db.prepare(
          'SELECT m.* FROM document_models dm JOIN models m ON m.id = dm.model_id WHERE dm.document_id = ? ORDER BY m.name',
        ),
      };
      this.candidates = new CandidateSearch(this.db, this.chunkTermsSorted);
    } catch (err) {
      this.db.close();
      throw new BundleOpenError(`not a heatsource bundle: ${file} (${(err as Error).message})`);
    }
  }

  close(): void {
    this.intactCheck?.close();
    this.db.close();
  }

  /**
   * Reads the bundle once (a readiness check): throws when the file can no longer be read, or when the
   * file this reader has open was written to since it was opened. A bundle is immutable; one changed in
   * place (not replaced by a rename, after which the open file keeps the old contents) may be half
   * written or damaged anywhere, while the pages a quick read touches still look fine.
   */
  ping(): void {
    this.stmts.ping.get();
    this.assertIntact(true);
  }

  /**
   * Throws BundleOpenError when the open file was written to in place since it was opened: its pages may
   * no longer be what its indexes say, so nothing read from it can be trusted. A stat at most once per
   * `intactCheckMs` (INTACT_CHECK_EVERY_MS by default) or as soon as a watch on the file saw it change;
   * `exact` stats it now.
   */
  assertIntact(exact = false): void {
    if (!this.intactCheck || this.intactCheck.intact(exact)) return;
    throw new BundleOpenError(
      `the bundle ${this.file} was written to in place since it was opened; publish bundles by rename ` +
        'and reload (SIGHUP)',
    );
  }

  documents(): DocumentRow[] {
    return this.db.prepare('SELECT * FROM documents ORDER BY id').all() as DocumentRow[];
  }

  document(id: string): DocumentRow | undefined {
    return this.stmts.document.get(id) as DocumentRow | undefined;
  }

  page(documentId: string, page: number): PageRow | undefined {
    return this.stmts.page.get(documentId, page) as PageRow | undefined;
  }

  /**
   * Whether a page is a navigation page (contents, index, list of figures), by its key: listing them all
   * would read every page's text (the flag is stored after it), most of a large bundle.
   */
  isNavigationPage(documentId: string, page: number): boolean {
    return this.stmts.navigation.get(documentId, page) === 1;
  }

  chunk(id: string): ChunkRow | undefined {
    return this.stmts.chunk.get(id) as ChunkRow | undefined;
  }

  /** The chunks that cover a page of a document, by id. */
  chunksOnPage(documentId: string, page: number): ChunkRow[] {
    return this.stmts.chunksOnPage.all(documentId, page, page) as ChunkRow[];
  }

  /** Error-code rows of a brand (canonical name) for a normalised code. */
  errorCodes(brand: string, codeNorm: string): ErrorCodeRow[] {
    return this.stmts.codes.all(brand, codeNorm) as ErrorCodeRow[];
  }

  /** Code-index lines (or maintainer corrections) of a brand for a normalised code. */
  codeLines(brand: string, codeNorm: string, origin: CodeLineRow['origin']): CodeLineRow[] {
    return this.stmts.codeLines.all(brand, codeNorm, origin) as CodeLineRow[];
  }

  snapshot(documentId: string, page: number): SnapshotRow | undefined {
    return this.stmts.snapshot.get(documentId, page) as SnapshotRow | undefined;
  }

  /** The canonical brand for a normalised brand name or alias. */
  brandFor(normBrand: string): string | undefined {
    return (this.stmts.brandAlias.get(normBrand) as { brand: string } | undefined)?.brand;
  }

  brands(): string[] {
    return (this.db.prepare('SELECT name FROM brands ORDER BY name').all() as { name: string }[]).map(
      (r) => r.name,
    );
  }

  modelByName(brand: string, norm: string): ModelRow | undefined {
    return this.stmts.modelByNorm.get(brand, norm) as ModelRow | undefined;
  }

  modelByAlias(brand: string, norm: string): ModelRow | undefined {
    return this.stmts.modelByAlias.get(brand, norm) as ModelRow | undefined;
  }

  model(id: number): ModelRow | undefined {
    return this.stmts.model.get(id) as ModelRow | undefined;
  }

  models(brand?: string): ModelRow[] {
    if (brand) return this.stmts.modelsOfBrand.all(brand) as ModelRow[];
    return this.db.prepare('SELECT * FROM models ORDER BY brand, name').all() as ModelRow[];
  }

  rangeByName(brand: string, norm: string): RangeRow | undefined {
    return this.stmts.rangeByNorm.get(brand, norm) as RangeRow | undefined;
  }

  range(id: number): RangeRow | undefined {
    return this.db.prepare('SELECT * FROM ranges WHERE id = ?').get(id) as RangeRow | undefined;
  }

  modelsOfRange(rangeId: number): ModelRow[] {
    return this.stmts.modelsOfRange.all(rangeId) as ModelRow[];
  }

  aliasesOf(modelId: number): string[] {
    return (this.stmts.aliasesOf.all(modelId) as { alias: string }[]).map((r) => r.alias);
  }

  documentsOfModel(modelId: number): DocumentRow[] {
    return this.stmts.documentsOfModel.all(modelId) as DocumentRow[];
  }

  modelsOfDocument(documentId: string): ModelRow[] {
    return this.stmts.modelsOfDocument.all(documentId) as ModelRow[];
  }

  /** Every brand alias (normalised) with its canonical brand, by alias. */
  brandAliases(): { norm: string; brand: string }[] {
    return this.db.prepare('SELECT norm, brand FROM brand_aliases ORDER BY norm').all() as {
      norm: string;
      brand: string;
    }[];
  }

  ranges(): RangeRow[] {
    return this.db.prepare('SELECT * FROM ranges').all() as RangeRow[];
  }

  /** Every document-model link, by document. */
  documentModelLinks(): { document_id: string; model_id: number }[] {
    return this.db
      .prepare('SELECT document_id, model_id FROM document_models ORDER BY document_id')
      .all() as { document_id: string; model_id: number }[];
  }

  /** Every model alias, by alias. */
  aliases(): { model_id: number; alias: string; norm: string }[] {
    return this.db.prepare('SELECT model_id, alias, norm FROM aliases ORDER BY alias').all() as {
      model_id: number;
      alias: string;
      norm: string;
    }[];
  }

  /** The codes whose linked procedure is this chunk, in bundle order. */
  codesOfProcedure(chunkId: string): { code: string; title: string }[] {
    return this.stmts.codesOfProcedure.all(chunkId) as { code: string; title: string }[];
  }

  /** Distinct normalised codes of a brand, of a set of documents. */
  distinctCodesOfBrand(brand: string): number {
    return (this.stmts.brandCodeCount.get(brand) as { n: number }).n;
  }

  distinctCodesOfDocuments(documentIds: readonly string[]): number {
    if (documentIds.length === 0) return 0;
    const marks = documentIds.map(() => '?').join(', ');
    return (
      this.db
        .prepare(`SELECT count(DISTINCT code_norm) AS n FROM error_codes WHERE document_id IN (${marks})`)
        .get(...documentIds) as { n: number }
    ).n;
  }

  /** Row counts of the catalogue and corpus tables. */
  totals(): { models: number; documents: number; pages: number; error_codes: number } {
    const count = (table: 'models' | 'documents' | 'pages' | 'error_codes') =>
      (this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      models: count('models'),
      documents: count('documents'),
      pages: count('pages'),
      error_codes: count('error_codes'),
    };
  }

  /**
   * Error-code rows worth showing as examples, most telling first: approved manuals, codes with letters,
   * rows with steps, English; at most `limit`.
   */
  exampleCodes(limit: number): { brand: string; code: string; document_id: string }[] {
    return this.db
      .prepare(
        `SELECT e.brand, e.code, e.document_id FROM error_codes e JOIN documents d ON d.id = e.document_id
         ORDER BY d.approved DESC, e.code GLOB '*[A-Za-z]*' DESC, e.steps_json != '[]' DESC, d.language = 'en' DESC,
           d.id, e.id LIMIT ?`,
      )
      .all(limit) as { brand: string; code: string; document_id: string }[];
  }

  /**
   * In how many chunks a term stands, per view (INDEX_FIELDS order; 0 where it does not), or null when
   * the index does not hold it at all.
   */
  termFrequencies(term: string): number[] | null {
    return (this.stmts.termCounts.get(term) as number[] | undefined) ?? null;
  }

  /** In how many chunks a filter token (see `facet` in chunk-index.ts) stands; 0 when in none. */
  facetChunks(token: string): number {
    return (this.stmts.facetCount.get(token) as number | undefined) ?? 0;
  }

  /**
   * Words of the index within `maxDistance` edits of a word, nearest first, at most `limit`. Only words
   * sharing its first or second letter are compared (a cheap test in SQL before the distance in
   * JavaScript): a typo in both of the first two letters is not corrected.
   */
  similarTerms(term: string, maxDistance: number, limit: number): { term: string; distance: number }[] {
    return this.stmts.spelling.all({ term, max: maxDistance, limit }) as { term: string; distance: number }[];
  }

  /**
   * Candidate chunks for a question (CandidateSearch): the chunks with the highest product of the words
   * they hold and the weight of the first term they hold, at most `limit`, with their term frequencies;
   * with `language`, only chunks in that language or in several.
   */
  searchCandidates(terms: readonly CandidateTerm[], limit: number, language?: string): CandidateChunk[] {
    return this.candidates.search(terms, limit, language);
  }
}
