import type {
  DocumentSummary,
  ErrorCodeResponse,
  MeResponse,
  ModelSummary,
  ProductResponse,
  RegistryResponse,
  ResolveModelResponse,
  SearchResponse,
} from '@heatsource/sdk';
import type { ClientTarget } from '../client/types.js';
import { citationLines, excerptLines, stepLines } from './format-diagnostic.js';
import type { Style } from './style.js';
import { Lines, plural } from './text-layout.js';

const EQUIPMENT: Record<string, string> = { air_water: 'Air/Water', air_air: 'Air/Air' };

function documentLine(d: DocumentSummary): string {
  const facts = [
    d.doc_type.replace(/_/g, ' '),
    d.language,
    d.edition,
    d.approved ? 'approved' : 'not approved',
    plural(d.page_count, 'page'),
  ].filter(Boolean);
  return `${d.title} (${facts.join(', ')})`;
}

/** At most this many models are named under a search hit; a manual of a whole range covers dozens. */
const HIT_MODELS = 3;

function modelList(models: readonly string[]): string {
  if (models.length <= HIT_MODELS) return models.join(', ');
  return `${models.slice(0, HIT_MODELS).join(', ')} and ${models.length - HIT_MODELS} more`;
}

export function formatSearch(r: SearchResponse, style: Style, nextCommand: string | null): string {
  const out = new Lines(style);
  const s = style;
  r.results.forEach((hit, i) => {
    if (i > 0) out.blank();
    const where = `${hit.title}, page ${hit.page}`;
    out.para(`${s.bold(`${i + 1}.`)} ${s.bold(where)}`);
    if (hit.section) out.para(s.dim(hit.section), '   ');
    out.para(hit.snippet, '   ');
    out.para(s.dim(`${hit.brand}${hit.models.length > 0 ? ` ${modelList(hit.models)}` : ''}`), '   ');
    out.command(`heatsource snapshot ${hit.document_id} ${hit.page}`, '   ');
  });
  if (nextCommand) out.blank().para(s.dim(`More: ${nextCommand}`));
  return out.toString();
}

export function formatErrorCode(r: ErrorCodeResponse, style: Style): string {
  const out = new Lines(style);
  const s = style;
  out.para(s.bold(`${r.brand} ${r.code} · documented in ${plural(r.entries.length, 'manual')}`));
  r.entries.forEach((e, i) => {
    out.blank().para(s.bold(`[${i + 1}] ${e.error_code} · ${e.title}`));
    if (e.models.length > 0) out.field('Models:', e.models.join(', '));
    excerptLines(out, e.excerpt);
    if (e.causes.length > 0) out.add(s.bold('Causes')).bullets(e.causes);
    if (e.steps.length > 0) stepLines(out, e.steps);
    if (e.part)
      out.field('Part:', e.part.reference ? `${e.part.name} (ref. ${e.part.reference})` : e.part.name);
    citationLines(out, e.citation);
    if (e.procedure) citationLines(out, e.procedure, 'Procedure:');
  });
  return out.toString();
}

export function formatProduct(r: ProductResponse, style: Style): string {
  const out = new Lines(style);
  const s = style;
  const m = r.model;
  out.para(s.bold(`${r.brand} ${m.name}`));
  const match = m.match === 'exact' ? '' : ` · ${m.match} match for “${m.query}”`;
  out.para(s.dim(`${m.range ? `${m.range} · ` : ''}${EQUIPMENT[m.equipment] ?? m.equipment}${match}`));
  if (m.aliases.length > 0) out.field('Also sold as:', m.aliases.join(', '));
  out.field('Model id:', m.model_id);
  out
    .blank()
    .para(`${plural(r.error_codes, 'error code')} documented in ${plural(r.documents.length, 'manual')}:`);
  for (const d of r.documents) {
    out.bullets([documentLine(d)]);
    out.para(s.dim(d.document_id), '    ');
  }
  return out.toString();
}

function modelLine(m: ModelSummary): string {
  return `${m.name}${m.range ? ` (${m.range})` : ''}${m.aliases.length > 0 ? `, also ${m.aliases.join(', ')}` : ''}`;
}

export function formatResolve(r: ResolveModelResponse, style: Style, suggestions: string[] = []): string {
  const out = new Lines(style);
  const s = style;
  if (r.status === 'resolved' && r.model) {
    const how = r.model.match === 'alias' ? ` (alias “${r.query.model}”)` : '';
    out.para(s.bold(`${r.model.brand} ${r.model.name}${how}`));
    out.para(s.dim(`${r.model.range ? `${r.model.range} · ` : ''}${EQUIPMENT[r.model.equipment] ?? ''}`));
    out.field('Model id:', r.model.model_id);
    return out.toString();
  }
  switch (r.reason) {
    case 'range_name':
      out.para(s.bold(`“${r.query.model}” is a range of ${r.brand}, not a model`));
      out.para('Read the exact model on the nameplate. Models of the range:');
      break;
    case 'unknown_brand':
      out.para(s.bold(`No manual of brand “${r.query.brand}” in the corpus`));
      if (suggestions.length > 0) out.para(`Did you mean ${suggestions.join(', ')}?`);
      break;
    case 'ambiguous_model':
      out.para(s.bold(`“${r.query.model}” names models of several brands`));
      out.para('Give the brand on the nameplate with --brand. Models of that name:');
      break;
    default: {
      const brand = r.brand ?? r.query.brand;
      out.para(s.bold(`No ${brand ? `${brand} ` : ''}model “${r.query.model}” in the corpus`));
      if (r.candidates.length > 0) out.para('Close names (not a match):');
    }
  }
  out.bullets(r.candidates.map(modelLine));
  return out.toString();
}

/** Every brand with its models grouped by range, then the totals and the bundle. */
export function formatRegistry(pages: RegistryResponse[], style: Style): string {
  const out = new Lines(style);
  const s = style;
  const last = pages[pages.length - 1];
  for (const brand of pages.flatMap((p) => p.brands)) {
    out.para(s.bold(brand.name));
    out.para(
      s.dim(
        `${plural(brand.models.length, 'model')} · ${plural(brand.documents.length, 'manual')} · ${plural(brand.error_codes, 'code')}`,
      ),
      '  ',
    );
    if (brand.aliases.length > 0) out.field('Also:', brand.aliases.join(', '), '  ');
    const byRange = new Map<string, string[]>();
    for (const m of brand.models) {
      const key = m.range ?? '';
      byRange.set(key, [...(byRange.get(key) ?? []), m.name]);
    }
    for (const [range, names] of byRange) out.para(`${range ? `${range}: ` : ''}${names.join(', ')}`, '  ');
    out.blank();
  }
  if (last) {
    const t = last.totals;
    out.para(
      s.dim(
        `${plural(t.brands, 'brand')}, ${plural(t.models, 'model')}, ${plural(t.documents, 'manual')}, ` +
          `${plural(t.pages, 'page')}, ${plural(t.error_codes, 'code')} · bundle format ${last.bundle.version}, ` +
          `built ${last.bundle.built_at}`,
      ),
    );
  }
  return out.toString();
}

export function formatMe(r: MeResponse, style: Style, target: ClientTarget): string {
  const out = new Lines(style);
  const s = style;
  if (target.kind === 'local') {
    out.para(s.bold('Offline'));
    out.field('Bundle:', target.bundle);
    out.para('Answers come from the bundle on this machine; offline calls are not billed.');
    return out.toString();
  }
  out.para(s.bold(`${r.account.name}`));
  out.field('Server:', target.url);
  out.field('Account:', r.account.id);
  out.field('Key:', r.key ? `${r.key.prefix}… (${r.key.mode})` : 'none (the server runs without keys)');
  const q = r.quota;
  out.field(
    'Quota:',
    q.limit === null
      ? `${plural(q.used, 'billable answer')} in ${q.period}, no limit`
      : `${q.used} of ${q.limit} used in ${q.period} (${q.remaining ?? 0} left), resets ${q.resets_at.slice(0, 10)}`,
  );
  const rpm = r.rate_limit.requests_per_minute;
  out.field('Rate limit:', rpm === null ? 'none' : `${rpm} requests per minute`);
  return out.toString();
}
