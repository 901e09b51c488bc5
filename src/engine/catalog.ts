import type {
  ErrorCodeEntry,
  ErrorCodeResponse,
  ProcedureResponse,
  ProductResponse,
  RegistryResponse,
} from '../contract/catalog.js';
import type { DocumentSummary } from '../contract/documents.js';
import type { ModelCoverageResponse, ResolveModelRequest, ResolveModelResponse } from '../contract/models.js';
import { codeKey, normBrand } from '../text/normalise.js';
import type { CorpusView } from './corpus.js';
import { findEntries } from './diagnostic.js';
import { ServiceError } from './errors.js';
import { resolveModel } from './models.js';

/** Every manual of a brand documenting a code. */
export function errorCode(view: CorpusView, input: { brand: string; code: string }): ErrorCodeResponse {
  const brand = view.brandOf(input.brand);
  if (!brand) throw new ServiceError('brand_not_found', `the corpus has no manual of brand "${input.brand}"`);
  const { entries } = findEntries(view, brand, input.code);
  const out: ErrorCodeEntry[] = [];
  for (const e of entries) {
    const citation = view.entryCitation(e);
    const document = view.documentSummary(e.row.document_id);
    if (!citation || !document) continue;
    out.push({
      error_code: e.row.code,
      title: e.row.title,
      causes: e.causes,
      steps: e.steps,
      part: e.part,
      excerpt: { text: e.row.excerpt, document_id: e.row.document_id, page: e.row.page },
      models: view.modelsOfDocument(e.row.document_id).map((m) => m.name),
      document,
      citation,
      procedure: view.procedureCitation(e),
    });
  }
  if (out.length === 0) {
    throw new ServiceError('error_code_not_found', `no manual of ${brand} documents code "${input.code}"`);
  }
  return { brand, code: codeKey(input.code), entries: out };
}

function documentsOf(view: CorpusView, ids: string[]): DocumentSummary[] {
  return ids.map((id) => view.documentSummary(id)).filter((d): d is DocumentSummary => d !== undefined);
}

/** A model and its manuals; the name matches as in v1 (exact, alias, or one close name). */
export function product(view: CorpusView, input: { brand: string; model: string }): ProductResponse {
  const r = resolveModel(view, input.brand, input.model, { fuzzy: true });
  switch (r.kind) {
    case 'unknown_brand':
      throw new ServiceError('brand_not_found', `the corpus has no manual of brand "${input.brand}"`);
    case 'range':
      throw new ServiceError(
        'range_name',
        `"${r.range.name}" is a range of ${r.brand}; its models: ${r.models.map((m) => m.name).join(', ')}`,
      );
    case 'model': {
      const ids = view.documentsOfModel(r.model.id);
      return {
        brand: r.brand,
        model: { ...view.modelSummary(r.model), match: r.match, query: r.query },
        documents: documentsOf(view, ids),
        error_codes: view.distinctCodesOfDocuments(ids),
      };
    }
    default: {
      const close = r.kind === 'candidates' ? r.models : r.kind === 'unknown_model' ? r.suggestions : [];
      const hint = close.length > 0 ? `; close names: ${close.map((m) => m.name).join(', ')}` : '';
      throw new ServiceError('model_not_found', `the corpus has no ${r.brand} model "${input.model}"${hint}`);
    }
  }
}

/** Strict model resolution: exact name or alias only; without a brand, across every brand. */
export function resolveModelStrict(view: CorpusView, input: ResolveModelRequest): ResolveModelResponse {
  const query = { brand: input.brand ?? null, model: input.model };
  if (input.brand !== undefined) return resolveInBrand(view, input.brand, input.model, query);
  // A nameplate shows the model; the brand may not be at hand. Each brand is asked the same strict
  // question, and the name resolves only when exactly one model of the whole corpus answers it.
  const answers = view.brands.map((brand) => resolveInBrand(view, brand, input.model, query));
  const named = answers.flatMap((a) =>
    a.status === 'resolved' ? [a.model!] : a.reason === 'ambiguous_model' ? a.candidates : [],
  );
  if (named.length === 1) return answers.find((a) => a.status === 'resolved')!;
  const unresolved = (reason: ResolveModelResponse['reason'], list: ResolveModelResponse[]) => {
    const brands = [...new Set(list.map((a) => a.brand))];
    const candidates = list.flatMap((a) => {
      if (a.status !== 'resolved') return a.candidates;
      const { match: _match, ...model } = a.model!;
      return [model];
    });
    return {
      status: 'unresolved',
      reason,
      query,
      brand: brands.length === 1 ? brands[0]! : null,
      model: null,
      candidates: candidates.slice(0, MAX_CANDIDATES),
    } satisfies ResolveModelResponse;
  };
  if (named.length > 1) {
    return unresolved(
      'ambiguous_model',
      answers.filter((a) => a.status === 'resolved' || a.reason === 'ambiguous_model'),
    );
  }
  const ranges = answers.filter((a) => a.reason === 'range_name');
  if (ranges.length > 0) return unresolved('range_name', ranges);
  return { ...unresolved('unknown_model', answers), brand: null };
}

/** At most this many candidates in an unresolved answer across brands. */
const MAX_CANDIDATES = 20;

function resolveInBrand(
  view: CorpusView,
  brandInput: string,
  modelInput: string,
  query: ResolveModelResponse['query'],
): ResolveModelResponse {
  const r = resolveModel(view, brandInput, modelInput, { fuzzy: false });
  const unresolved = (
    reason: ResolveModelResponse['reason'],
    brand: string | null,
    candidates: ResolveModelResponse['candidates'],
  ): ResolveModelResponse => ({ status: 'unresolved', reason, query, brand, model: null, candidates });
  switch (r.kind) {
    case 'unknown_brand':
      return unresolved('unknown_brand', null, []);
    case 'range':
      return unresolved(
        'range_name',
        r.brand,
        r.models.map((m) => view.modelSummary(m)),
      );
    case 'model':
      if (r.match === 'fuzzy') break;
      return {
        status: 'resolved',
        reason: null,
        query,
        brand: r.brand,
        model: { ...view.modelSummary(r.model), match: r.match },
        candidates: [],
      };
    case 'candidates':
      // An alias several models share names no one model.
      return unresolved(
        'ambiguous_model',
        r.brand,
        r.models.map((m) => view.modelSummary(m)),
      );
    case 'unknown_model':
      return unresolved(
        'unknown_model',
        r.brand,
        r.suggestions.map((m) => view.modelSummary(m)),
      );
    case 'no_model':
      break;
  }
  return unresolved('unknown_model', view.brandOf(brandInput) ?? null, []);
}

/** What the corpus holds for one model, and whether strict answers are possible for it. */
export function modelCoverage(view: CorpusView, input: { model_id: string }): ModelCoverageResponse {
  const model = view.modelByPublicId(input.model_id);
  if (!model) {
    throw new ServiceError(
      'model_not_found',
      `no model with id "${input.model_id}" (ids look like "brand:MODELNAME"; see /v2/models/resolve)`,
    );
  }
  const ids = view.documentsOfModel(model.id);
  const docs = documentsOf(view, ids);
  const approved = docs.filter((d) => d.approved).map((d) => d.document_id);
  return {
    model: view.modelSummary(model),
    exact_source: approved.length > 0,
    documents: docs.map((d) => ({
      ...d,
      exact_source: d.approved,
      error_codes: view.distinctCodesOfDocument(d.document_id),
    })),
    error_codes: {
      exact_source: view.distinctCodesOfDocuments(approved),
      all_sources: view.distinctCodesOfDocuments(ids),
    },
  };
}

/** A chunk of a manual in full, usually a code's detailed procedure. */
export function procedure(view: CorpusView, input: { chunk_id: string }): ProcedureResponse {
  const chunk = view.chunk(input.chunk_id);
  const citation = chunk
    ? view.citation(chunk.document_id, chunk.page_start, chunk.page_end, chunk.id)
    : null;
  if (!chunk || !citation)
    throw new ServiceError('chunk_not_found', `no chunk "${input.chunk_id}" in the bundle`);
  return {
    chunk_id: chunk.id,
    document_id: chunk.document_id,
    kind: chunk.kind,
    section_path: JSON.parse(chunk.section_path) as string[],
    page_start: chunk.page_start,
    page_end: chunk.page_end,
    text: chunk.text,
    citation,
    error_codes: view.codesOfProcedure(chunk.id).map((c) => ({ error_code: c.code, title: c.title })),
  };
}

interface RegistryData {
  brands: RegistryResponse['brands'];
  totals: RegistryResponse['totals'];
  bundle: RegistryResponse['bundle'];
}

const registries = new WeakMap<CorpusView, RegistryData>();

function registryData(view: CorpusView): RegistryData {
  let data = registries.get(view);
  if (data) return data;
  const reader = view.reader;
  const aliasRows = reader.brandAliases();
  const brands = view.brands.map((name) => {
    const models = view.modelsOf(name).map((m) => view.modelSummary(m));
    const documents = view
      .documentIds()
      .map((id) => view.documentSummary(id)!)
      .filter((d) => d.brand === name);
    return {
      name,
      aliases: aliasRows.filter((a) => a.brand === name && a.norm !== normBrand(name)).map((a) => a.norm),
      models,
      documents,
      error_codes: view.distinctCodesOfBrand(name),
    };
  });
  const totals = reader.totals();
  data = {
    brands,
    totals: {
      brands: brands.length,
      models: totals.models,
      documents: totals.documents,
      pages: totals.pages,
      error_codes: totals.error_codes,
    },
    bundle: { version: reader.formatVersion, built_at: reader.builtAt, corpus_hash: reader.corpusHash },
  };
  registries.set(view, data);
  return data;
}

/** Cursors are opaque to clients: a base64url offset into the brand list. */
function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  const m = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) {
    throw new ServiceError('validation_failed', 'cursor is not one this server issued', {
      errors: [{ field: 'cursor', message: 'not a cursor this server issued' }],
    });
  }
  return Number(m[1]);
}

function encodeCursor(offset: number): string {
  return Buffer.from(`o${offset}`, 'utf8').toString('base64url');
}

export function registry(
  view: CorpusView,
  input: { limit: number; cursor?: string | undefined },
): RegistryResponse {
  const data = registryData(view);
  const offset = decodeCursor(input.cursor);
  const page = data.brands.slice(offset, offset + input.limit);
  const next = offset + input.limit < data.brands.length ? encodeCursor(offset + input.limit) : null;
  return { brands: page, totals: data.totals, bundle: data.bundle, next_cursor: next };
}
