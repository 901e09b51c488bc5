// Prints the reconstructed lines of one page: a maintainer's tool for checking extraction on a new manual.
import fs from 'node:fs/promises';
import { layoutDocument } from '../pipeline/layout/document.js';
import { openPdf } from '../pipeline/pdf/open.js';

const [file, pageArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node dist/scripts/dump-layout.js FILE.pdf [PAGE]');
  process.exit(2);
}
const doc = await openPdf(new Uint8Array(await fs.readFile(file)));
const layout = await layoutDocument(doc);
for (const page of layout.pages) {
  if (pageArg && page.page !== Number(pageArg)) continue;
  console.log(`=== page ${page.page} ${page.width}x${page.height}${page.rotated ? ' rotated' : ''}`);
  for (const m of page.margins) console.log(`  [margin] ${m.text}`);
  for (const l of page.lines) {
    console.log(
      `${String(Math.round(l.y)).padStart(4)} ${String(l.size).padStart(4)} ${l.segments.map((s) => `[${Math.round(s.x0)}]${s.text}`).join(' | ')}`,
    );
  }
  for (const s of page.sideText) console.log(`  [side] ${s.text}`);
}
await doc.destroy();
