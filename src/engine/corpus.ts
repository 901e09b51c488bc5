import type { BundleReader, ModelRow, RangeRow } from '../bundle/reader.js';
import type { ChunkRow, CodeLineRow, DocumentRow, ErrorCodeRow } from '../bundle/schema.js';
import { type Citation, type ProcedureCitation, pageResourceUri, snapshotUrl } from '../contract/common.js';
import type { DocumentSummary, ModelSummary } from '../contract/documents.js';
import type { DOC_TYPES, EQUIPMENT } from '../contract/sidecar.js';
import { excerptStands } from '../text/excerpt-cells.js';
import { containsVerbatim, normBrand, normModel, slugify } from '../text/normalise.js';
import { memo } from './memo.js';

/** An error-code row whose excerpt was checked to stand verbatim on its page, with parsed fields. */
export interface CodeEntry {
  row: ErrorCodeRow;
  pages: number[];
  causes: string[];
  steps: { order: number; text: string; safety: string | null }[];
  part: { name: string; reference: string | null } | null;
  /** The language of the page the definition stands on (a manual may print several languages). */
  language: string;
  /**
   * Where the entry comes from: a row of the table reader, a line of the code index (a code opening a
   * cell, line or list item), or a code the maintainer listed in the sidecar.
   */
  origin: 'reader' | 'code_index' | 'maintainer';
}

export interface ModelIndexEntry {
  model: ModelRow;
  kind: 'name' | 'alias';
}

/**
 * The runtime's view of one bundle: the catalogue held in memory (brands, models, aliases, documents),
 * per-code lookups memoised, and every excerpt checked against its page once before it is ever served.
 * Built once per reader and shared by all requests.
 */
export class CorpusView {
  readonly brands: string[];
  private readonly brandSet: Set<string>;
  private readonly brandAliases = new Map<string, string>();
  private readonly entryCitations = new Map<number, Citation | null>();
  private readonly procedureCitations = new Map<number, ProcedureCitation | null>();
  private readonly documentRows = new Map<string, DocumentRow>();
  private readonly documentSummaries = new Map<string, DocumentSummary>();
  private readonly modelRows: ModelRow[];
  private readonly modelSummaries = new Map<number, ModelSummary>();
  /** Each model's aliases as printed, by model id. */
  private readonly aliasesOf = new Map<number, string[]>();
  private readonly modelsByBrand = new Map<string, ModelRow[]>();
  private readonly modelIndex = new Map<string, Map<string, ModelIndexEntry[]>>();
  private readonly brandSlugs = new Map<string, string>();
  private readonly docsOfModel = new Map<number, string[]>();
  private readonly modelsOfDoc = new Map<string, ModelRow[]>();
  private readonly ranges = new Map<number, RangeRow>();
  private readonly brandDocuments = new Map<string, string[]>();
  private readonly codeMemo = memo<CodeEntry[]>(
    16 * 2 ** 20,
    (e) => 2 * JSON.stringify(e).length,
    (key) => {
      const [brand, codeNorm] = key.split('\u0000') as [string, string];
      return this.findCodeEntries(brand, codeNorm);
    },
  );
  private readonly lineMemo = memo<CodeEntry[]>(
    4 * 2 ** 20,
    (e) => 2 * JSON.stringify(e).length,
    (key) => {
      const [origin, brand, codeNorm] = key.split('\u0000') as [CodeLineRow['origin'], string, string];
      return this.findLineEntries(brand, codeNorm, origin);
    },
  );
  private readonly verified = new Map<number, boolean>();
  private readonly chunkSections = memo<string[] | null>(
    4 * 2 ** 20,
    (p) => 2 * JSON.stringify(p).length,
    (chunkId) => {
      const c = this.reader.chunk(chunkId);
      return c ? (JSON.parse(c.section_path) as string[]) : null;
    },
  );
  private readonly distinctCodesOfDocs = memo<number>(
    2 ** 20,
    () => 8,
    (key) => this.reader.distinctCodesOfDocuments(key.split('\u0000')),
  );
  private unverifiedCount = 0;
  /** Navigation flags of the pages asked about, looked up one page at a time (see the reader). */
  private readonly navigation = memo<boolean>(
    2 ** 20,
    () => 8,
    (key) => {
      const [documentId, page] = key.split('\u0000') as [string, string];
      return this.reader.isNavigationPage(documentId, Number(page));
    },
  );

  constructor(readonly reader: BundleReader) {
    this.brands = reader.brands();
    this.brandSet = new Set(this.brands);
    for (const b of this.brands) this.brandSlugs.set(slugify(b), b);
    for (const a of reader.brandAliases()) this.brandAliases.set(a.norm, a.brand);
    for (const d of reader.documents()) this.documentRows.set(d.id, d);
    for (const r of reader.ranges()) this.ranges.set(r.id, r);
    this.modelRows = reader.models();
    const links = reader.documentModelLinks();
    const byId = new Map(this.modelRows.map((m) => [m.id, m]));
    for (const l of links) {
      const m = byId.get(l.model_id);
      if (!m) continue;
      push(this.docsOfModel, l.model_id, l.document_id);
      push(this.modelsOfDoc, l.document_id, m);
    }
    const aliases = reader.aliases();
    for (const a of aliases) push(this.aliasesOf, a.model_id, a.alias);
    for (const m of this.modelRows) {
      push(this.modelsByBrand, m.brand, m);
      this.indexModel(m.brand, m.norm, { model: m, kind: 'name' });
    }
    for (const a of aliases) {
      const m = byId.get(a.model_id);
      if (m && a.norm !== m.norm) this.indexModel(m.brand, a.norm, { model: m, kind: 'alias' });
    }
  }

  /** The canonical brand for a name or alias, when the corpus holds a manual of it. */
  brandOf(input: string): string | undefined {
    const brand = this.brandAliases.get(normBrand(input));
    return brand && this.brandSet.has(brand) ? brand : undefined;
  }

  brandBySlug(slug: string): string | undefined {
    return this.brandSlugs.get(slug.toLowerCase());
  }

  /**
   * The documents of the models a normalised name or alias stands for, in any brand (empty when it names
   * none): a question that names a model says which manuals it is most likely about.
   */
  documentsOfModelName(norm: string): string[] {
    const out = new Set<string>();
    for (const brand of this.brands) {
      for (const entry of this.modelIndexOf(brand).get(norm) ?? []) {
        for (const id of this.documentsOfModel(entry.model.id)) out.add(id);
      }
    }
    return [...out];
  }

  /** The documents of a brand, in bundle order. */
  documentsOfBrand(brand: string): string[] {
    let list = this.brandDocuments.get(brand);
    if (!list) {
      list = [...this.documentRows.values()].filter((d) => d.brand === brand).map((d) => d.id);
      this.brandDocuments.set(brand, list);
    }
    return list;
  }

  /** Normalised names and aliases of a brand's models, each with the models it names. */
  modelIndexOf(brand: string): Map<string, ModelIndexEntry[]> {
    return this.modelIndex.get(brand) ?? new Map();
  }

  modelsOf(brand: string): ModelRow[] {
    return this.modelsByBrand.get(brand) ?? [];
  }

  rangeByNorm(brand: string, norm: string): RangeRow | undefined {
    return this.reader.rangeByName(brand, norm);
  }

  modelsOfRange(rangeId: number): ModelRow[] {
    return this.modelRows.filter((m) => m.range_id === rangeId);
  }

  /** A model as the API shows it, built on first use (not for 14,528 models before `serve` listens). */
  modelSummary(model: ModelRow): ModelSummary {
    let summary = this.modelSummaries.get(model.id);
    if (!summary) {
      summary = {
        model_id: modelIdOf(model),
        brand: model.brand,
        name: model.name,
        range: model.range_id === null ? null : (this.ranges.get(model.range_id)?.name ?? null),
        aliases: (this.aliasesOf.get(model.id) ?? []).filter((a) => normModel(a) !== model.norm),
        equipment: model.equipment as (typeof EQUIPMENT)[number],
      };
      this.modelSummaries.set(model.id, summary);
    }
    return summary;
  }

  /** A model by its public identifier (`brand-slug:NORM`); the name part is normalised, so case does not matter. */
  modelByPublicId(id: string): ModelRow | undefined {
    const at = id.indexOf(':');
    if (at <= 0) return undefined;
    const brand = this.brandBySlug(id.slice(0, at));
    if (!brand) return undefined;
    return this.modelIndexOf(brand)
      .get(normModel(id.slice(at + 1)))
      ?.find((e) => e.kind === 'name')?.model;
  }

  document(id: string): DocumentRow | undefined {
    return this.documentRows.get(id);
  }

  /** A document as the API shows it, built on first use and kept (as model summaries are). */
  documentSummary(id: string): DocumentSummary | undefined {
    let summary = this.documentSummaries.get(id);
    if (!summary) {
      const row = this.documentRows.get(id);
      if (!row) return undefined;
      summary = toDocumentSummary(row);
      this.documentSummaries.set(id, summary);
    }
    return summary;
  }

  documentIds(): string[] {
    return [...this.documentRows.keys()];
  }

  documentsOfModel(modelId: number): string[] {
    return this.docsOfModel.get(modelId) ?? [];
  }

  modelsOfDocument(documentId: string): ModelRow[] {
    return this.modelsOfDoc.get(documentId) ?? [];
  }

  /** Whether a page is a table of contents, an index or a list of figures (flagged at ingest). */
  isNavigationPage(documentId: string, page: number): boolean {
    return this.navigation.memo(`${documentId}\u0000${page}`).value;
  }

  /** Verified entries of a brand for one normalised code, in bundle order. */
  codeEntries(brand: string, codeNorm: string): CodeEntry[] {
    return this.codeMemo.memo(`${brand}\u0000${codeNorm}`).value;
  }

  private findCodeEntries(brand: string, codeNorm: string): CodeEntry[] {
    const out: CodeEntry[] = [];
    for (const row of this.reader.errorCodes(brand, codeNorm)) {
      // A navigation page (contents, index) names a code without its meaning: never an answer's page.
      if (this.isNavigationPage(row.document_id, row.page)) continue;
      const page = this.reader.page(row.document_id, row.page);
      if (!page) continue;
      if (this.isVerified(row)) out.push(toEntry(row, page.language));
    }
    return out;
  }

  /**
   * Verified entries of the code index (`code_index`) or of the maintainer's corrections (`maintainer`)
   * for one normalised code, in bundle order, shaped as reader entries: the row or line is the excerpt
   * (checked to stand on its page, never on a navigation page), the words after the code the title.
   */
  lineEntries(brand: string, codeNorm: string, origin: CodeLineRow['origin']): CodeEntry[] {
    return this.lineMemo.memo(`${origin}\u0000${brand}\u0000${codeNorm}`).value;
  }

  private findLineEntries(brand: string, codeNorm: string, origin: CodeLineRow['origin']): CodeEntry[] {
    const out: CodeEntry[] = [];
    for (const line of this.reader.codeLines(brand, codeNorm, origin)) {
      if (this.isNavigationPage(line.document_id, line.page)) continue;
      const page = this.reader.page(line.document_id, line.page);
      if (!page || !containsVerbatim(page.text, line.excerpt)) continue;
      const first = line.excerpt.split('\n')[0]!;
      const chunk = this.reader
        .chunksOnPage(line.document_id, line.page)
        .find((c) => containsVerbatim(c.text, first));
      out.push({
        row: lineRow(line, chunk?.id ?? null),
        language: page.language,
        pages: [line.page],
        causes: [],
        steps: [],
        part: null,
        origin,
      });
    }
    return out;
  }

  /** Error-code rows whose excerpt was not found on its page: never served, counted for diagnosis. */
  get unverifiedRows(): number {
    return this.unverifiedCount;
  }

  codesOfProcedure(chunkId: string): { code: string; title: string }[] {
    return this.reader.codesOfProcedure(chunkId);
  }

  distinctCodesOfBrand(brand: string): number {
    return this.reader.distinctCodesOfBrand(brand);
  }

  distinctCodesOfDocument(documentId: string): number {
    return this.reader.distinctCodesOfDocuments([documentId]);
  }

  distinctCodesOfDocuments(documentIds: string[]): number {
    if (documentIds.length === 0) return 0;
    const ids = [...documentIds].sort();
    return this.distinctCodesOfDocs.memo(ids.join('\u0000')).value;
  }

  chunk(id: string): ChunkRow | undefined {
    return this.reader.chunk(id);
  }

  /** The heading path of a chunk, outermost first, or null when the chunk is unknown. */
  sectionPath(chunkId: string): string[] | null {
    return this.chunkSections.memo(chunkId).value;
  }

  /**
   * A citation of pages `page`..`pageEnd` of a document, or null when a page is outside the document:
   * a citation is only ever made of pages that exist.
   */
  citation(documentId: string, page: number, pageEnd: number, chunkId: string | null): Citation | null {
    const doc = this.documentRows.get(documentId);
    if (!doc || page < 1 || pageEnd < page || pageEnd > doc.page_count) return null;
    const path = chunkId ? this.sectionPath(chunkId) : null;
    return {
      document_id: documentId,
      title: doc.title,
      page,
      page_end: pageEnd,
      section: path && path.length > 0 ? path.join(' / ') : null,
      snapshot_url: snapshotUrl(documentId, page),
      resource_uri: pageResourceUri(documentId, page),
    };
  }

  /** The citation of a code's definition: its page, and the following ones when the row runs on. */
  entryCitation(e: CodeEntry): Citation | null {
    const known = this.entryCitations.get(e.row.id);
    if (known !== undefined) return known;
    const citation = this.makeEntryCitation(e);
    this.entryCitations.set(e.row.id, citation);
    return citation;
  }

  private makeEntryCitation(e: CodeEntry): Citation | null {
    const pages = new Set(e.pages);
    let end = e.row.page;
    while (pages.has(end + 1)) end++;
    return this.citation(e.row.document_id, e.row.page, end, e.row.chunk_id);
  }

  /** The citation of a code's detailed procedure, when the manual has one and its pages exist. */
  procedureCitation(e: CodeEntry): ProcedureCitation | null {
    const known = this.procedureCitations.get(e.row.id);
    if (known !== undefined) return known;
    const citation = this.makeProcedureCitation(e);
    this.procedureCitations.set(e.row.id, citation);
    return citation;
  }

  private makeProcedureCitation(e: CodeEntry): ProcedureCitation | null {
    const id = e.row.procedure_chunk_id;
    if (!id) return null;
    const chunk = this.reader.chunk(id);
    if (!chunk) return null;
    const start = e.row.procedure_page_start ?? chunk.page_start;
    const end = Math.max(start, e.row.procedure_page_end ?? chunk.page_end);
    const citation = this.citation(chunk.document_id, start, end, id);
    return citation ? { ...citation, chunk_id: id } : null;
  }

  private isVerified(row: ErrorCodeRow): boolean {
    let ok = this.verified.get(row.id);
    if (ok === undefined) {
      const doc = this.documentRows.get(row.document_id);
      const pageText = (n: number) =>
        doc && n >= 1 && n <= doc.page_count ? this.reader.page(row.document_id, n)?.text : undefined;
      ok = pageText(row.page) !== undefined && excerptStands(row, pageText);
      if (!ok) this.unverifiedCount++;
      this.verified.set(row.id, ok);
    }
    return ok;
  }

  private indexModel(brand: string, norm: string, entry: ModelIndexEntry): void {
    let index = this.modelIndex.get(brand);
    if (!index) {
      index = new Map();
      this.modelIndex.set(brand, index);
    }
    const list = index.get(norm);
    if (list) {
      if (!list.some((e) => e.model.id === entry.model.id)) list.push(entry);
    } else index.set(norm, [entry]);
  }
}

const views = new WeakMap<BundleReader, CorpusView>();

/** The shared view of a reader, built on first use. */
export function corpusView(reader: BundleReader): CorpusView {
  let view = views.get(reader);
  if (!view) {
    view = new CorpusView(reader);
    views.set(reader, view);
  }
  return view;
}

export function modelIdOf(model: { brand: string; norm: string }): string {
  return `${slugify(model.brand)}:${model.norm}`;
}

function toDocumentSummary(d: DocumentRow): DocumentSummary {
  return {
    document_id: d.id,
    title: d.title,
    brand: d.brand,
    doc_type: d.doc_type as (typeof DOC_TYPES)[number],
    language: d.language,
    equipment: d.equipment as (typeof EQUIPMENT)[number],
    edition: d.edition,
    approved: d.approved === 1,
    page_count: d.page_count,
    has_snapshots: d.has_snapshots === 1,
  };
}

/**
 * A code-index line (or a maintainer's correction) as an error-code row. Its id is negative, the line's
 * id negated, so that memos keyed by row id never confuse it with a reader's row.
 */
function lineRow(line: CodeLineRow, chunkId: string | null): ErrorCodeRow {
  return {
    id: -line.id,
    document_id: line.document_id,
    brand: line.brand,
    code: line.code,
    code_norm: line.code_norm,
    title: line.meaning,
    causes_json: '[]',
    steps_json: '[]',
    part_json: null,
    excerpt: line.excerpt,
    page: line.page,
    pages_json: JSON.stringify([line.page]),
    chunk_id: chunkId,
    procedure_chunk_id: null,
    procedure_page_start: null,
    procedure_page_end: null,
    excerpt_cells_json: null,
  };
}

function toEntry(row: ErrorCodeRow, language: string): CodeEntry {
  const steps = parseJson<{ order: number; text: string; safety: string | null }[]>(row.steps_json, []);
  return {
    row,
    language,
    origin: 'reader',
    pages: parseJson<number[]>(row.pages_json, [row.page]),
    causes: parseJson<string[]>(row.causes_json, []),
    steps: steps.map((s, i) => ({ order: s.order ?? i + 1, text: s.text, safety: s.safety ?? null })),
    part: row.part_json
      ? (() => {
          const p = parseJson<{ name: string; reference?: string | null } | null>(row.part_json, null);
          return p ? { name: p.name, reference: p.reference ?? null } : null;
        })()
      : null,
  };
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
