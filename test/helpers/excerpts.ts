import type { BundleReader } from '../../src/bundle/reader.js';
import type { ErrorCodeRow } from '../../src/bundle/schema.js';
import type { Excerpt } from '../../src/contract/diagnostic.js';
import { excerptStands } from '../../src/text/excerpt-cells.js';

/**
 * Whether a served excerpt is one the bundle holds for its page and stands there: a table row cell by
 * cell (every line of every cell verbatim on the row's pages), prose verbatim.
 */
export function servedExcerptStands(reader: BundleReader, excerpt: Excerpt): boolean {
  const rows = reader.db
    .prepare('SELECT * FROM error_codes WHERE document_id = ? AND page = ? AND excerpt = ?')
    .all(excerpt.document_id, excerpt.page, excerpt.text) as ErrorCodeRow[];
  return (
    rows.length > 0 &&
    rows.every((row) => excerptStands(row, (n) => reader.page(excerpt.document_id, n)?.text))
  );
}
