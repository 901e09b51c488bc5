// Search and ingest at scale: builds a bundle of N pages from a corpus folder, then measures opening it and
// searching it in a fresh process.
// Usage: npm run bench:scale -- --pages N [--corpus DIR] [--work DIR] [--keep] [--write] [--json]
// --keep leaves the N-page bundles in the work folder and searches an existing one again instead of
// rebuilding it (its build figures are then not measured), so search-only reruns take minutes, not hours.
//
// The corpus is ingested once for real (PDF extraction, --no-snapshots): that gives the extraction rate and
// peak memory. The N-page bundle is then written through the same BundleBuilder from copies of those
// documents (new ids, hashes and model names per copy; every chunk analysed and indexed again), as re-ingest
// copies unchanged manuals: PDF parsing is not repeated, so the build rate at N is the writer's and the
// index's, not the extractor's. Each phase runs in its own process, so peak RSS is that phase's alone.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { BundleBuilder } from '../pipeline/bundle/writer.js';
import { EXTRACTOR_VERSION } from '../pipeline/extract-document.js';
import { ingest } from '../pipeline/ingest/run.js';
import { BundleReader } from '../src/bundle/reader.js';
import { BrandAliases } from '../src/catalog/brands.js';
import { SearchQuery } from '../src/contract/search.js';
import type { Sidecar } from '../src/contract/sidecar.js';
import { searchChunks } from '../src/engine/search.js';
import { projectPath } from '../src/project-path.js';
import { applyRuntimeSettings } from '../src/serve/runtime-settings.js';
import { machineLine, replaceBenchBlock } from './machine.js';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', multiple: true },
    corpus: { type: 'string', default: projectPath('..', 'shared', 'corpus') },
    work: { type: 'string', default: path.join(os.tmpdir(), 'heatsource-bench-scale') },
    phase: { type: 'string' },
    bundle: { type: 'string' },
    keep: { type: 'boolean', default: false },
    write: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    // The serve phase without the V8 settings `serve` applies at start (heap growth, compiler threads):
    // the figures of a plain Node process, for comparison in the same run.
    'v8-defaults': { type: 'boolean', default: false },
  },
});

/**
 * A fixed query set: four languages and more, typos, codes, with and without filters. Written from general
 * heat-pump vocabulary, not from the answer keys.
 */
const QUERIES: { q: string; brand?: string; language?: string }[] = [
  { q: 'compressor overheating protection' },
  { q: 'low water pressure alarm' },
  { q: 'how to reset the controller' },
  { q: 'defrost cycle does not start' },
  { q: 'refrigerant leak detection' },
  { q: 'modbus address configuration' },
  { q: 'outdoor unit fan motor fault' },
  { q: 'E9 error' },
  { q: 'P 12' },
  { q: 'compresor sobrecalentamiento' },
  { q: 'presion de agua baja' },
  { q: 'sensor de temperatura exterior' },
  { q: 'Wasserdruck zu niedrig' },
  { q: 'Verdichter startet nicht' },
  { q: 'Abtauung Störung' },
  { q: 'pression d eau insuffisante' },
  { q: 'sonde de température extérieure' },
  { q: 'warmtepomp ontdooien' },
  { q: 'waterdruk te laag' },
  { q: 'thermistro resistance' },
  { q: 'compresser overheatng' },
  { q: 'temperatur fühler defekt' },
  { q: 'circulation pump not running', language: 'en' },
  { q: 'flow switch error', language: 'en' },
  { q: 'Fehlercode Anzeige', language: 'de' },
  { q: 'installation clearance outdoor unit' },
  { q: 'wiring diagram terminal block' },
  { q: 'antifreeze protection winter' },
  { q: 'high pressure switch tripped' },
  { q: 'electronic expansion valve' },
];

const here = fileURLToPath(import.meta.url);

function peakRssMb(): number {
  // maxRSS is in kilobytes: the highest resident set this process reached.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Resident memory split as the kernel reports it: anonymous (heap, native) and file-backed. */
function rssParts(): { anonMb: number; fileMb: number } {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { anonMb: Math.round(kb('RssAnon') / 1024), fileMb: Math.round(kb('RssFile') / 1024) };
}

/**
 * CPU time of the calling thread in milliseconds (Linux: /proc/thread-self/schedstat, in nanoseconds), or
 * null elsewhere. process.cpuUsage() counts every thread of the process, V8's background compiler and
 * garbage-collector threads included; this is the search's own thread.
 */
function threadCpuMs(): number | null {
  try {
    return Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
}

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 2 ** 20);
}

function child(args: string[]): Record<string, number | number[] | undefined> {
  const out = execFileSync(process.execPath, ['--expose-gc', here, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 16 * 2 ** 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, number | number[] | undefined>;
}

/** Phase base: the corpus ingested for real, once per work folder. */
async function phaseBase(bundle: string): Promise<void> {
  const t0 = performance.now();
  const report = await ingest({ paths: [values.corpus], bundle, jobs: 1, snapshots: false, strict: false });
  const seconds = (performance.now() - t0) / 1000;
  const pages = report.totals.pages;
  console.log(JSON.stringify({ pages, seconds, pagesPerSecond: pages / seconds, peakRssMb: peakRssMb() }));
}

/** Phase build: N pages written through the BundleBuilder from copies of the base bundle's documents. */
function phaseBuild(base: string, target: string, pages: number): void {
  const db = new Database(base, { readonly: true });
  const documents = db
    .prepare('SELECT id, file_name, sha256, sidecar_json, page_count FROM documents ORDER BY id')
    .all() as { id: string; file_name: string; sha256: string; sidecar_json: string; page_count: number }[];
  db.close();
  const t0 = performance.now();
  const builder = new BundleBuilder(target, BrandAliases.load(), base);
  const samples: number[] = [];
  let written = 0;
  let copies = 0;
  try {
    for (let copy = 0; written < pages; copy++) {
      for (const d of documents) {
        if (written >= pages) break;
        const sidecar = JSON.parse(d.sidecar_json) as Sidecar;
        // Each copy covers models of its own, as the manuals of a large catalogue do.
        const models = sidecar.models.map((m) => ({
          ...m,
          name: copy === 0 ? m.name : `${m.name}-S${copy}`,
          aliases: copy === 0 ? m.aliases : [],
        }));
        const id = copy === 0 ? d.id : `${d.id}-s${copy}`;
        builder.reuseDocument(
          {
            id,
            fileName: d.file_name,
            sha256: crypto.createHash('sha256').update(`${d.sha256}:${copy}`).digest('hex'),
            sidecar: { ...sidecar, models },
            sidecarSource: 'file',
            extractorVersion: EXTRACTOR_VERSION,
          },
          d.id,
          'none',
          [],
        );
        written += d.page_count;
        copies++;
        if (copies % 50 === 0) samples.push(rssMb());
      }
    }
    builder.finish('bench-scale');
  } catch (err) {
    builder.abort();
    throw err;
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(
    JSON.stringify({
      pages: written,
      documents: copies,
      seconds,
      pagesPerSecond: written / seconds,
      peakRssMb: peakRssMb(),
      rssSamplesMb: samples,
      bundleMb: Math.round(fs.statSync(target).size / 2 ** 20),
    }),
  );
}

/** Rounds of the query set searched again after the first, for the warm figures. */
const WARM_ROUNDS = 2;

/**
 * Phase serve: apply the V8 settings `serve` applies at start (unless --v8-defaults), open the bundle as
 * serve does, search once, then the query set; times and memory.
 */
function phaseServe(bundle: string): void {
  if (!values['v8-defaults']) applyRuntimeSettings();
  const t0 = performance.now();
  const reader = new BundleReader(bundle);
  const readyMs = performance.now() - t0;
  const brand = reader.brands()[0];
  const t1 = performance.now();
  const firstOwn = threadCpuMs();
  searchChunks(reader, SearchQuery.parse({ q: 'heat pump error code table' }));
  const firstOwnAfter = threadCpuMs();
  const firstSearchMs = performance.now() - t1;
  const times: number[] = [];
  const cpu: number[] = [];
  const threadCpu: number[] = [];
  /** The search thread's CPU of the questions asked without a brand (the first half), the goal's figure. */
  const threadCpuNoBrand: number[] = [];
  /** The question each of `times` asked, so that the run names the one that set its p99. */
  const asked: string[] = [];
  let results = 0;
  // Each query once without and once with a brand filter: every one is a cache miss.
  for (const variant of [{}, brand ? { brand } : {}]) {
    for (const q of QUERIES) {
      const t = performance.now();
      const c = process.cpuUsage();
      const own = threadCpuMs();
      const r = searchChunks(reader, SearchQuery.parse({ ...q, ...variant, limit: 10 }));
      const ownAfter = threadCpuMs();
      const used = process.cpuUsage(c);
      times.push(performance.now() - t);
      asked.push(
        `${q.q}${q.language ? ` (language ${q.language})` : ''}${'brand' in variant ? ` (brand ${brand})` : ''}`,
      );
      if (own !== null && ownAfter !== null) {
        threadCpu.push(ownAfter - own);
        if (!('brand' in variant)) threadCpuNoBrand.push(ownAfter - own);
      }
      // CPU time of this process: what the search costs when it does not wait for a shared core.
      cpu.push((used.user + used.system) / 1000);
      results += r.results.length;
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  const steadyRssMb = rssMb();
  const steadyParts = rssParts();
  // The same questions twice more, each round on a reader of its own so that none is answered from the
  // result cache (its catalogue view built first, untimed): a server's latency once its code is compiled and the bundle's pages are in the page
  // cache, beside the figures above, which are a fresh process's first searches.
  const warm: number[] = [];
  const warmThread: number[] = [];
  for (let round = 0; round < WARM_ROUNDS; round++) {
    const fresh = new BundleReader(bundle);
    // Untimed: a reader builds its catalogue view on its first search (timed above as the first search).
    searchChunks(fresh, SearchQuery.parse({ q: 'heat pump error code table' }));
    for (const variant of [{}, brand ? { brand } : {}]) {
      for (const q of QUERIES) {
        const t = performance.now();
        const own = threadCpuMs();
        searchChunks(fresh, SearchQuery.parse({ ...q, ...variant, limit: 10 }));
        const ownAfter = threadCpuMs();
        warm.push(performance.now() - t);
        if (own !== null && ownAfter !== null) warmThread.push(ownAfter - own);
      }
    }
    fresh.close();
  }
  (globalThis as { gc?: () => void }).gc?.();
  const at = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  };
  console.log(
    JSON.stringify({
      readyMs,
      firstSearchMs,
      // The first search's own thread CPU: what it costs when it does not wait for a shared core.
      ...(firstOwn !== null && firstOwnAfter !== null
        ? { firstSearchThreadCpuMs: firstOwnAfter - firstOwn }
        : {}),
      searches: times.length,
      results,
      p50Ms: at(times, 0.5),
      p99Ms: at(times, 0.99),
      slowest: slowest(times, asked, 3),
      cpuP50Ms: at(cpu, 0.5),
      cpuP99Ms: at(cpu, 0.99),
      ...(threadCpu.length
        ? {
            threadCpuP50Ms: at(threadCpu, 0.5),
            threadCpuP99Ms: at(threadCpu, 0.99),
            noBrandThreadCpuP50Ms: at(threadCpuNoBrand, 0.5),
            noBrandThreadCpuP99Ms: at(threadCpuNoBrand, 0.99),
          }
        : {}),
      warmSearches: warm.length,
      warmP50Ms: at(warm, 0.5),
      warmP99Ms: at(warm, 0.99),
      ...(warmThread.length ? { warmThreadCpuP99Ms: at(warmThread, 0.99) } : {}),
      steadyRssMb,
      ...steadyParts,
      rssAfterWarmMb: rssMb(),
      peakRssMb: peakRssMb(),
    }),
  );
  reader.close();
}

/** The `n` slowest questions of a run, with their wall time, slowest first. */
function slowest(times: readonly number[], asked: readonly string[], n: number): string[] {
  return times
    .map((ms, i) => ({ ms, q: asked[i]! }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, n)
    .map(({ ms, q }) => `${q}: ${ms.toFixed(1)} ms`);
}

/** Whether a kept bundle is of the format this reader reads (a bundle of an older format is rebuilt). */
function opensAsBundle(file: string): boolean {
  try {
    new BundleReader(file).close();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  if (values.phase === 'base') return phaseBase(values.bundle!);
  if (values.phase === 'build')
    return phaseBuild(values.bundle!, `${values.bundle!}.${values.pages![0]}`, Number(values.pages![0]));
  if (values.phase === 'serve') return phaseServe(values.bundle!);

  if (!fs.existsSync(values.corpus)) {
    console.error(`corpus ${values.corpus} is absent: nothing to measure (pass --corpus DIR)`);
    process.exit(0);
  }
  const sizes = (values.pages ?? ['1000']).flatMap((p) => p.split(',')).map(Number);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    console.error('--pages takes positive whole numbers (several allowed: --pages 1000,10000)');
    process.exit(2);
  }
  fs.mkdirSync(values.work, { recursive: true });
  const base = path.join(values.work, 'base.bundle');
  const extraction = fs.existsSync(base) ? null : child(['--phase', 'base', '--bundle', base]);
  if (extraction) console.error(`base ingest: ${JSON.stringify(extraction)}`);
  type Figures = Record<string, number | number[] | undefined>;
  const rows: { n: number; build: Figures; serve: Figures }[] = [];
  for (const n of sizes) {
    const target = `${base}.${n}`;
    const reuse = values.keep && fs.existsSync(target) && opensAsBundle(target);
    const build: Figures = reuse
      ? { bundleMb: Math.round(fs.statSync(target).size / 2 ** 20), rssSamplesMb: [] }
      : child(['--phase', 'build', '--bundle', base, '--pages', String(n)]);
    console.error(`build ${n}: ${reuse ? 'reused' : JSON.stringify(build)}`);
    const serve = child([
      '--phase',
      'serve',
      '--bundle',
      target,
      ...(values['v8-defaults'] ? ['--v8-defaults'] : []),
    ]);
    console.error(`serve ${n}: ${JSON.stringify(serve)}`);
    if (!values.keep) fs.rmSync(target, { force: true });
    rows.push({ n, build, serve });
  }
  if (values.json) {
    console.log(JSON.stringify({ machine: machineLine(), extraction, rows }, null, 2));
    return;
  }
  const fmt = (v: unknown, digits = 0) => (typeof v === 'number' ? v.toFixed(digits) : '-');
  const lines = [
    `Machine: ${machineLine()}; load from other work on the same machine during the run: load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end.`,
    `Command: \`npm run bench:scale -- --pages ${sizes.join(',')}\``,
    '',
    '| pages | build pages/s | build peak RSS | build RSS samples | bundle | ready | first search | search p50 / p99 (wall) | search p50 / p99 (process CPU) | search p50 / p99 (thread CPU) | no brand p50 / p99 (thread CPU) | warm p50 / p99 (wall) | RSS after searches |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(({ n, build: b, serve: s }) => {
      const samples = (b.rssSamplesMb as number[]).join(', ');
      return `| ${b.pages ?? n} | ${fmt(b.pagesPerSecond)} | ${fmt(b.peakRssMb)} MB | ${samples || '-'} MB | ${b.bundleMb} MB | ${fmt(s.readyMs, 1)} ms | ${fmt(s.firstSearchMs, 1)} ms (thread CPU ${fmt(s.firstSearchThreadCpuMs, 1)} ms) | ${fmt(s.p50Ms, 1)} / ${fmt(s.p99Ms, 1)} ms | ${fmt(s.cpuP50Ms, 1)} / ${fmt(s.cpuP99Ms, 1)} ms | ${fmt(s.threadCpuP50Ms, 1)} / ${fmt(s.threadCpuP99Ms, 1)} ms | ${fmt(s.noBrandThreadCpuP50Ms, 1)} / ${fmt(s.noBrandThreadCpuP99Ms, 1)} ms | ${fmt(s.warmP50Ms, 1)} / ${fmt(s.warmP99Ms, 1)} ms | ${s.steadyRssMb} MB |`;
    }),
  ];
  if (extraction) {
    lines.push(
      '',
      `Real extraction of the corpus (${extraction.pages} pages, --no-snapshots): ${fmt(extraction.pagesPerSecond, 1)} pages/s, peak RSS ${extraction.peakRssMb} MB.`,
    );
  }
  const block = lines.join('\n');
  console.log(block);
  if (values.write) {
    const file = projectPath('BENCHMARKS.md');
    fs.writeFileSync(file, replaceBenchBlock(fs.readFileSync(file, 'utf8'), 'scale', block));
  }
}

await main();
