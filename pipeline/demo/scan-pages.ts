/**
 * Rasterises a generated manual's pages into greyscale JPEG images, as a scanner stores a page: the
 * `ocr_invisible` text-layer variant of the layout zoo shows these images and writes the text invisibly
 * over them.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { openPdf } from '../pdf/open.js';

interface CanvasAndContext {
  canvas: { width: number; height: number };
  context: CanvasRenderingContext2D;
}

/** 90 dpi: legible in a page snapshot, cheap to render for a whole zoo. */
const SCALE = 1.25;

export async function scanPages(pdf: Uint8Array): Promise<Buffer[]> {
  const doc: PDFDocumentProxy = await openPdf(pdf);
  const factory = doc.canvasFactory as unknown as {
    create(w: number, h: number): CanvasAndContext;
    destroy(c: CanvasAndContext): void;
  };
  const images: Buffer[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: SCALE });
      const width = Math.round(viewport.width);
      const height = Math.round(viewport.height);
      const target = factory.create(width, height);
      try {
        target.context.fillStyle = '#ffffff';
        target.context.fillRect(0, 0, width, height);
        await page.render({
          canvasContext: target.context,
          canvas: target.canvas as HTMLCanvasElement,
          viewport,
        }).promise;
        const pixels = target.context.getImageData(0, 0, width, height).data;
        const raw = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength);
        images.push(
          await sharp(raw, { raw: { width, height, channels: 4 } })
            .greyscale()
            .jpeg({ quality: 70 })
            .toBuffer(),
        );
      } finally {
        factory.destroy(target);
        page.cleanup();
      }
    }
  } finally {
    await doc.destroy();
  }
  return images;
}
