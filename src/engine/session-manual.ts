import type { CorpusView } from './corpus.js';
import { findEntries } from './diagnostic.js';
import { resolveModel } from './models.js';
import type { ManualFact } from './sessions/types.js';

/**
 * The entries of the model's own manuals for the code, as the session engine takes them: causes, steps
 * with their safety notes, and the citation the v1 diagnostic gives the entry. None when the model does
 * not resolve to one model of the corpus (a range name, an unknown name) or its manuals lack the code.
 * Shared by the server's sessions and the field app's offline sessions, so both start from the same facts.
 */
export function manualContext(
  view: CorpusView,
  brand: string,
  model: string,
  code: string | undefined,
): { facts: ManualFact[]; equipment: 'air_water' | 'air_air' | null } {
  const r = resolveModel(view, brand, model, { fuzzy: true });
  if (r.kind !== 'model') return { facts: [], equipment: null };
  const equipment = view.modelSummary(r.model).equipment;
  if (!code) return { facts: [], equipment };
  const documents = new Set(view.documentsOfModel(r.model.id));
  const facts: ManualFact[] = [];
  for (const e of findEntries(view, r.brand, code, documents).entries) {
    const citation = view.entryCitation(e);
    if (!citation) continue;
    facts.push({ code: e.row.code, title: e.row.title, causes: e.causes, steps: e.steps, citation });
  }
  return { facts, equipment };
}
