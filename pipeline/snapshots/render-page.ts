import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';

export interface RenderedPage {
  webp: Buffer;
  width: number;
  height: number;
}

/** The canvas pair pdfjs's NodeCanvasFactory hands out (backed by @napi-rs/canvas). */
interface CanvasAndContext {
  canvas: { width: number; height: number };
  context: CanvasRenderingContext2D;
}

interface CanvasFactory {
  create(width: number, height: number): CanvasAndContext;
  destroy(canvasAndContext: CanvasAndContext): void;
}

/**
 * Renders one page at the scale that makes it exactly `width` pixels wide, on white, and encodes
 * the raw RGBA pixels to WebP (no intermediate PNG: encoding PNG costs more than rendering).
 */
export async function renderPageToWebp(
  doc: PDFDocumentProxy,
  pageNumber: number,
  width: number,
  quality: number,
  effort: number,
): Promise<RenderedPage> {
  const page = await doc.getPage(pageNumber);
  const factory = doc.canvasFactory as unknown as CanvasFactory;
  let target: CanvasAndContext | undefined;
  try {
    const unscaled = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: width / unscaled.width });
    const height = Math.max(1, Math.round(viewport.height));
    target = factory.create(width, height);
    const { canvas, context } = target;
    // Transparent areas would encode as black in some viewers; manuals are printed on white.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvasContext: context, canvas: canvas as HTMLCanvasElement, viewport }).promise;
    const pixels = context.getImageData(0, 0, width, height).data;
    const raw = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
    const webp = await sharp(raw, { raw: { width, height, channels: 4 } })
      .removeAlpha()
      .webp({ quality, effort })
      .toBuffer();
    return { webp, width, height };
  } finally {
    if (target) factory.destroy(target);
    page.cleanup();
  }
}
