import type {
  Alternative,
  Citation,
  DiagnosticResponse,
  Excerpt,
  Part,
  Step,
  StrictDiagnosticResponse,
} from '@heatsource/sdk';
import type { Style } from './style.js';
import { Lines, pages, wrap } from './text-layout.js';

/** The citation as a technician reads it: the manual's title and page, its section, and how to see it. */
export function citationLines(out: Lines, citation: Citation, label = 'Source:'): void {
  const s = out.style;
  out.field(label, `${citation.title}, ${pages(citation.page, citation.page_end)}`);
  const indent = ' '.repeat(label.length + 1);
  if (citation.section) out.para(s.dim(citation.section), indent);
  out.command(`heatsource snapshot ${citation.document_id} ${citation.page}`, indent);
}

export function excerptLines(out: Lines, excerpt: Excerpt): void {
  const bar = out.style.dim('│ ');
  for (const line of excerpt.text.split('\n'))
    out.add(...wrap(line, out.style.width, `  ${bar}`, `  ${bar}`));
}

export function stepLines(out: Lines, steps: Step[]): void {
  const s = out.style;
  out.add(s.bold('Steps'));
  for (const step of steps) {
    const number = `  ${step.order}. `;
    // The safety note comes before the step it guards: it is read before the work starts, not after.
    if (step.safety) {
      out.add(...wrap(step.safety, s.width, `  ${s.yellow(s.bold('⚠ Safety:'))} `, ' '.repeat(13)));
    }
    out.add(...wrap(step.text, s.width, number, ' '.repeat(number.length)));
  }
}

function partText(part: Part): string {
  return part.reference ? `${part.name} (ref. ${part.reference})` : part.name;
}

function alternativeLines(out: Lines, alternatives: Alternative[]): void {
  out.add(out.style.bold('Documented for'));
  for (const a of alternatives) {
    const models = a.models.length > 0 ? a.models.join(', ') : a.brand;
    out.bullets([`${models}: ${a.error_code} ${a.title} (${a.citation.title}, page ${a.citation.page})`]);
  }
}

/** A v1 answer: the meaning first, then the manual's words, causes, numbered steps, part and citation. */
export function formatDiagnostic(d: DiagnosticResponse, style: Style, suggestions: string[] = []): string {
  const out = new Lines(style);
  const s = style;
  const who = [d.brand, d.model?.name].filter(Boolean).join(' ');
  switch (d.state) {
    case 'answer': {
      out.para(s.bold(`${d.error_code} · ${d.title ?? 'documented'}`));
      const match =
        d.model && d.model.match !== 'exact' ? ` (${d.model.match} match for “${d.model.query}”)` : '';
      const range = d.model?.range ? ` · ${d.model.range}` : '';
      // An answer not read from a code table says where it comes from, so the line is read with care.
      const origin =
        d.origin === 'code_index'
          ? ' · from the line the code opens, not read as a table row'
          : d.origin === 'maintainer'
            ? ' · listed by the corpus maintainer'
            : '';
      out.para(s.dim(`${who}${range}${match} · confidence ${d.confidence.band}${origin}`));
      if (d.excerpt) {
        out.blank();
        excerptLines(out, d.excerpt);
      }
      if (d.causes.length > 0) {
        out.blank().add(s.bold('Causes')).bullets(d.causes);
      }
      if (d.steps.length > 0) {
        out.blank();
        stepLines(out, d.steps);
      }
      if (d.part) out.blank().field('Part:', partText(d.part));
      out.blank();
      if (d.citation) citationLines(out, d.citation);
      if (d.procedure) citationLines(out, d.procedure, 'Procedure:');
      break;
    }
    case 'ambiguous': {
      out.para(s.bold(`${d.error_code} · more than one reading`));
      for (const q of d.follow_up_questions) {
        out.blank().para(s.yellow(q.question));
        if (q.options.length > 0) out.para(q.options.join(', '), '  ');
      }
      if (d.alternatives.length > 0) {
        out.blank();
        alternativeLines(out, d.alternatives);
      }
      const model = d.follow_up_questions.find((q) => q.field === 'model')?.options[0];
      if (model && d.brand) {
        out.blank().command(`heatsource lookup --brand ${d.brand} --model ${model} --code ${d.error_code}`);
      }
      break;
    }
    case 'unknown_code': {
      out.para(s.bold(`${d.error_code} · not documented for ${who || 'this unit'}`));
      out.para('No manual of this model in the corpus documents this code. Check the code on the display.');
      for (const q of d.follow_up_questions.filter((f) => f.field === 'model')) {
        out.blank().para(s.yellow(q.question));
        if (q.options.length > 0) out.para(q.options.join(', '), '  ');
      }
      if (d.alternatives.length > 0) {
        out.blank();
        alternativeLines(out, d.alternatives);
      }
      break;
    }
    case 'out_of_coverage': {
      const question = d.follow_up_questions[0];
      out.para(s.bold(`${d.error_code} · no manual of this ${d.brand ? 'model' : 'brand'} in the corpus`));
      if (question && d.brand) {
        out.para(question.question);
        if (question.options.length > 0) out.para(question.options.join(', '), '  ');
      }
      if (suggestions.length > 0) out.para(`Did you mean ${suggestions.join(', ')}?`);
      break;
    }
  }
  return out.toString();
}

/**
 * The one line of a look-up the corpus cannot answer for the brand or model typed: it names the value,
 * then offers the close names, or else the names the corpus has (the first few, and how many in all).
 */
export function notCoveredLine(
  what: { kind: 'brand'; typed: string } | { kind: 'model'; typed: string; brand: string },
  close: readonly string[],
  known: readonly string[],
  max = 6,
): string {
  const subject = what.kind === 'brand' ? `brand “${what.typed}”` : `${what.brand} model “${what.typed}”`;
  const line = `no manual of ${subject} in the corpus`;
  if (close.length > 0) return `${line}; did you mean ${close.join(', ')}?`;
  if (known.length === 0) return line;
  const which = what.kind === 'brand' ? 'brands' : `${what.brand} models`;
  const more =
    known.length > max
      ? `, … (${known.length} in all; \`heatsource ${what.kind === 'brand' ? 'registry' : `product ${what.brand}`}\` lists them)`
      : '';
  return `${line}; ${which} in the corpus: ${known.slice(0, max).join(', ')}${more}`;
}

/** A v2 answer: exact source or why there is none; the diagnostic is the v1 shape. */
export function formatStrict(
  r: StrictDiagnosticResponse,
  style: Style,
  query: { brand: string; model: string },
  suggestions: string[] = [],
): string {
  const out = new Lines(style);
  const s = style;
  if (r.status === 'exact_source' && r.diagnostic) {
    out.add(formatDiagnostic(r.diagnostic, style));
    out.blank().field('Exact source:', r.sources.map((d) => d.title).join('; ') || 'approved manual');
    return out.toString();
  }
  const model = r.model ? `${r.model.brand} ${r.model.name}` : 'this model';
  if (r.status === 'code_not_in_source') {
    out.para(s.bold(`Not in the exact manual: no approved manual of ${model} documents this code`));
    if (r.sources.length > 0) out.bullets(r.sources.map((d) => d.title));
    out.para(s.dim('Check the code on the display, or try without --strict for manuals of related models.'));
    return out.toString();
  }
  const why =
    r.reason === 'unknown_brand'
      ? 'the brand is not in the corpus'
      : r.reason === 'range_name'
        ? 'this is a range name, not a model: read the model on the nameplate'
        : r.reason === 'unknown_model'
          ? 'the model is not in the corpus under this name or an alias'
          : 'no approved manual lists this exact model';
  out.para(s.bold(`No exact source: ${why}`));
  if (suggestions.length > 0) out.para(`Did you mean ${suggestions.join(', ')}?`);
  if (r.reason !== 'unknown_brand') {
    const quote = (v: string) => (/^[\w.:-]+$/.test(v) ? v : `"${v.replace(/"/g, '\\"')}"`);
    out.command(`heatsource resolve ${quote(query.model)} --brand ${quote(query.brand)}`);
    out.para(s.dim('shows what the corpus knows of the model'));
  }
  return out.toString();
}
