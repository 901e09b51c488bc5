/**
 * Soak: a mixed load against a real `heatsource serve` process for a fixed time, sampling its resident
 * memory (RSS from /proc, of the server and of every process it started, such as the snapshot
 * converter: the peak is taken over their sum; their PSS beside it, which counts shared pages once), V8 heap and external memory (from /metrics) along the way, to show whether
 * memory levels off after warm-up.
 *
 *   npm run build && node dist/bench/soak.js [--minutes 10] [--rate 200] [--concurrency 16]
 *     [--bundle FILE] [--sample 15] [--json] [--env NAME=VALUE ...] [--without-snapshots]
 *
 * The mix, drawn with a fixed seed: diagnostics (a third uncached: codes the manuals lack), searches,
 * procedures, registry pages, snapshots (stored WebP, PNG or narrowed WebP at three common widths, and
 * 5 % at a random width, so that conversions go on all through the run), MCP tool calls, `/v1/me`, and
 * guided sessions started. The load is bounded: at most `rate` requests per second for
 * `minutes` minutes. The server logs at info level to /dev/null.
 *
 * `--without-snapshots` sends the rest of the mix only (snapshot requests become the next request
 * type), to tell the memory of page conversion from everything else's.
 *
 * Growth is reported as the RSS slope over the second half of the run (after warm-up), in MB/min. The
 * CPU time per request of the server and of the converter (user + system, from /proc) and the machine's
 * load average are reported beside it: a setting that saves memory must not cost the server more CPU,
 * and on a shared machine only runs side by side compare.
 */

import fs from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { seededRandom as seeded } from '../pipeline/demo/seeded-random.js';
import { BundleReader } from '../src/bundle/reader.js';
import { projectPath } from '../src/project-path.js';
import { machineLine } from './machine.js';
import { rssMb, startServeProcess } from './serve-process.js';

interface Sample {
  seconds: number;
  /** The server and every process it started (the snapshot converter): what the machine holds for it. */
  rssMb: number;
  /** The server's own process. */
  serverRssMb: number;
  /**
   * Proportional set size of the server and its children: a page shared by the two processes (the node
   * binary's code, mapped by both) counts half in each, so this is what they hold together, where the
   * RSS sum counts those pages twice.
   */
  pssMb: number;
  heapMb: number;
  externalMb: number;
  /** CPU time (user + system) the server's own process has used since it started, ms. */
  serverCpuMs: number;
  /** The same for the processes it started that are alive now (the converter), ms. */
  childCpuMs: number;
  /** The machine's one-minute load average (other work sharing the cores). */
  load1: number;
  /** Page images the server had converted so far (the rest were served from its cache or the bundle). */
  conversions: number;
  requests: number;
  errors5xx: number;
}

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    sample: { type: 'string', default: '15' },
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    json: { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
    'without-snapshots': { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const concurrency = Number(values.concurrency);
const sampleEvery = Number(values.sample) * 1000;

interface Corpus {
  codes: { brand: string; code: string; model: string }[];
  chunks: string[];
  snapshots: { document_id: string; page: number }[];
  words: string[];
}

function readCorpus(bundle: string): Corpus {
  const reader = new BundleReader(bundle);
  const db = reader.db;
  const codes = db
    .prepare(
      `SELECT e.brand, e.code, m.name AS model FROM error_codes e
       JOIN document_models dm ON dm.document_id = e.document_id JOIN models m ON m.id = dm.model_id
       GROUP BY e.id LIMIT 500`,
    )
    .all() as Corpus['codes'];
  const chunks = (db.prepare('SELECT id FROM chunks LIMIT 500').all() as { id: string }[]).map((r) => r.id);
  const snapshots = db.prepare('SELECT document_id, page FROM snapshots').all() as Corpus['snapshots'];
  const text = (db.prepare('SELECT text FROM chunks LIMIT 200').all() as { text: string }[])
    .map((r) => r.text)
    .join(' ');
  const words = [...new Set(text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 4))].slice(0, 400);
  reader.close();
  return { codes, chunks, snapshots, words };
}

interface Call {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}

function mix(corpus: Corpus, random: () => number, snapshots: boolean): () => Call {
  const widths = [320, 640, 1024];
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)]!;
  let n = 0;
  return (): Call => {
    n++;
    const r = random();
    const c = pick(corpus.codes);
    if (r < 0.3) {
      // One in three with a code that is not in the manuals: a lookup the cache has not seen.
      const code = random() < 0.33 ? `${c.code}${Math.floor(random() * 1000)}` : c.code;
      return {
        method: 'POST',
        url: '/v1/diagnostic',
        body: { brand: c.brand, model: c.model, error_code: code },
      };
    }
    if (r < 0.45) {
      const q = `${pick(corpus.words)} ${pick(corpus.words)}`;
      return { method: 'GET', url: `/v1/search?q=${encodeURIComponent(q)}&limit=10` };
    }
    if (r < 0.52) return { method: 'GET', url: `/v1/procedure/${encodeURIComponent(pick(corpus.chunks))}` };
    if (r < 0.55) return { method: 'GET', url: '/v1/registry?limit=20' };
    if (r < 0.7 && snapshots) {
      const s = pick(corpus.snapshots);
      const base = `/v1/pdf-snapshot/${encodeURIComponent(s.document_id)}/${s.page}`;
      const v = random();
      if (v < 0.5) return { method: 'GET', url: base };
      // Mostly the few widths clients ask for (cached after the first), some of any width (converted).
      const width = v < 0.95 ? pick(widths) : 200 + Math.floor(random() * 1200);
      const format = random() < 0.5 ? 'png' : 'webp';
      return { method: 'GET', url: `${base}?width=${width}&format=${format}` };
    }
    if (r < 0.82) {
      return {
        method: 'POST',
        url: '/mcp',
        headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        body: {
          jsonrpc: '2.0',
          id: n,
          method: 'tools/call',
          params: {
            name: 'diagnose',
            arguments: { brand: c.brand, model: c.model, error_code: c.code },
          },
        },
      };
    }
    if (r < 0.9) return { method: 'GET', url: '/v1/me' };
    if (r < 0.95) return { method: 'GET', url: '/v1/registry?limit=5' };
    return {
      method: 'POST',
      url: '/v2/diagnostic-sessions',
      headers: { 'idempotency-key': `soak-${n}` },
      body: { brand: c.brand, model: c.model, equipment: 'air_water', error_code: c.code },
    };
  };
}

function pssMb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
  } catch {
    return 0; // it exited meanwhile, or the kernel has no smaps_rollup
  }
}

/** /proc clock ticks are 1/100 s on Linux. */
const TICK_MS = 10;

/** CPU time (user + system) a process has used, ms; 0 once it has exited. */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the state field.
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The processes descending from `pid` (found by their parent ids in /proc). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** RSS of a process and all its descendants, in MB. */
function treeRssMb(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + rssMb(p), 0);
}

/** PSS of a process and all its descendants, in MB. */
function treePssMb(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + pssMb(p), 0);
}

/** A metric's value as the server reports it (NaN when it has none by that name). */
async function metricValue(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : Number.NaN;
}

/** A metric in bytes, in MB. */
async function metric(base: string, name: string): Promise<number> {
  return (await metricValue(base, name)) / 2 ** 20;
}

function slope(samples: Sample[]): number {
  const half = samples.filter((s) => s.seconds >= samples[samples.length - 1]!.seconds / 2);
  if (half.length < 2) return 0;
  const xs = half.map((s) => s.seconds / 60);
  const ys = half.map((s) => s.rssMb);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

async function main(): Promise<void> {
  const corpus = readCorpus(values.bundle);
  const { server, base, authorization, stop } = await startServeProcess(values.bundle, 'soak', values.env);
  const next = mix(corpus, seeded(16), !values['without-snapshots']);
  const started = Date.now();
  const end = started + minutes * 60_000;
  const samples: Sample[] = [];
  let requests = 0;
  let errors5xx = 0;
  const statuses = new Map<number, number>();

  const sample = async () => {
    samples.push({
      seconds: Math.round((Date.now() - started) / 1000),
      rssMb: treeRssMb(server.pid!),
      serverRssMb: rssMb(server.pid!),
      pssMb: treePssMb(server.pid!),
      heapMb: await metric(base, 'heatsource_nodejs_heap_size_used_bytes'),
      externalMb: await metric(base, 'heatsource_nodejs_external_memory_bytes'),
      serverCpuMs: cpuMs(server.pid!),
      childCpuMs: descendants(server.pid!).reduce((sum, p) => sum + cpuMs(p), 0),
      load1: os.loadavg()[0]!,
      conversions: await metricValue(base, 'heatsource_snapshot_conversions_total'),
      requests,
      errors5xx,
    });
    if (!values.json) {
      const s = samples[samples.length - 1]!;
      console.error(
        `${s.seconds}s rss ${s.rssMb.toFixed(1)} MB (server ${s.serverRssMb.toFixed(1)} MB) pss ${s.pssMb.toFixed(1)} MB heap ${s.heapMb.toFixed(1)} MB external ${s.externalMb.toFixed(1)} MB cpu ${(s.serverCpuMs / 1000).toFixed(1)}+${(s.childCpuMs / 1000).toFixed(1)} s load ${s.load1.toFixed(2)} requests ${s.requests} 5xx ${s.errors5xx}`,
      );
    }
  };
  await sample();
  const sampler = setInterval(() => void sample(), sampleEvery);

  // Each worker sends its share of the rate: one request, then waits for its next slot.
  const interval = (1000 * concurrency) / rate;
  const worker = async (w: number) => {
    let slot = started + (w * interval) / concurrency;
    while (Date.now() < end) {
      const wait = slot - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      slot += interval;
      const call = next();
      try {
        const res = await fetch(`${base}${call.url}`, {
          method: call.method,
          headers: {
            authorization,
            ...(call.body ? { 'content-type': 'application/json' } : {}),
            ...call.headers,
          },
          body: call.body ? JSON.stringify(call.body) : undefined,
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) errors5xx++;
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
      requests++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  clearInterval(sampler);
  await sample();
  await stop();

  const elapsed = (Date.now() - started) / 1000;
  const peak = Math.max(...samples.map((s) => s.rssMb));
  const last = samples[samples.length - 1]!;
  const loads = samples.map((s) => s.load1);
  const result = {
    machine: machineLine(),
    minutes,
    rate,
    concurrency,
    env: values.env,
    snapshots: !values['without-snapshots'],
    requests,
    achievedRate: Math.round(requests / elapsed),
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    errors5xx,
    rssPeakMb: Math.round(peak),
    rssEndMb: Math.round(samples[samples.length - 1]!.rssMb),
    pssPeakMb: Math.round(Math.max(...samples.map((s) => s.pssMb))),
    rssSlopeSecondHalfMbPerMin: Math.round(slope(samples) * 100) / 100,
    // CPU per request counts start-up too (about a second of the server's CPU), the same in every run.
    serverCpuUsPerRequest: Math.round((1000 * last.serverCpuMs) / requests),
    converterCpuUsPerRequest: Math.round((1000 * last.childCpuMs) / requests),
    loadAverage: [Math.min(...loads), Math.max(...loads)].map((l) => Math.round(l * 10) / 10),
    conversions: last.conversions,
    samples,
  };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  console.log(
    `${result.machine}; ${minutes} min at ${rate} req/s target, ${concurrency} workers, snapshots ${result.snapshots ? 'in' : 'left out of'} the mix`,
  );
  console.log(
    `requests ${requests} (${result.achievedRate}/s), 5xx ${errors5xx}, statuses ${JSON.stringify(result.statuses)}`,
  );
  console.log(
    `RSS peak ${result.rssPeakMb} MB, end ${result.rssEndMb} MB, slope over the second half ${result.rssSlopeSecondHalfMbPerMin} MB/min; PSS peak ${result.pssPeakMb} MB`,
  );
  console.log(
    `CPU per request: server ${result.serverCpuUsPerRequest} µs, converter ${result.converterCpuUsPerRequest} µs; load average ${result.loadAverage.join('-')}; page images converted ${result.conversions}`,
  );
  console.log(
    '\n| minute | RSS MB (with children) | server RSS MB | PSS MB (with children) | heap MB | external MB | requests |\n|---:|---:|---:|---:|---:|---:|---:|',
  );
  let lastMinute = -1;
  for (const s of samples) {
    const m = Math.floor(s.seconds / 60);
    if (m === lastMinute && s !== samples[samples.length - 1]) continue;
    lastMinute = m;
    console.log(
      `| ${(s.seconds / 60).toFixed(1)} | ${s.rssMb.toFixed(0)} | ${s.serverRssMb.toFixed(0)} | ${s.pssMb.toFixed(0)} | ${s.heapMb.toFixed(0)} | ${s.externalMb.toFixed(0)} | ${s.requests} |`,
    );
  }
}

await main();
