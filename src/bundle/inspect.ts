import { excerptStands } from '../text/excerpt-cells.js';
import { containsVerbatim } from '../text/normalise.js';
import type { BundleReader } from './reader.js';
import type { ChunkRow, CodeLineRow, ErrorCodeRow } from './schema.js';

export interface BundleInfo {
  file: string;
  format_version: number;
  built_at: string;
  corpus_hash: string;
  totals: {
    documents: number;
    pages: number;
    chunks: number;
    error_codes: number;
    models: number;
    snapshots: number;
  };
  brands: { brand: string; documents: number; models: number; error_codes: number }[];
  documents: {
    id: string;
    title: string;
    brand: string;
    language: string;
    approved: boolean;
    pages: number;
    chunks: number;
    error_codes: number;
    snapshots: number;
    warnings: string[];
  }[];
}

export function bundleInfo(reader: BundleReader): BundleInfo {
  const db = reader.db;
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const perDoc = (table: string) =>
    new Map(
      (
        db.prepare(`SELECT document_id AS id, count(*) AS n FROM ${table} GROUP BY document_id`).all() as {
          id: string;
          n: number;
        }[]
      ).map((r) => [r.id, r.n]),
    );
  const chunks = perDoc('chunks');
  const codes = perDoc('error_codes');
  const snaps = perDoc('snapshots');
  const brands = db
    .prepare(
      `SELECT b.name AS brand,
         (SELECT count(*) FROM documents d WHERE d.brand = b.name) AS documents,
         (SELECT count(*) FROM models m WHERE m.brand = b.name) AS models,
         (SELECT count(*) FROM error_codes e WHERE e.brand = b.name) AS error_codes
       FROM brands b ORDER BY b.name`,
    )
    .all() as BundleInfo['brands'];
  return {
    file: reader.file,
    format_version: reader.formatVersion,
    built_at: reader.builtAt,
    corpus_hash: reader.corpusHash,
    totals: {
      documents: count('SELECT count(*) AS n FROM documents'),
      pages: count('SELECT count(*) AS n FROM pages'),
      chunks: count('SELECT count(*) AS n FROM chunks'),
      error_codes: count('SELECT count(*) AS n FROM error_codes'),
      models: count('SELECT count(*) AS n FROM models'),
      snapshots: count('SELECT count(*) AS n FROM snapshots'),
    },
    brands,
    documents: reader.documents().map((d) => ({
      id: d.id,
      title: d.title,
      brand: d.brand,
      language: d.language,
      approved: d.approved === 1,
      pages: d.page_count,
      chunks: chunks.get(d.id) ?? 0,
      error_codes: codes.get(d.id) ?? 0,
      snapshots: snaps.get(d.id) ?? 0,
      warnings: JSON.parse(d.warnings_json) as string[],
    })),
  };
}

export interface VerifyCheck {
  name: string;
  ok: boolean;
  failures: string[];
  /** Why the check did not run, when there was nothing to check (e.g. built without snapshots). */
  skipped?: string;
  /** A fact about what the check covered, when it covered only part of the bundle. */
  note?: string;
}

export interface VerifyReport {
  file: string;
  ok: boolean;
  checks: VerifyCheck[];
}

/** At most this many failures are listed per check; the count says how many there were. */
const MAX_LISTED = 20;

/**
 * Checks what every consumer of a bundle relies on: citations point at pages that exist and hold what
 * they cite, every page has its snapshot (unless the document was built without), the index loads.
 */
export function verifyBundle(reader: BundleReader): VerifyReport {
  const db = reader.db;
  const checks: VerifyCheck[] = [];
  type Outcome = { skipped: string } | { note: string } | undefined;
  const check = (
    name: string,
    run: (fail: (msg: string) => void, settle: (outcome: Outcome) => void) => void,
  ) => {
    const failures: string[] = [];
    let total = 0;
    let outcome: Outcome;
    try {
      run(
        (msg) => {
          total++;
          if (failures.length < MAX_LISTED) failures.push(msg);
        },
        (o) => {
          outcome = o;
        },
      );
    } catch (err) {
      total++;
      failures.push(`check crashed: ${(err as Error).message}`);
    }
    if (total > failures.length) failures.push(`... and ${total - failures.length} more`);
    checks.push({ name, ok: total === 0, failures, ...(total === 0 ? outcome : {}) });
  };
  const pageCounts = new Map(reader.documents().map((d) => [d.id, d.page_count]));
  const pageExists = (doc: string, page: number) => page >= 1 && page <= (pageCounts.get(doc) ?? 0);

  check('documents have every page', (fail) => {
    for (const d of reader.documents()) {
      const n = (
        db.prepare('SELECT count(*) AS n FROM pages WHERE document_id = ?').get(d.id) as { n: number }
      ).n;
      if (n !== d.page_count) fail(`${d.id}: ${n} page rows for ${d.page_count} pages`);
    }
  });
  check("chunks' pages exist", (fail) => {
    for (const c of db.prepare('SELECT * FROM chunks').iterate() as IterableIterator<ChunkRow>) {
      if (
        !pageExists(c.document_id, c.page_start) ||
        !pageExists(c.document_id, c.page_end) ||
        c.page_end < c.page_start
      ) {
        fail(`${c.id}: pages ${c.page_start}-${c.page_end} outside ${c.document_id}`);
      }
    }
  });
  check("error codes' cited pages contain the code and the excerpt", (fail) => {
    for (const e of db.prepare('SELECT * FROM error_codes').iterate() as IterableIterator<ErrorCodeRow>) {
      const page = reader.page(e.document_id, e.page);
      if (!page) {
        fail(`${e.document_id} ${e.code}: cited page ${e.page} does not exist`);
        continue;
      }
      if (!containsVerbatim(page.text, e.code))
        fail(`${e.document_id} ${e.code}: code not found on page ${e.page}`);
      if (!excerptStands(e, (n) => reader.page(e.document_id, n)?.text))
        fail(`${e.document_id} ${e.code}: excerpt not verbatim on page ${e.page}`);
      for (const p of JSON.parse(e.pages_json) as number[]) {
        if (!pageExists(e.document_id, p)) fail(`${e.document_id} ${e.code}: page ${p} does not exist`);
      }
      for (const id of [e.chunk_id, e.procedure_chunk_id]) {
        if (id && !reader.chunk(id)) fail(`${e.document_id} ${e.code}: chunk ${id} does not exist`);
      }
    }
  });
  check("indexed code lines and maintainer's codes stand on their pages", (fail) => {
    const rows = db.prepare('SELECT * FROM code_lines').iterate() as IterableIterator<CodeLineRow>;
    for (const l of rows) {
      const page = reader.page(l.document_id, l.page);
      if (!page) {
        fail(`${l.document_id} ${l.code} (${l.origin}): page ${l.page} does not exist`);
        continue;
      }
      if (!containsVerbatim(page.text, l.code))
        fail(`${l.document_id} ${l.code} (${l.origin}): code not found on page ${l.page}`);
      // Every line of the row or line(s) kept, each verbatim on the page, and the whole as one run.
      if (
        !l.excerpt.split('\n').every((line) => containsVerbatim(page.text, line)) ||
        !containsVerbatim(page.text, l.excerpt)
      )
        fail(`${l.document_id} ${l.code} (${l.origin}): line not verbatim on page ${l.page}`);
    }
  });
  check('every page has a snapshot', (fail, settle) => {
    // A document built with --no-snapshots has none by design: that is reported as a fact, never as a pass.
    const documents = reader.documents();
    const without = documents.filter((d) => !d.has_snapshots);
    for (const d of documents) {
      if (!d.has_snapshots) continue;
      const rows = db.prepare('SELECT page FROM snapshots WHERE document_id = ?').all(d.id) as {
        page: number;
      }[];
      const have = new Set(rows.map((r) => r.page));
      for (let p = 1; p <= d.page_count; p++) if (!have.has(p)) fail(`${d.id}: page ${p} has no snapshot`);
    }
    if (without.length === 0) return;
    if (without.length === documents.length) settle({ skipped: 'the bundle was built without snapshots' });
    else {
      const names = without.length <= 3 ? `: ${without.map((d) => d.id).join(', ')}` : '';
      settle({ note: `${without.length} of ${documents.length} documents built without snapshots${names}` });
    }
  });
  check('snapshots are WebP images', (fail) => {
    const rows = db
      .prepare('SELECT document_id, page, substr(webp, 1, 12) AS head FROM snapshots')
      .iterate() as IterableIterator<{
      document_id: string;
      page: number;
      head: Buffer;
    }>;
    for (const r of rows) {
      const head = Buffer.from(r.head);
      if (
        head.subarray(0, 4).toString('latin1') !== 'RIFF' ||
        head.subarray(8, 12).toString('latin1') !== 'WEBP'
      ) {
        fail(`${r.document_id} page ${r.page}: snapshot is not WebP`);
      }
    }
  });
  check('search index covers every chunk', (fail) => {
    const chunks = (db.prepare('SELECT count(*) AS n FROM chunks').get() as { n: number }).n;
    const indexed = (db.prepare('SELECT count(*) AS n FROM chunk_terms').get() as { n: number }).n;
    if (reader.searchStats.chunks !== chunks)
      fail(`index holds ${reader.searchStats.chunks} chunks, bundle ${chunks}`);
    if (indexed !== chunks) fail(`${indexed} chunks have term frequencies, bundle ${chunks}`);
    const orphans = (
      db
        .prepare(
          'SELECT count(*) AS n FROM chunk_terms t LEFT JOIN chunks c ON c.rowid = t.chunk_rowid WHERE c.id IS NULL',
        )
        .get() as { n: number }
    ).n;
    if (orphans > 0) fail(`${orphans} indexed chunks are not in the bundle`);
  });
  check('models link to existing documents', (fail) => {
    const rows = db
      .prepare(
        'SELECT dm.document_id FROM document_models dm LEFT JOIN documents d ON d.id = dm.document_id WHERE d.id IS NULL',
      )
      .all() as { document_id: string }[];
    for (const r of rows) fail(`model link to missing document ${r.document_id}`);
  });
  return { file: reader.file, ok: checks.every((c) => c.ok), checks };
}

/** One code a bundle answers, as a corpus maintainer checks it against the manual. */
export interface BundleCode {
  document_id: string;
  code: string;
  page: number;
  pages: number[];
  meaning: string;
}

/**
 * Every error code the bundle holds, by document and page (a code printed twice is listed twice), for
 * one document or all. Undefined when the document is not in the bundle.
 */
export function bundleCodes(reader: BundleReader, documentId?: string): BundleCode[] | undefined {
  if (documentId !== undefined && !reader.document(documentId)) return undefined;
  const rows = reader.db
    .prepare(
      `SELECT document_id, code, page, pages_json, title FROM error_codes
       ${documentId !== undefined ? 'WHERE document_id = ?' : ''}
       ORDER BY document_id, page, id`,
    )
    .all(...(documentId !== undefined ? [documentId] : [])) as Pick<
    ErrorCodeRow,
    'document_id' | 'code' | 'page' | 'pages_json' | 'title'
  >[];
  return rows.map((r) => ({
    document_id: r.document_id,
    code: r.code,
    page: r.page,
    pages: JSON.parse(r.pages_json) as number[],
    meaning: r.title,
  }));
}
