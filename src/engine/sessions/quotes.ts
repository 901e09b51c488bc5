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
  if (citation) pushQuote(list, text, citation);
}

/**
 * Adds a quote to a list unless the list already holds its words on the same page. A sentence quoted
 * within a longer quote of the same page adds nothing (the reader would see the same words twice: a
 * range's sentence and the procedure step that holds it), so the longer quote stands for both, in the
 * place of the first of them.
 */
export function pushQuote(list: Quote[], text: string, citation: Citation): void {
  if (list.some((q) => sameCitation(q.citation, citation) && q.text.includes(text))) return;
  const within = list.findIndex((q) => sameCitation(q.citation, citation) && text.includes(q.text));
  if (within < 0) {
    list.push({ text, citation });
    return;
  }
  list[within] = { text, citation };
  for (let i = list.length - 1; i > within; i--) {
    if (sameCitation(list[i]!.citation, citation) && text.includes(list[i]!.text)) list.splice(i, 1);
  }
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
