import type { Citation } from '../../contract/common.js';
import type { ManualFact, Quote, QuotedAt } from './types.js';

/** The page that holds a text of an entry: its own (verified) page, the entry's, or none. */
export function placed(at: QuotedAt, fact: ManualFact): Citation | null {
  return at === undefined ? fact.citation : at;
}

export function addQuote(
  map: Map<string, Quote[]>,
  id: string,
  text: string,
  citation: Citation | null,
): void {
  const list = map.get(id) ?? [];
  map.set(id, list);
  if (!citation) return;
  if (!list.some((q) => q.text === text && sameCitation(q.citation, citation))) list.push({ text, citation });
}

export function sameCitation(a: Citation, b: Citation): boolean {
  return a.document_id === b.document_id && a.page === b.page && a.page_end === b.page_end;
}

/** The distinct citations of quotes, in order. */
export function citationsOf(quotes: Quote[]): Citation[] {
  const out: Citation[] = [];
  for (const q of quotes) if (!out.some((c) => sameCitation(c, q.citation))) out.push(q.citation);
  return out;
}
