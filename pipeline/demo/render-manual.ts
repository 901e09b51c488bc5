/** Renders one demo manual source to PDF bytes, identical for identical sources. */
import { type Box, blockBoxes } from './boxes.js';
import { layoutBody, type Region } from './layout.js';
import { openManualPdf } from './manual-pdf.js';
import type { Block, ManualSource } from './manual-source.js';
import { drawManualPages } from './page-furniture.js';
import { COLUMN_WIDTH, CONTENT_WIDTH } from './page-geometry.js';
import type { Painter } from './painter.js';

/** The edition ("2024-03") as a fixed timestamp: a wall-clock date would change the bytes and the /ID. */
function editionDate(edition: string): Date {
  const match = /^(\d{4})-(\d{2})/.exec(edition);
  return new Date(Date.UTC(Number(match?.[1] ?? 2024), Number(match?.[2] ?? 1) - 1, 1));
}

function regionsOf(body: Block[], painter: Painter, source: ManualSource): Region[] {
  const regions: Region[] = [];
  const context = (width: number) => ({
    painter,
    width,
    accent: source.layout.accent,
    continued: source.layout.continued,
  });
  let full: Box[] = [];
  const flush = () => {
    if (full.length > 0) regions.push({ kind: 'full', boxes: full });
    full = [];
  };
  for (const block of body) {
    if ('columns' in block) {
      flush();
      let boxes: Box[] = [];
      for (const leaf of block.columns) {
        if ('page_break' in leaf) {
          regions.push({ kind: 'columns', boxes });
          regions.push({ kind: 'page_break' });
          boxes = [];
        } else {
          const leafBoxes = blockBoxes(leaf, context(COLUMN_WIDTH));
          // A column is too short to repeat a table header: keep small tables in one piece instead.
          if ('table' in leaf) {
            for (const box of leafBoxes.slice(0, -1)) box.keepWithNext = true;
          }
          boxes.push(...leafBoxes);
        }
      }
      if (boxes.length > 0) regions.push({ kind: 'columns', boxes });
    } else if ('page_break' in block) {
      flush();
      regions.push({ kind: 'page_break' });
    } else full.push(...blockBoxes(block, context(CONTENT_WIDTH)));
  }
  flush();
  return regions;
}

export async function renderManual(source: ManualSource): Promise<Buffer> {
  const { sidecar, layout, cover } = source;
  const date = editionDate(sidecar.edition);
  const pdf = openManualPdf({
    Title: sidecar.title,
    Author: cover.company,
    Subject: `${sidecar.brand} ${sidecar.models.map((m) => m.name).join(', ')}`,
    Keywords: 'demonstration, fictional',
    Creator: 'heatsource demo corpus',
    Producer: 'PDFKit',
    CreationDate: date,
    ModDate: date,
  });
  const painter = pdf.painter;
  const hasContents = layout.contents_title !== undefined;
  const firstBodyPage = hasContents ? 3 : 2;
  const body = layoutBody(regionsOf(source.body, painter, source), firstBodyPage);
  drawManualPages(painter, pdf.addPage, {
    cover,
    layout,
    brand: sidecar.brand,
    body,
    firstBodyPage,
  });
  return pdf.finish();
}
