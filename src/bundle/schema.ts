/**
 * The bundle's SQLite schema: one module shared by the writer (pipeline) and the reader (runtime), so the
 * two cannot drift. Bump FORMAT_VERSION on any change a reader of the previous version would misread.
 */
export const FORMAT_VERSION = 8;

export const SCHEMA_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE documents (
  id TEXT PRIMARY KEY,
  file_name TEXT NOT NULL,
  sha256 TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  brand TEXT NOT NULL,
  doc_type TEXT NOT NULL,
  language TEXT NOT NULL,
  equipment TEXT NOT NULL,
  approved INTEGER NOT NULL,
  edition TEXT,
  page_count INTEGER NOT NULL,
  has_snapshots INTEGER NOT NULL,
  sidecar_source TEXT NOT NULL,           -- 'file' | 'detected'
  sidecar_json TEXT NOT NULL,
  warnings_json TEXT NOT NULL,
  extractor_version INTEGER NOT NULL
);

CREATE TABLE brands (
  name TEXT PRIMARY KEY,
  norm TEXT NOT NULL UNIQUE
);

CREATE TABLE brand_aliases (
  norm TEXT PRIMARY KEY,
  brand TEXT NOT NULL
);

CREATE TABLE ranges (
  id INTEGER PRIMARY KEY,
  brand TEXT NOT NULL,
  name TEXT NOT NULL,
  norm TEXT NOT NULL,
  UNIQUE (brand, norm)
);

CREATE TABLE models (
  id INTEGER PRIMARY KEY,
  brand TEXT NOT NULL,
  name TEXT NOT NULL,
  norm TEXT NOT NULL,
  range_id INTEGER REFERENCES ranges(id),
  equipment TEXT NOT NULL,
  UNIQUE (brand, norm)
);

CREATE TABLE aliases (
  model_id INTEGER NOT NULL REFERENCES models(id),
  alias TEXT NOT NULL,
  norm TEXT NOT NULL,
  PRIMARY KEY (model_id, norm)
);
CREATE INDEX aliases_norm ON aliases(norm);

CREATE TABLE document_models (
  document_id TEXT NOT NULL REFERENCES documents(id),
  model_id INTEGER NOT NULL REFERENCES models(id),
  PRIMARY KEY (document_id, model_id)
);

CREATE TABLE pages (
  document_id TEXT NOT NULL REFERENCES documents(id),
  page INTEGER NOT NULL,
  width REAL NOT NULL,
  height REAL NOT NULL,
  text TEXT NOT NULL,
  navigation INTEGER NOT NULL,            -- 1: a table of contents, an index, a list of figures
  language TEXT NOT NULL,                 -- the page's own language (ISO 639-1), 'mul' when none stands out
  PRIMARY KEY (document_id, page)
);

CREATE TABLE chunks (
  id TEXT PRIMARY KEY,
  document_id TEXT NOT NULL REFERENCES documents(id),
  page_start INTEGER NOT NULL,
  page_end INTEGER NOT NULL,
  section_path TEXT NOT NULL,             -- JSON array of heading titles, outermost first
  kind TEXT NOT NULL,                     -- 'text' | 'table' | 'procedure'
  text TEXT NOT NULL,
  boxes_json TEXT NOT NULL                -- [{page, x0, y0, x1, y1}] in PDF points, origin top-left
);
CREATE INDEX chunks_document ON chunks(document_id, page_start);

CREATE TABLE error_codes (
  id INTEGER PRIMARY KEY,
  document_id TEXT NOT NULL REFERENCES documents(id),
  brand TEXT NOT NULL,
  code TEXT NOT NULL,                     -- as printed
  code_norm TEXT NOT NULL,
  title TEXT NOT NULL,                    -- the meaning as printed
  causes_json TEXT NOT NULL,              -- [string]
  steps_json TEXT NOT NULL,               -- [{order, text, safety}]
  part_json TEXT,                         -- {name, reference} | null
  excerpt TEXT NOT NULL,                  -- verbatim text of the definition, as on page
  page INTEGER NOT NULL,                  -- where the definition stands
  pages_json TEXT NOT NULL,               -- every page the definition covers
  chunk_id TEXT REFERENCES chunks(id),
  procedure_chunk_id TEXT REFERENCES chunks(id),
  procedure_page_start INTEGER,
  procedure_page_end INTEGER,
  excerpt_cells_json TEXT                 -- [{label, lines}] of a table row (excerpt = their text) | null
);
CREATE INDEX error_codes_lookup ON error_codes(brand, code_norm);

-- The code index (pipeline/facts/code-index.ts): every code-shaped token opening a table cell, a line or a
-- list item, with its row or line verbatim; and the codes a sidecar's maintainer lists (\`corrections\`),
-- checked on their page at ingest. Answers come from here only where the table reader found nothing
-- (origin 'code_index'), or first of all (origin 'maintainer').
CREATE TABLE code_lines (
  id INTEGER PRIMARY KEY,
  document_id TEXT NOT NULL REFERENCES documents(id),
  brand TEXT NOT NULL,
  code TEXT NOT NULL,                     -- as printed
  code_norm TEXT NOT NULL,
  page INTEGER NOT NULL,
  meaning TEXT NOT NULL,                  -- the words after the code in its row or line, or the maintainer's
  excerpt TEXT NOT NULL,                  -- the row or line(s), verbatim on page
  origin TEXT NOT NULL                    -- 'code_index' | 'maintainer'
);
CREATE INDEX code_lines_lookup ON code_lines(brand, code_norm);

CREATE TABLE snapshots (
  document_id TEXT NOT NULL REFERENCES documents(id),
  page INTEGER NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  webp BLOB NOT NULL,
  PRIMARY KEY (document_id, page)
);

-- The chunk search index, queried in place (nothing is loaded at start). Columns hold pre-analysed terms
-- separated by spaces (see src/search/chunk-index.ts), so the tokenizer only splits and keeps the marks
-- of tagged terms ("en:pump", "~refrigerant", "en:heat+pump"). Contentless: the text is in chunks.
-- detail=column: no phrase queries are made, so positions are not stored. Rowids are chunks' rowids.
CREATE VIRTUAL TABLE chunk_index USING fts5(
  terms, stems, concepts, pairs, section,
  facets,                                 -- b:BRAND l:LANGUAGE d:DOCUMENT filter tokens
  content = '', detail = column,
  tokenize = "unicode61 remove_diacritics 0 tokenchars ':+~-_'"
);
CREATE VIRTUAL TABLE chunk_vocabulary USING fts5vocab(chunk_index, 'col');

-- Per chunk: its terms and how often each stands in each view (encodeChunkTerms), for exact scoring.
CREATE TABLE chunk_terms (
  chunk_rowid INTEGER PRIMARY KEY,        -- rowid of the chunk in chunks
  data TEXT NOT NULL
);

-- Per term: in how many chunks it stands in each view. The full-text vocabulary (fts5vocab) counts this
-- by walking the term's whole posting list at every question, which grows with the corpus; this table is
-- one lookup.
CREATE TABLE chunk_term_counts (
  term TEXT PRIMARY KEY,
  terms INTEGER NOT NULL,
  stems INTEGER NOT NULL,
  concepts INTEGER NOT NULL,
  pairs INTEGER NOT NULL,
  section INTEGER NOT NULL
) WITHOUT ROWID;

-- Per filter token of the facets column (b:, l:, d:): in how many chunks it stands, so that a question
-- can tell how much a filter narrows its candidate search.
CREATE TABLE facet_counts (
  token TEXT PRIMARY KEY,
  chunks INTEGER NOT NULL
) WITHOUT ROWID;

-- The chunks of each language (documents.language, lower case) as runs of consecutive rowids
-- (src/bundle/language-runs.ts): what a language-filtered search allows, one row per run instead of one
-- facet posting per chunk. Bundles written before this table read the facets instead.
CREATE TABLE chunk_language_runs (
  first_rowid INTEGER PRIMARY KEY,
  last_rowid INTEGER NOT NULL,
  language TEXT NOT NULL
);

-- Letter-only words of the exact and section views, by length: what a mistyped word is compared with.
CREATE TABLE spelling_terms (
  length INTEGER NOT NULL,
  term TEXT NOT NULL,
  PRIMARY KEY (length, term)
) WITHOUT ROWID;
`;

export interface DocumentRow {
  id: string;
  file_name: string;
  sha256: string;
  title: string;
  brand: string;
  doc_type: string;
  language: string;
  equipment: string;
  approved: number;
  edition: string | null;
  page_count: number;
  has_snapshots: number;
  sidecar_source: 'file' | 'detected';
  sidecar_json: string;
  warnings_json: string;
  extractor_version: number;
}

export interface ChunkRow {
  id: string;
  document_id: string;
  page_start: number;
  page_end: number;
  section_path: string;
  kind: 'text' | 'table' | 'procedure';
  text: string;
  boxes_json: string;
}

export interface ErrorCodeRow {
  id: number;
  document_id: string;
  brand: string;
  code: string;
  code_norm: string;
  title: string;
  causes_json: string;
  steps_json: string;
  part_json: string | null;
  excerpt: string;
  page: number;
  pages_json: string;
  chunk_id: string | null;
  procedure_chunk_id: string | null;
  procedure_page_start: number | null;
  procedure_page_end: number | null;
  /** A table row's cells ({label, lines}), whose text the excerpt is; null for a prose excerpt. */
  excerpt_cells_json: string | null;
}

export interface CodeLineRow {
  id: number;
  document_id: string;
  brand: string;
  code: string;
  code_norm: string;
  page: number;
  meaning: string;
  excerpt: string;
  origin: 'code_index' | 'maintainer';
}

export interface PageRow {
  document_id: string;
  page: number;
  width: number;
  height: number;
  text: string;
  /** 1 for a navigation page (contents, index, list of figures): never an answer's page, ranked down. */
  navigation: number;
  /** The language the page itself is printed in (a manual may print several), 'mul' when none stands out. */
  language: string;
}

export interface SnapshotRow {
  document_id: string;
  page: number;
  width: number;
  height: number;
  webp: Buffer;
}

/** Meta keys every bundle carries. */
export const META = {
  formatVersion: 'format_version',
  builtAt: 'built_at',
  corpusHash: 'corpus_hash',
  extractorVersion: 'extractor_version',
  /** JSON SearchStats: what BM25 needs about the whole index. */
  searchStats: 'search_stats',
  /**
   * `sorted` where each line of chunk_terms holds its terms in code-unit order (encodeChunkTerms), so
   * that a reader bisects it; absent in bundles written before, whose lines a reader searches in full.
   * Not a format change: either reader reads either bundle right.
   */
  chunkTermsOrder: 'chunk_terms_order',
} as const;

/** Number of indexed chunks and the summed length of each view (in INDEX_FIELDS order). */
export interface SearchStats {
  chunks: number;
  lengths: number[];
}
