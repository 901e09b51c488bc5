import type { CorpusView } from './corpus.js';
import { diagnose } from './diagnostic.js';

/** A request the bundle answers, for examples printed to a user; null when it answers none. */
export function exampleDiagnostic(
  view: CorpusView,
): { brand: string; model: string; error_code: string } | null {
  for (const row of view.reader.exampleCodes(200)) {
    const model = view.modelsOfDocument(row.document_id)[0];
    if (!model) continue;
    const query = { brand: row.brand, model: model.name, error_code: row.code };
    if (diagnose(view, query).state === 'answer') return query;
  }
  return null;
}
