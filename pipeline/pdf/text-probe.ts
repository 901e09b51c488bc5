import { OPS, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** Characters (white space aside) a document must hold over all its pages to count as having text. */
export function textNeeded(pages: number): number {
  return Math.min(200, 2 * Math.max(1, pages));
}

const IMAGE_OPS = new Set<number>([
  OPS.paintImageXObject,
  OPS.paintInlineImageXObject,
  OPS.paintImageMaskXObject,
  OPS.paintImageXObjectRepeat,
  OPS.paintImageMaskXObjectRepeat,
  OPS.paintInlineImageXObjectGroup,
  OPS.paintImageMaskXObjectGroup,
]);

/** Pages looked at for images when a document has no text: enough to tell a scan from an empty file. */
const IMAGE_PAGES = 10;

/**
 * Why a document without enough text has none, in words a corpus maintainer can act on: pages pdfjs could
 * not read at all (a broken page tree), pages with neither text nor images (empty, or content pdfjs could
 * not parse and skipped), or images only (a scan).
 */
export async function noTextReason(
  doc: PDFDocumentProxy,
  pageErrors: { page: number; reason: string }[],
): Promise<string> {
  if (pageErrors.length > 0 && pageErrors.length >= Math.min(doc.numPages, IMAGE_PAGES)) {
    const first = pageErrors[0]!;
    return `the pages cannot be read (page ${first.page}: ${first.reason}); the PDF is damaged or malformed`;
  }
  for (let n = 1; n <= Math.min(doc.numPages, IMAGE_PAGES); n++) {
    try {
      const page = await doc.getPage(n);
      const ops = await page.getOperatorList();
      page.cleanup();
      if (ops.fnArray.some((op) => IMAGE_OPS.has(op)))
        return 'no text layer: the PDF holds only images (a scan?); OCR it before ingesting';
    } catch {
      // An unreadable page shows no image either.
    }
  }
  return 'no text and no images: the pages are empty, or their content could not be parsed';
}

/**
 * Reads the text layer page by page until the document has shown enough text, and says why not when it
 * never does. Run before any snapshot is drawn, so that a document of thousands of empty pages costs a
 * pass over its text and not a rendering of every page. A manual with text stops at its first page or two.
 */
export async function textLayerProblem(doc: PDFDocumentProxy): Promise<string | null> {
  const need = textNeeded(doc.numPages);
  const errors: { page: number; reason: string }[] = [];
  let chars = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    try {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      for (const item of content.items) if ('str' in item) chars += item.str.replace(/\s/g, '').length;
    } catch (err) {
      errors.push({ page: n, reason: (err as Error).message });
    }
    if (chars >= need) return null;
  }
  return noTextReason(doc, errors);
}
