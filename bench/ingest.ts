// Ingest throughput against raw pdfjs text extraction on the same files in the same run, and bundle size.
// Usage: npm run bench -- [--corpus DIR] [--runs N] [--write] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ingest } from '../pipeline/ingest/run.js';
import { openPdf } from '../pipeline/pdf/open.js';
import { projectPath } from '../src/project-path.js';
import { machineLine, median, replaceBenchBlock } from './machine.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', default: projectPath('..', 'shared', 'corpus') },
    runs: { type: 'string', default: '3' },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const corpus = path.resolve(values.corpus);
if (!fs.existsSync(corpus)) {
  console.error(`corpus ${corpus} is absent: nothing to measure (pass --corpus DIR)`);
  process.exit(0);
}
const runs = Math.max(1, Number(values.runs));
const files = fs
  .readdirSync(corpus)
  .filter((f) => f.toLowerCase().endsWith('.pdf'))
  .sort()
  .map((f) => path.join(corpus, f));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-'));

/** The baseline: pdfjs getTextContent on every page, nothing else. */
async function rawPdfjs(): Promise<{ ms: number; pages: number }> {
  const t0 = performance.now();
  let pages = 0;
  for (const file of files) {
    const doc = await openPdf(new Uint8Array(fs.readFileSync(file)));
    for (let p = 1; p <= doc.numPages; p++) {
      const page = await doc.getPage(p);
      await page.getTextContent();
      page.cleanup();
      pages++;
    }
    await doc.destroy();
  }
  return { ms: performance.now() - t0, pages };
}

async function pipeline(
  snapshots: boolean,
  jobs: number,
): Promise<{ ms: number; pages: number; bytes: number }> {
  const bundle = path.join(tmp, `b-${snapshots}-${jobs}-${Date.now()}.bundle`);
  const t0 = performance.now();
  const report = await ingest({ paths: files, bundle, jobs, snapshots, strict: false });
  const ms = performance.now() - t0;
  const bytes = fs.statSync(bundle).size;
  fs.rmSync(bundle, { force: true });
  return { ms, pages: report.totals.pages, bytes };
}

const raw: number[] = [];
const text: number[] = [];
let pages = 0;
let textBytes = 0;
// Alternate the two so that warm-up and machine noise fall on both alike.
for (let i = 0; i < runs; i++) {
  const r = await rawPdfjs();
  raw.push(r.ms);
  pages = r.pages;
  const t = await pipeline(false, 1);
  text.push(t.ms);
  textBytes = t.bytes;
}
const cores = os.availableParallelism();
const snap1 = await pipeline(true, 1);
const snapN = await pipeline(true, cores);
fs.rmSync(tmp, { recursive: true, force: true });

const rawPps = pages / (median(raw) / 1000);
const textPps = pages / (median(text) / 1000);
// Whole-ingest figures with snapshots: rendering overlaps text extraction, so these are not the
// rendering cost alone (bench/snapshots.ts measures that, pool against pool).
const snapPps1 = pages / (snap1.ms / 1000);
const snapPpsN = pages / (snapN.ms / 1000);
const result = {
  machine: machineLine(),
  files: files.length,
  pages,
  runs,
  raw_pdfjs_pages_per_s: round(rawPps),
  ingest_text_pages_per_s: round(textPps),
  ingest_vs_raw_ratio: round(textPps / rawPps, 2),
  ingest_with_snapshots_1_worker_pages_per_s: round(snapPps1),
  ingest_with_snapshots_all_cores_pages_per_s: round(snapPpsN),
  ingest_with_snapshots_speedup: round(snapPpsN / snapPps1, 2),
  cores,
  bundle_bytes_per_page_text_only: Math.round(textBytes / pages),
  bundle_bytes_per_page_with_snapshots: Math.round(snapN.bytes / pages),
};

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${result.machine}.`,
  `Command: \`npm run bench -- --corpus ${path.relative(projectPath(), corpus) || '.'} --runs ${runs}\` (${files.length} PDFs, ${pages} pages; medians of ${runs} alternating runs).`,
  '',
  '| measure | value |',
  '|---|---|',
  `| raw pdfjs getTextContent (baseline) | ${result.raw_pdfjs_pages_per_s} pages/s |`,
  `| ingest without snapshots (text, layout, chunks, codes, index, bundle) | ${result.ingest_text_pages_per_s} pages/s |`,
  `| ingest / raw pdfjs | **${result.ingest_vs_raw_ratio}** (goal >= 0.70) |`,
  `| whole ingest with snapshots, 1 render worker | ${result.ingest_with_snapshots_1_worker_pages_per_s} pages/s |`,
  `| whole ingest with snapshots, ${cores} render workers | ${result.ingest_with_snapshots_all_cores_pages_per_s} pages/s (${result.ingest_with_snapshots_speedup}x; text extraction shares the cores) |`,
  `| bundle size, text only | ${result.bundle_bytes_per_page_text_only} bytes/page |`,
  `| bundle size, with snapshots | ${result.bundle_bytes_per_page_with_snapshots} bytes/page |`,
].join('\n');

if (values.json) console.log(JSON.stringify(result, null, 2));
else console.log(table);
if (values.write) {
  const file = projectPath('BENCHMARKS.md');
  const md = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  fs.writeFileSync(file, replaceBenchBlock(md, 'ingest', table));
}

function round(v: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}
