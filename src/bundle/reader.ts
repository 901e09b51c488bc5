import fs from 'node:fs';
import Database from 'better-sqlite3';
import MiniSearch from 'minisearch';
import { CHUNK_INDEX, chunkIndexOptions, type IndexedChunk } from '../search/index-options.js';
import {
  type ChunkRow,
  type DocumentRow,
  type ErrorCodeRow,
  FORMAT_VERSION,
  META,
  type PageRow,
  type SnapshotRow,
} from './schema.js';

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

export interface RangeRow {
  id: number;
  brand: string;
  name: string;
  norm: string;
}

/**
 * Read-only access to a bundle. Statements are prepared once; the search index is deserialised on first
 * use. A bundle of another format version is refused rather than misread.
 */
export class BundleReader {
  readonly db: Database.Database;
  readonly formatVersion: number;
  readonly builtAt: string;
  readonly corpusHash: string;
  private index: MiniSearch<IndexedChunk> | undefined;
  private readonly stmts;

  constructor(readonly file: string) {
    if (!fs.existsSync(file)) throw new BundleOpenError(`bundle not found: ${file}`);
    try {
      this.db = new Database(file, { readonly: true, fileMustExist: true });
      const meta = new Map(
        (this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map(
          (r) => [r.key, r.value],
        ),
      );
      this.formatVersion = Number(meta.get(META.formatVersion));
      this.builtAt = meta.get(META.builtAt) ?? '';
      this.corpusHash = meta.get(META.corpusHash) ?? '';
    } catch (err) {
      throw new BundleOpenError(`not a heatsource bundle: ${file} (${(err as Error).message})`);
    }
    if (this.formatVersion !== FORMAT_VERSION) {
      this.db.close();
      throw new BundleOpenError(
        `bundle format ${this.formatVersion} is not supported (expected ${FORMAT_VERSION}): rebuild it with \`heatsource ingest\``,
      );
    }
    this.stmts = {
      document: this.db.prepare('SELECT * FROM documents WHERE id = ?'),
      page: this.db.prepare('SELECT * FROM pages WHERE document_id = ? AND page = ?'),
      chunk: this.db.prepare('SELECT * FROM chunks WHERE id = ?'),
      codes: this.db.prepare(
        'SELECT * FROM error_codes WHERE brand = ? AND code_norm = ? ORDER BY document_id, id',
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
  }

  close(): void {
    this.db.close();
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

  chunk(id: string): ChunkRow | undefined {
    return this.stmts.chunk.get(id) as ChunkRow | undefined;
  }

  /** Error-code rows of a brand (canonical name) for a normalised code. */
  errorCodes(brand: string, codeNorm: string): ErrorCodeRow[] {
    return this.stmts.codes.all(brand, codeNorm) as ErrorCodeRow[];
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

  /** The chunk search index, deserialised once. */
  searchIndex(): MiniSearch<IndexedChunk> {
    if (!this.index) {
      const row = this.db.prepare('SELECT json FROM search_indexes WHERE name = ?').get(CHUNK_INDEX) as
        | { json: string }
        | undefined;
      if (!row) throw new BundleOpenError('bundle has no search index');
      this.index = MiniSearch.loadJSON<IndexedChunk>(row.json, chunkIndexOptions);
    }
    return this.index;
  }
}
