import type { CorpusView } from './corpus.js';
import { diagnose } from './diagnostic.js';

/** A request the bundle answers, for examples printed to a user; null when it answers none. */
export function exampleDiagnostic(
  view: CorpusView,
): { brand: string; model: string; error_code: string } | null {
  const rows = view.reader.db
    .prepare(
      `SELECT e.brand, e.code, e.document_id FROM error_codes e JOIN documents d ON d.id = e.document_id
       ORDER BY d.approved DESC, e.code GLOB '*[A-Za-z]*' DESC, e.steps_json != '[]' DESC, d.language = 'en' DESC,
         d.id, e.id LIMIT 200`,
    )
    .all() as { brand: string; code: string; document_id: string }[];
  for (const row of rows) {
    const model = view.modelsOfDocument(row.document_id)[0];
    if (!model) continue;
    const query = { brand: row.brand, model: model.name, error_code: row.code };
    if (diagnose(view, query).state === 'answer') return query;
  }
  return null;
}
