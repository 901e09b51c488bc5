import type { Citation } from '../contract/common.js';
import { type ExcerptCell, parseCells } from '../text/excerpt-cells.js';
import type { CorpusView } from './corpus.js';
import { findEntries } from './diagnostic.js';
import { PagePlacer, pageHolds } from './manual-quotes.js';
import { resolveModel } from './models.js';
import type { ManualFact } from './sessions/types.js';

/** What a session starts from: the manual's facts for the code, the model's equipment, and what is missing. */
export interface ManualContext {
  facts: ManualFact[];
  equipment: 'air_water' | 'air_air' | null;
  /** No manual of the brand, of the model, or no entry for the code in the model's manuals. */
  missing?: 'brand' | 'model' | 'code';
}

/**
 * The entries of the model's own manuals for the code, as the session engine takes them: causes, steps
 * with their safety notes and part, each cited on the page whose text holds what is quoted from it.
 * None when the model does not resolve to one model of the corpus (a range name, an unknown name) or
 * its manuals lack the code. Shared by the server's sessions and the field app's offline sessions, so
 * both start from the same facts.
 */
export function manualContext(
  view: CorpusView,
  brand: string,
  model: string,
  code: string | undefined,
): ManualContext {
  const r = resolveModel(view, brand, model, { fuzzy: true });
  if (r.kind !== 'model') {
    return { facts: [], equipment: null, missing: view.brandOf(brand) ? 'model' : 'brand' };
  }
  const equipment = view.modelSummary(r.model).equipment;
  if (!code) return { facts: [], equipment };
  const documents = new Set(view.documentsOfModel(r.model.id));
  const facts: ManualFact[] = [];
  const placer = new PagePlacer(view);
  for (const e of findEntries(view, r.brand, code, documents).entries) {
    const citation = view.entryCitation(e);
    if (!citation) continue;
    const doc = e.row.document_id;
    const rowPages = [...new Set([e.row.page, ...e.pages])];
    const procedure = view.procedureCitation(e);
    const procedurePages = procedure
      ? Array.from({ length: procedure.page_end - procedure.page + 1 }, (_, i) => procedure.page + i)
      : [];
    const cells = parseCells(e.row.excerpt_cells_json);
    const fact: ManualFact = {
      code: e.row.code,
      title: e.row.title,
      causes: e.causes,
      causeQuotes: e.causes.map((text) => causeQuote(placer, doc, text, cells, citation, rowPages)),
      steps: e.steps.map((step) => ({
        ...step,
        citation: placer.place(doc, step.text, [...procedurePages, ...rowPages]),
      })),
      citation,
    };
    // The words the entry's own page is cited for: the row as printed when it stands there as one
    // text (a prose entry), else its title (a table row's excerpt adds the column headers).
    const excerpt = [e.row.excerpt, e.row.title].find(
      (text) => placer.place(doc, text, [citation.page])?.page === citation.page,
    );
    if (excerpt) fact.excerpt = excerpt;
    if (e.part) {
      const printed = e.part.reference ?? e.part.name;
      fact.part = {
        ...e.part,
        citation: placer.place(doc, printed, [...procedurePages, ...rowPages]),
      };
    }
    facts.push(fact);
  }
  return facts.length > 0 ? { facts, equipment } : { facts, equipment, missing: 'code' };
}

/** The session's `noManual` setting: what no manual covers, said once when the session starts. */
export function noManualOf(
  manual: ManualContext,
  code: string | undefined,
): { noManual?: 'brand' | 'model' | 'code' } {
  return manual.missing && (manual.missing !== 'code' || code) ? { noManual: manual.missing } : {};
}

/**
 * A cause of a table row, as printed: the cell that holds it, line by line, when every line stands on
 * the row's pages (the check the bundle's excerpts pass: a cell's lines sit between other columns in
 * the page's reading order); else the page holding its text as one; else none.
 */
function causeQuote(
  placer: PagePlacer,
  documentId: string,
  text: string,
  cells: ExcerptCell[] | null,
  row: Citation,
  rowPages: number[],
): { text: string; citation: Citation } | null {
  const cell = cells?.find((c) => c.text.replace(/\s+/g, ' ').trim() === text.replace(/\s+/g, ' ').trim());
  if (cell && cell.lines.length > 1) {
    const pages = rowPages.map((n) => placer.pageText(documentId, n)).filter((t): t is string => t !== null);
    if (cell.lines.every((line) => pages.some((page) => pageHolds(page, line))))
      return { text: cell.lines.join('\n'), citation: row };
  }
  const citation = placer.place(documentId, text, rowPages);
  return citation ? { text, citation } : null;
}
