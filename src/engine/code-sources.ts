/**
 * The sources of a code's readings, in the order they answer: the maintainer's corrections (a sidecar's
 * `corrections`) replace what the table reader read in their manual; the reader's rows come next; the code
 * index (the row or line a code opens on its page) answers only where neither has anything for the code in
 * the manuals asked about.
 */
import { codeKey, codeVariants } from '../text/normalise.js';
import type { CodeEntry, CorpusView } from './corpus.js';

export type CodeSource = CodeEntry['origin'];

/** A code as printed, spaces and hyphens aside, its letters' case kept. */
function printedForm(code: string): string {
  return code.replace(/[\s\-_.]+/g, '');
}

/**
 * Where a manual prints one code in two cases (a display's `Eb` beside `EB`), they are two codes: of that
 * manual's entries, those printed in the case asked. A manual printing the code in one case only, or none
 * in the case asked, keeps all its entries (a code asked in the other case finds the one that exists).
 */
function sameCase(entries: CodeEntry[], code: string): CodeEntry[] {
  const asked = printedForm(code);
  const byDocument = new Map<string, CodeEntry[]>();
  for (const e of entries)
    byDocument.set(e.row.document_id, [...(byDocument.get(e.row.document_id) ?? []), e]);
  return entries.filter((e) => {
    const own = byDocument.get(e.row.document_id)!;
    const forms = new Set(own.map((o) => printedForm(o.row.code)));
    return forms.size < 2 || !forms.has(asked) || printedForm(e.row.code) === asked;
  });
}

/** A code's entries from one lookup: the printed form first, the other zero padding only if absent. */
export function findIn(
  lookup: (codeNorm: string) => CodeEntry[],
  code: string,
  documents?: ReadonlySet<string>,
): { entries: CodeEntry[]; variant: boolean } {
  const keep = (list: CodeEntry[]) =>
    documents ? list.filter((e) => documents.has(e.row.document_id)) : list;
  const primary = codeKey(code);
  const exact = keep(lookup(primary));
  if (exact.length > 0) return { entries: sameCase(exact, code), variant: false };
  const out: CodeEntry[] = [];
  for (const v of codeVariants(code)) {
    if (v === primary) continue;
    out.push(...keep(lookup(v)));
  }
  return { entries: out, variant: out.length > 0 };
}

/**
 * A code's entries among some documents (all of the brand's without `documents`) from the sources asked:
 * the maintainer's entries, with the reader's entries of the other documents, else the code index's.
 */
export function findSourced(
  view: CorpusView,
  brand: string,
  code: string,
  documents?: ReadonlySet<string>,
  sources: readonly CodeSource[] = ['maintainer', 'reader', 'code_index'],
): { entries: CodeEntry[]; variant: boolean } {
  const maintainer = sources.includes('maintainer')
    ? findIn((n) => view.lineEntries(brand, n, 'maintainer'), code, documents)
    : { entries: [], variant: false };
  const corrected = new Set(maintainer.entries.map((e) => e.row.document_id));
  const reader = sources.includes('reader')
    ? findIn((n) => view.codeEntries(brand, n), code, documents)
    : { entries: [], variant: false };
  const read = reader.entries.filter((e) => !corrected.has(e.row.document_id));
  if (maintainer.entries.length + read.length > 0) {
    return {
      entries: [...maintainer.entries, ...read],
      variant: maintainer.entries.length > 0 ? maintainer.variant : reader.variant,
    };
  }
  if (!sources.includes('code_index')) return { entries: [], variant: false };
  return findIn((n) => view.lineEntries(brand, n, 'code_index'), code, documents);
}
