import { PACK_META } from '../bundle/pack.js';
import { BundleOpenError, BundleReader } from '../bundle/reader.js';
import type { SqlDatabase } from '../bundle/sql.js';
import type { DiagnosticResponse } from '../contract/diagnostic.js';
import {
  type DiagnosticRequest,
  DiagnosticRequest as DiagnosticRequestSchema,
} from '../contract/diagnostic.js';
import { SearchQuery, type SearchResponse } from '../contract/search.js';
import { type CorpusView, corpusView } from '../engine/corpus.js';
import { diagnose } from '../engine/diagnostic.js';
import { ServiceError, validationError } from '../engine/errors.js';
import { highlightFor, type PageHighlight } from '../engine/highlights.js';
import { InvalidCursorError, searchChunks } from '../engine/search.js';
import type { Knowledge } from '../engine/sessions/knowledge-schema.js';
import { OfflineSessions } from './offline-session.js';

/** What a pack holds, read from its own meta table. */
export interface PackInfo {
  /** Corpus hash of the bundle the pack was cut from. */
  bundle_version: string;
  /** When that bundle was built: the date the app shows for the pack. */
  built_at: string;
  brands: string[];
  documents: { document_id: string; title: string; brand: string; page_count: number }[];
}

/**
 * The service's answers computed from an offline pack, by the engine functions `Services` calls on the
 * server (diagnose, searchChunks, highlightFor) over the same BundleReader: only the database underneath
 * differs (SQLite in WebAssembly in the app, better-sqlite3 in tests). Inputs are validated with the
 * operations' own zod schemas, so a request the server refuses is refused here with the same problem.
 */
export class OfflineEngine {
  readonly reader: BundleReader;
  readonly view: CorpusView;
  readonly info: PackInfo;
  /** Guided sessions from the pack; null for a pack cut without the knowledge. */
  readonly sessions: OfflineSessions | null;

  constructor(db: SqlDatabase, name = 'offline pack') {
    this.reader = new BundleReader(db, name);
    this.view = corpusView(this.reader);
    const meta = new Map(
      (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    const brands = meta.get(PACK_META.brands);
    if (brands === undefined) throw new BundleOpenError(`${name} is a bundle, not an offline pack`);
    const knowledge = meta.get(PACK_META.knowledge);
    this.sessions = knowledge ? new OfflineSessions(this.view, JSON.parse(knowledge) as Knowledge) : null;
    this.info = {
      bundle_version: this.reader.corpusHash,
      built_at: this.reader.builtAt,
      brands: JSON.parse(brands) as string[],
      documents: this.view.documentIds().map((id) => {
        const d = this.view.document(id)!;
        return { document_id: id, title: d.title, brand: d.brand, page_count: d.page_count };
      }),
    };
  }

  /** POST /v1/diagnostic, answered from the pack. */
  diagnose(raw: unknown): DiagnosticResponse {
    const parsed = DiagnosticRequestSchema.safeParse(raw ?? {});
    if (!parsed.success) throw validationError(parsed.error, DiagnosticRequestSchema);
    return diagnose(this.view, parsed.data as DiagnosticRequest);
  }

  /** GET /v1/search, answered from the pack (the manuals it holds). */
  search(raw: unknown): SearchResponse {
    const parsed = SearchQuery.safeParse(raw ?? {});
    if (!parsed.success) throw validationError(parsed.error, SearchQuery);
    try {
      return searchChunks(this.reader, parsed.data);
    } catch (err) {
      if (err instanceof InvalidCursorError) {
        throw new ServiceError('validation_failed', err.message, {
          errors: [{ field: 'cursor', message: err.message }],
        });
      }
      throw err;
    }
  }

  /** The boxes to draw over a cited page, as the console computes them. */
  highlight(input: {
    document_id: string;
    page: number;
    text: string;
    chunk_id?: string;
  }): PageHighlight | null {
    return highlightFor(this.reader, input);
  }

  /** The stored WebP of a page, when the pack holds it. */
  snapshot(documentId: string, page: number): { webp: Uint8Array; width: number; height: number } | null {
    const row = this.reader.snapshot(documentId, page);
    return row ? { webp: row.webp as Uint8Array, width: row.width, height: row.height } : null;
  }

  close(): void {
    this.reader.close();
  }
}
