/**
 * Page snapshot throughput: ms per page with one worker and with every core, and the speed-up.
 *
 *   npm run build && node dist/bench/snapshots.js [--pages N] [--repeat R] [files...]
 *
 * Default input: every PDF in ../shared/corpus (relative to the repository). `--pages N` renders only
 * the first N pages of each document. Each document is rendered on its own (render() awaited), once
 * by a one-worker pool and once by an all-cores pool, alternating which goes first so that drifting
 * machine load hits both alike; with `--repeat R` the fastest of R rounds counts. The headline figure
 * is the median over documents of wall ms / page. Shared virtual machines do not always deliver the
 * cores they report, so the output also gives the CPU time actually consumed per wall second and a
 * calibration: how much faster all cores run a pure-JS loop than one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SnapshotPool } from '../pipeline/snapshots/index.js';

interface Sample {
  ms: number;
  cpuMs: number;
  /** CPU time used meanwhile by other processes (from /proc/stat; 0 where unavailable). */
  otherCpuMs: number;
}

interface DocRow {
  file: string;
  pages: number;
  failures: number;
  single: Sample;
  multi: Sample;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function parseArgs(argv: string[]): { files: string[]; pageLimit?: number; repeat: number } {
  const files: string[] = [];
  let pageLimit: number | undefined;
  let repeat = 1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--pages') pageLimit = Number(argv[++i]);
    else if (arg === '--repeat') repeat = Number(argv[++i]);
    else files.push(arg);
  }
  if (pageLimit !== undefined && !(Number.isInteger(pageLimit) && pageLimit > 0)) {
    throw new Error('--pages needs a positive integer');
  }
  if (!(Number.isInteger(repeat) && repeat > 0)) throw new Error('--repeat needs a positive integer');
  return { files, pageLimit, repeat };
}

function defaultFiles(): string[] | undefined {
  const corpus = path.resolve(repoRoot, '../shared/corpus');
  if (!statSync(corpus, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  return readdirSync(corpus)
    .filter((name) => name.toLowerCase().endsWith('.pdf'))
    .sort()
    .map((name) => path.join(corpus, name));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function pagesFor(limit: number | undefined): number[] | 'all' {
  return limit === undefined ? 'all' : Array.from({ length: limit }, (_, i) => i + 1);
}

/** Busy CPU milliseconds of the whole machine so far, or undefined off Linux. */
function machineBusyMs(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'latin1')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    // user nice system idle iowait irq softirq steal: everything but idle and iowait is busy.
    const busy = fields.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
    return (busy * 1000) / 100; // /proc/stat counts in USER_HZ ticks, 100 per second on Linux
  } catch {
    return undefined;
  }
}

/** Wall time and CPU time (all threads of this process, and of everyone else) of one render. */
async function timeRender(pool: SnapshotPool, data: Uint8Array, pages: number[] | 'all') {
  const busy0 = machineBusyMs();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const result = await pool.render(data, pages);
  const ms = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const busy1 = machineBusyMs();
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const otherCpuMs = busy0 !== undefined && busy1 !== undefined ? Math.max(0, busy1 - busy0 - cpuMs) : 0;
  return { result, sample: { ms, cpuMs, otherCpuMs } };
}

/** Ratio of throughput of `threads` busy-looping threads to one: what the machine really parallelises. */
async function calibrate(threads: number): Promise<number> {
  const spin = `
    const { parentPort } = require('node:worker_threads');
    const t = performance.now(); let x = 0;
    for (let i = 0; i < 3e8; i++) x = (x + i * 7) % 1000003;
    parentPort.postMessage(performance.now() - t + x * 0);`;
  const run = (n: number) =>
    Promise.all(
      Array.from(
        { length: n },
        () =>
          new Promise<number>((resolve, reject) => {
            const worker = new Worker(spin, { eval: true });
            worker.once('message', resolve);
            worker.once('error', reject);
          }),
      ),
    );
  const one = (await run(1))[0]!;
  const many = await run(threads);
  return (threads * one) / Math.max(...many);
}

function better(a: Sample | undefined, b: Sample): Sample {
  return a && a.ms <= b.ms ? a : b;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const files = args.files.length > 0 ? args.files : defaultFiles();
  if (!files || files.length === 0) {
    console.log('snapshots bench skipped: no PDFs given and ../shared/corpus not found');
    return;
  }
  const docs = files.map((file) => ({ file, data: new Uint8Array(readFileSync(file)) }));
  const cores = availableParallelism();
  const pages = pagesFor(args.pageLimit);

  const capacityBefore = await calibrate(cores);
  const single = new SnapshotPool(1);
  const multi = new SnapshotPool(cores);
  const rows: DocRow[] = [];
  try {
    // Start the workers and let their JIT warm up (about 8 pages each) outside the timed runs.
    for (const pool of [single, multi]) {
      await pool.render(
        docs[0]!.data,
        Array.from({ length: pool.jobs * 8 }, (_, i) => i + 1),
      );
    }

    for (let round = 0; round < args.repeat; round++) {
      for (const [i, { file, data }] of docs.entries()) {
        const order: SnapshotPool[] = (i + round) % 2 === 0 ? [single, multi] : [multi, single];
        const samples = new Map<SnapshotPool, Sample>();
        let pageCount = 0;
        let failures = 0;
        for (const pool of order) {
          const { result, sample } = await timeRender(pool, data, pages);
          samples.set(pool, sample);
          // Pages past the end of a short document are failures of the request, not of rendering.
          const real = result.failures.filter((f) => !f.reason.startsWith('no page '));
          pageCount = result.snapshots.length + real.length;
          failures = real.length;
        }
        const previous = rows[i];
        rows[i] = {
          file: path.basename(file),
          pages: pageCount,
          failures,
          single: better(previous?.single, samples.get(single)!),
          multi: better(previous?.multi, samples.get(multi)!),
        };
      }
    }
  } finally {
    await Promise.all([single.close(), multi.close()]);
  }
  const capacityAfter = await calibrate(cores);

  const totalPages = rows.reduce((sum, r) => sum + r.pages, 0);
  const sum = (pick: (r: DocRow) => number) => rows.reduce((acc, r) => acc + pick(r), 0);
  const median1 = median(rows.map((r) => r.single.ms / r.pages));
  const medianN = median(rows.map((r) => r.multi.ms / r.pages));
  const result = {
    bench: 'snapshots',
    node: process.version,
    cores,
    documents: rows.length,
    pagesPerDocument: args.pageLimit ?? 'all',
    repeat: args.repeat,
    pages: totalPages,
    failures: sum((r) => r.failures),
    medianMsPerPage: { workers1: round(median1), workersAll: round(medianN) },
    speedup: round(median1 / medianN, 2),
    overallMsPerPage: {
      workers1: round(sum((r) => r.single.ms) / totalPages),
      workersAll: round(sum((r) => r.multi.ms) / totalPages),
    },
    overallSpeedup: round(sum((r) => r.single.ms) / sum((r) => r.multi.ms), 2),
    // CPU time of this process per page: equal figures mean parallelism added no work.
    cpuMsPerPage: {
      workers1: round(sum((r) => r.single.cpuMs) / totalPages),
      workersAll: round(sum((r) => r.multi.cpuMs) / totalPages),
    },
    // CPU seconds consumed per wall second: near `cores` means every worker was busy.
    cpuPerWall: {
      workers1: round(sum((r) => r.single.cpuMs) / sum((r) => r.single.ms), 2),
      workersAll: round(sum((r) => r.multi.cpuMs) / sum((r) => r.multi.ms), 2),
    },
    // Cores kept busy by other processes during the timed runs: a shared machine's noise floor.
    otherProcessesCores: {
      workers1: round(sum((r) => r.single.otherCpuMs) / sum((r) => r.single.ms), 2),
      workersAll: round(sum((r) => r.multi.otherCpuMs) / sum((r) => r.multi.ms), 2),
    },
    machineParallelCapacity: { before: round(capacityBefore, 2), after: round(capacityAfter, 2) },
    perDocument: rows.map((r) => ({
      file: r.file,
      pages: r.pages,
      msPerPage1: round(r.single.ms / r.pages),
      msPerPageAll: round(r.multi.ms / r.pages),
    })),
  };
  console.log(JSON.stringify(result, null, 2));

  const lines = [
    `| document | pages | ms/page, 1 worker | ms/page, ${cores} workers | speed-up |`,
    '|---|---:|---:|---:|---:|',
    ...result.perDocument.map(
      (d) =>
        `| ${d.file} | ${d.pages} | ${d.msPerPage1} | ${d.msPerPageAll} | ${round(d.msPerPage1 / d.msPerPageAll, 2)} |`,
    ),
    `| **median** (${result.documents} docs) | ${totalPages} | ${result.medianMsPerPage.workers1} | ` +
      `${result.medianMsPerPage.workersAll} | **${result.speedup}** |`,
  ];
  console.log(`\n${lines.join('\n')}`);
}

await main();
