import { createRequire } from 'node:module';
import path from 'node:path';
import { getDocument, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_LIMITS } from './limits.js';

const require = createRequire(import.meta.url);
const pdfjsDir = path.dirname(require.resolve('pdfjs-dist/package.json'));

/** Why a PDF could not be opened, in words a corpus maintainer can act on. */
export class PdfOpenError extends Error {
  constructor(
    readonly reason: 'encrypted' | 'corrupt' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'PdfOpenError';
  }
}

/**
 * Opens a PDF with the legacy build (the modern one needs DOMMatrix) and the font, CMap and wasm
 * data shipped with pdfjs-dist, so non-embedded fonts, CJK text and JPX images decode offline.
 */
export async function openPdf(data: Uint8Array): Promise<PDFDocumentProxy> {
  if (data.byteLength === 0) throw new PdfOpenError('empty', 'file is empty');
  const task = getDocument({
    // pdfjs transfers (detaches) the buffer it is given; keep the caller's copy intact.
    data: new Uint8Array(data),
    standardFontDataUrl: path.join(pdfjsDir, 'standard_fonts') + path.sep,
    cMapUrl: path.join(pdfjsDir, 'cmaps') + path.sep,
    cMapPacked: true,
    wasmUrl: path.join(pdfjsDir, 'wasm') + path.sep,
    verbosity: 0,
    isEvalSupported: false,
    maxImageSize: PDF_LIMITS.maxImagePixels,
    stopAtErrors: false,
  });
  try {
    return await task.promise;
  } catch (err) {
    const name = (err as { name?: string }).name ?? '';
    const message = (err as Error).message ?? String(err);
    if (name === 'PasswordException') throw new PdfOpenError('encrypted', 'PDF is password-protected');
    throw new PdfOpenError('corrupt', `not a readable PDF (${message})`);
  }
}
