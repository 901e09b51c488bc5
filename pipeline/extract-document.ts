import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Sidecar } from '../src/contract/sidecar.js';
import { normModel } from '../src/text/normalise.js';
import { pageLanguages } from './detect/language.js';
import { indexCodeLines, unreadIndexedCodes } from './facts/code-index.js';
import { codeTablePages, extractErrorCodes } from './facts/error-codes.js';
import { mentionsFaults } from './facts/header-words.js';
import { compareModels } from './facts/models.js';
import { layoutDocument } from './layout/document.js';
import { attachRules } from './layout/rules.js';
import { pageText } from './layout/types.js';
import { isUnreadableText } from './layout/unreadable.js';
import { buildChunks } from './structure/chunks.js';
import { findHeadings } from './structure/headings.js';
import { isNavigationLine, navigationPages } from './structure/navigation.js';
import type { ExtractedDocument } from './types.js';

/** Bump when extraction changes what it produces: bundles built by an older version re-extract. */
export const EXTRACTOR_VERSION = 19;

export interface DocumentSource {
  id: string;
  fileName: string;
  sha256: string;
  sidecar: Sidecar;
  sidecarSource: 'file' | 'detected';
  extractorVersion: number;
}

/** Pages with less text than this are reported: drawings, blank pages, or scans without a text layer. */
const MIN_PAGE_CHARS = 20;

export async function extractDocument(
  doc: PDFDocumentProxy,
  source: DocumentSource,
): Promise<ExtractedDocument> {
  const layout = await layoutDocument(doc);
  const tablePages = codeTablePages(layout.pages);
  await attachRules(doc, layout.pages, (p) => tablePages.has(p.page));
  const headings = findHeadings(layout.pages, layout.outline);
  const chunks = buildChunks(source.id, layout.pages, headings);
  const navigation = navigationPages(layout.pages);
  // A page whose text is glyph numbers (a font without a Unicode map) gives no code either.
  const unreadable = new Set(
    layout.pages.filter((p) => isUnreadableText(p.lines.map((l) => l.text).join('\n'))).map((p) => p.page),
  );
  // A contents, index or figure-list page names a code and a page, never what the code means: no code
  // is read from it, nor from an entry line of such a list printed on another page.
  const errorCodes = extractErrorCodes(layout.pages, chunks).filter(
    (e) =>
      !e.pages.some((p) => navigation.has(p) || unreadable.has(p)) &&
      !e.excerpt.split('\n').some((line) => isNavigationLine(line)),
  );
  const languages = pageLanguages(layout.pages.map((p) => p.lines.map((l) => l.text).join('\n')));
  const pages = layout.pages.map((p, i) => ({
    page: p.page,
    width: p.width,
    height: p.height,
    text: pageText(p),
    navigation: navigation.has(p.page),
    language: languages[i]!,
  }));
  const warnings: string[] = [];
  for (const e of layout.pageErrors) warnings.push(`page ${e.page}: text could not be read (${e.reason})`);
  const empty = pages.filter((p) => p.text.replace(/\s/g, '').length < MIN_PAGE_CHARS).map((p) => p.page);
  if (empty.length > 0) warnings.push(`pages without text: ${compactRanges(empty)}`);
  if (unreadable.size > 0)
    warnings.push(
      `pages whose text cannot be read (a font without a Unicode map, no ToUnicode; OCR the file or export it again): ${compactRanges([...unreadable])}`,
    );
  warnings.push(...compareModels(pages.map((p) => p.text).join('\n'), source.sidecar));
  const codeLines = indexCodeLines(layout.pages, new Set([...navigation, ...unreadable]));
  const unread = unreadIndexedCodes(
    codeLines,
    errorCodes.map((e) => e.code),
    normModel,
    (n) => mentionsFaults(pages.find((p) => p.page === n)?.text ?? ''),
  );
  if (unread.length > 0) {
    warnings.push(
      `codes indexed at cell or line starts but not read by the table reader on pages ${compactRanges(unread.map((u) => u.page))} (${unread
        .slice(0, 3)
        .map((u) => `p${u.page}: ${u.codes.slice(0, 6).join(' ')}`)
        .join('; ')}${unread.length > 3 ? '; …' : ''})`,
    );
  }
  return {
    ...source,
    pageCount: doc.numPages,
    pages,
    chunks,
    errorCodes,
    // A code whose row could not be told from its neighbours is for the audit above, not for answers.
    codeLines: codeLines.filter((l) => !l.uncertain),
    warnings,
  };
}

/** [1,2,3,7,9,10] -> "1-3, 7, 9-10". */
export function compactRanges(pages: number[]): string {
  const out: string[] = [];
  let start = pages[0];
  let prev = pages[0];
  for (const p of [...pages.slice(1), undefined]) {
    if (p !== undefined && prev !== undefined && p === prev + 1) {
      prev = p;
      continue;
    }
    if (start !== undefined) out.push(start === prev ? `${start}` : `${start}-${prev}`);
    start = p;
    prev = p;
  }
  return out.join(', ');
}
