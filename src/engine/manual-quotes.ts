import type { Citation } from '../contract/common.js';
import type { CorpusView } from './corpus.js';

/**
 * Text as compared with a page: white space collapsed, and a hyphen at a line end joined to the next
 * word, on both sides, since the bundle stores a step's lines joined ("Pro-" + "blem") while the page
 * keeps them as printed.
 */
export function comparable(text: string): string {
  return text
    .replace(/[\u2010\u2011-]\s+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a page's text holds a quoted text, white space and line-end hyphens aside. */
export function pageHolds(pageText: string, quote: string): boolean {
  const needle = comparable(quote);
  return needle.length > 0 && comparable(pageText).includes(needle);
}

/**
 * Whether a quote stands on a page as the service checks it: a quote of several lines is a table
 * cell, each line of which must stand on the page (a cell's lines sit between the other columns'
 * in reading order); a quote of one line must stand as a whole.
 */
export function quoteStands(pageText: string, quote: string): boolean {
  return quote
    .split('\n')
    .filter((line) => line.trim())
    .every((line) => pageHolds(pageText, line));
}

/**
 * Finds the page of a document that holds a quoted text, so that a session cites the page where a
 * step, a cause, a range or a part reference is printed, not the page of the code's table row that
 * points to it. Pages are tried in the order given (the row's, the procedure's), then every page of
 * the document. Page texts are read once per placer: one placer serves one session start.
 */
export class PagePlacer {
  private readonly texts = new Map<string, string | null>();

  constructor(private readonly view: CorpusView) {}

  pageText(documentId: string, page: number): string | null {
    const key = `${documentId}\u0000${page}`;
    let text = this.texts.get(key);
    if (text === undefined) {
      text = this.view.reader.page(documentId, page)?.text ?? null;
      this.texts.set(key, text);
    }
    return text;
  }

  /** The citation of the first page holding the text, or null when no page of the document does. */
  place(documentId: string, quote: string, preferred: number[] = []): Citation | null {
    const doc = this.view.document(documentId);
    if (!doc || !quote.trim()) return null;
    const order = [...new Set([...preferred, ...Array.from({ length: doc.page_count }, (_, i) => i + 1)])];
    for (const page of order) {
      if (page < 1 || page > doc.page_count) continue;
      const text = this.pageText(documentId, page);
      if (text === null || !pageHolds(text, quote)) continue;
      const chunk =
        this.view.reader.chunksOnPage(documentId, page).find((c) => pageHolds(c.text, quote)) ?? null;
      return this.view.citation(documentId, page, page, chunk?.id ?? null);
    }
    return null;
  }
}
