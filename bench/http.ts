/**
 * HTTP throughput on loopback: /healthz (the ceiling: routing, hooks and serialisation only), then
 * POST /v1/diagnostic, GET /v1/search (a query with a typo), GET /v1/pdf-snapshot and the diagnostic as an
 * MCP tool call (protocol 2026-07-28 and 2025-11-25), each for a fixed
 * duration with autocannon. Prints JSON and a markdown table with req/s, the server's CPU time per
 * request (from /proc: what a request costs, which a machine shared with other work disturbs far less
 * than throughput), p50/p99 latency, the ratio to the ceiling, the server's minor and major garbage
 * collections per 1,000 requests and, for the MCP rows, the ratios of
 * throughput and of CPU per request to the same diagnostic over REST; then where the
 * server's CPU time went while it answered the REST diagnostic and each MCP era (a sampling profile of
 * the server process, taken in extra slices after the measured ones so that it does not slow them).
 *
 *   npm run build && node dist/bench/http.js [--bundle FILE] [--duration S] [--rounds R] [--connections N]
 *     [--profile-seconds S] [--heap-growth PERCENT] [--compiler-threads N|v8] [--semi-space MB] [--json]
 *
 * Each route gets `duration` seconds in all (default 6), split into `rounds` alternating slices
 * (default 3); req/s, p50 and p99 are medians over the rounds, and so are the ratios, each taken
 * within its round. `--profile-seconds 0` leaves the profiles out (default 2 s per profiled route).
 *
 * The server runs in a child process (so that the load generator does not share its event loop) with
 * a file-backed state in WAL mode, JSON logs at info level written to /dev/null, and a key without
 * quota or rate limit; every answered diagnostic writes a usage-ledger row, as in production.
 */

import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs as parseCliArgs } from 'node:util';
import autocannon from 'autocannon';
import { BundleReader } from '../src/bundle/reader.js';
import { corpusView } from '../src/engine/corpus.js';
import { diagnose } from '../src/engine/diagnostic.js';
import { exampleDiagnostic } from '../src/engine/examples.js';
import { projectPath } from '../src/project-path.js';
import { buildApp } from '../src/serve/app.js';
import { defaultCompilerThreads } from '../src/serve/compiler-threads.js';
import { DEFAULT_HEAP_GROWTH_PERCENT } from '../src/serve/heap-growth.js';
import { applyRuntimeSettings } from '../src/serve/runtime-settings.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';
import { type ProfileSummary, startProfiling, summariseProfile } from './cpu-profile.js';
import { machineLine, median } from './machine.js';

interface Args {
  bundle: string;
  duration: number;
  rounds: number;
  connections: number;
  profileSeconds: number;
  json: boolean;
  serve: boolean;
  state?: string;
  /** V8's heap growing percent in the server, as `serve --heap-growth` sets it (its default unless given). */
  heapGrowth: number;
  /**
   * V8's young-generation semi-space in MB for the server child (`--max-semi-space-size`, which only a
   * process start can set); undefined leaves Node's default (16 MB on 64-bit).
   */
  semiSpace?: number;
  /** V8's optimising compiler threads in the server, as `serve` bounds them; null: V8's own (unbounded). */
  compilerThreads: number | null;
}

function parseArgs(argv: string[]): Args {
  const { values } = parseCliArgs({
    args: argv,
    options: {
      bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
      duration: { type: 'string', default: '6' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      'profile-seconds': { type: 'string', default: '2' },
      json: { type: 'boolean', default: false },
      serve: { type: 'boolean', default: false },
      state: { type: 'string' },
      'heap-growth': { type: 'string', default: String(DEFAULT_HEAP_GROWTH_PERCENT) },
      'semi-space': { type: 'string' },
      'compiler-threads': { type: 'string', default: String(defaultCompilerThreads()) },
    },
  });
  const heapGrowth = Number(values['heap-growth']);
  // Refused here, in one line, rather than as a server child that dies at start.
  if (!Number.isInteger(heapGrowth) || heapGrowth < 0)
    throw new Error(`--heap-growth takes a whole number of percent >= 0, got "${values['heap-growth']}"`);
  const semiSpace = values['semi-space'] === undefined ? undefined : Number(values['semi-space']);
  if (semiSpace !== undefined && (!Number.isInteger(semiSpace) || semiSpace < 1))
    throw new Error(`--semi-space takes a whole number of MB >= 1, got "${values['semi-space']}"`);
  const compilerThreads = values['compiler-threads'] === 'v8' ? null : Number(values['compiler-threads']);
  if (compilerThreads !== null && (!Number.isInteger(compilerThreads) || compilerThreads < 1))
    throw new Error(
      `--compiler-threads takes a whole number >= 1 or "v8", got "${values['compiler-threads']}"`,
    );
  return {
    bundle: path.resolve(values.bundle),
    duration: Number(values.duration),
    connections: Number(values.connections),
    rounds: Number(values.rounds),
    profileSeconds: Number(values['profile-seconds']),
    json: values.json,
    serve: values.serve,
    state: values.state,
    heapGrowth,
    semiSpace,
    compilerThreads,
  };
}

/** Child process: serve the bundle and report the URL and a key on stdout. */
async function serveChild(args: Args): Promise<void> {
  // The server measured is the one `serve` runs, its V8 settings included (startServer applies the same).
  applyRuntimeSettings({ heapGrowthPercent: args.heapGrowth, compilerThreads: args.compilerThreads });
  const state = new SqliteStateStore(args.state!);
  const account = await state.createAccount({
    name: 'bench',
    quota_limit: null,
    rate_limit_per_minute: null,
  });
  const { secret } = await state.createKey(account.id, 'test');
  const app = await buildApp({
    bundle: args.bundle,
    state,
    logger: { level: 'info', stream: fs.createWriteStream('/dev/null') },
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  // Collections so far, by kind, for the parent to take per slice of load: an MCP exchange leaves far
  // more garbage than the same answer over REST, and the major collections it brings set its p99.
  const gc = { minor: 0, major: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
    }
  }).observe({ entryTypes: ['gc'] });
  process.send?.({ url, key: secret });
  // The parent asks for a CPU profile of this process around a slice of load, or for the GC counts.
  let stopProfiling: (() => Promise<Parameters<typeof summariseProfile>[0]>) | null = null;
  let from = 0;
  process.on('message', (m: { profile?: 'start' | 'stop'; gc?: true }) => {
    if (m.gc) {
      process.send?.({ gc: { ...gc } });
    } else if (m.profile === 'start') {
      void startProfiling().then((stop) => {
        stopProfiling = stop;
        from = Number(process.hrtime.bigint() / 1000n);
        process.send?.({ profiling: true });
      });
    } else if (m.profile === 'stop' && stopProfiling) {
      const until = Number(process.hrtime.bigint() / 1000n);
      void stopProfiling().then((profile) => {
        stopProfiling = null;
        process.send?.({ summary: summariseProfile(profile, 12, from, until) });
      });
    }
  });
  process.on('disconnect', () => {
    void app.close().then(() => process.exit(0));
  });
}

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

interface Row {
  name: string;
  request: string;
  rps: number;
  /** Server CPU time (user + system, every thread) per answered request, in microseconds. */
  cpu_us: number;
  p50_ms: number;
  p99_ms: number;
  ratio: number;
  /** MCP rows: req/s against the REST diagnostic in the same round. */
  ratio_to_rest?: number;
  /** MCP rows: server CPU per request against the REST diagnostic's in the same round. */
  cpu_ratio_to_rest?: number;
  /** The server's minor (scavenge) and major (mark-compact) collections per 1,000 requests. */
  gc_minor_per_1k: number;
  gc_major_per_1k: number;
  non2xx: number;
  errors: number;
}

/** Sends a message to the child and waits for its answer. */
function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

/** CPU time the process has used so far (user + system, all threads), in microseconds, from /proc. */
function cpuUs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS;
}
/** USER_HZ: the unit of the CPU times in /proc/PID/stat (100 on Linux builds). */
const CLOCK_TICKS = 100;

interface Sample {
  result: autocannon.Result;
  /** Server CPU microseconds per request of the slice. */
  cpuUs: number;
  /** The server's collections during the slice, per 1,000 requests. */
  gcMinorPer1k: number;
  gcMajorPer1k: number;
}

interface GcCounts {
  minor: number;
  major: number;
}

/**
 * One slice of load on a route, with the server's CPU time per request beside throughput: on a
 * machine shared with other work, throughput swings with whatever else runs, while the CPU a request
 * costs the server moves far less.
 */
async function run(
  url: string,
  t: Target,
  duration: number,
  connections: number,
  child: ChildProcess,
): Promise<Sample> {
  const pid = child.pid!;
  const gcBefore = (await ask<{ gc: GcCounts }>(child, { gc: true })).gc;
  const before = cpuUs(pid);
  const result = await autocannon({
    url: url + t.path,
    method: t.method,
    headers: t.headers,
    body: t.body,
    duration,
    connections,
  });
  const used = cpuUs(pid) - before;
  const gcAfter = (await ask<{ gc: GcCounts }>(child, { gc: true })).gc;
  const perK = 1000 / Math.max(1, result.requests.total);
  return {
    result,
    cpuUs: used / Math.max(1, result.requests.total),
    gcMinorPer1k: (gcAfter.minor - gcBefore.minor) * perK,
    gcMajorPer1k: (gcAfter.major - gcBefore.major) * perK,
  };
}

/**
 * The same measure with node:http keep-alive clients: autocannon's JavaScript HTTP parser is slow on
 * large binary bodies, so for the snapshot route it measures the client more than the server.
 */
async function nodeClientRun(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<{ rps: number; p50: number; p99: number; non2xx: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let non2xx = 0;
  const end = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const status = await new Promise<number>((resolve, reject) => {
        http
          .get(url, { agent, headers }, (res) => {
            res.on('data', () => {});
            res.on('end', () => resolve(res.statusCode ?? 0));
          })
          .on('error', reject);
      });
      latencies.push(performance.now() - t0);
      if (status < 200 || status >= 300) non2xx++;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) /
    100;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), non2xx };
}

/** A search query made of words of a code's meaning, one of them misspelt, to exercise fuzzy matching. */
function fuzzyQuery(title: string): string {
  const words = title.split(/\s+/).filter((w) => /^[\p{L}]{5,}$/u.test(w));
  const pick = words.slice(0, 3);
  if (pick.length === 0) return 'water flow';
  const w = pick[0]!;
  pick[0] = w.slice(0, 2) + w[3] + w[2] + w.slice(4);
  return pick.join(' ');
}

function startServer(args: Args): Promise<{ child: ChildProcess; url: string; key: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-bench-'));
  const child = fork(
    fileURLToPath(import.meta.url),
    [
      '--serve',
      '--bundle',
      args.bundle,
      '--state',
      path.join(dir, 'state.sqlite'),
      '--heap-growth',
      String(args.heapGrowth),
      '--compiler-threads',
      args.compilerThreads === null ? 'v8' : String(args.compilerThreads),
    ],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The young generation's size is fixed when the heap is made: set it on the child's command line.
      execArgv: [
        ...process.execArgv,
        ...(args.semiSpace === undefined ? [] : [`--max-semi-space-size=${args.semiSpace}`]),
      ],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve({ child, ...(m as { url: string; key: string }) }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

const REST_DIAGNOSTIC = 'diagnostic';

/** The server child's peak resident memory (VmHWM), in MB: what a setting of its heap costs. */
function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmHWM:\s+(\d+)/m.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Math.round(Number(kb) / 1024);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.serve) return serveChild(args);
  if (!fs.existsSync(args.bundle))
    throw new Error(`bundle not found: ${args.bundle} (build it, or pass --bundle)`);

  const reader = new BundleReader(args.bundle);
  const view = corpusView(reader);
  const example = exampleDiagnostic(view);
  if (!example) throw new Error('the bundle answers no diagnostic: nothing to measure');
  const answer = diagnose(view, example);
  const snapshotPath =
    answer.citation && reader.snapshot(answer.citation.document_id, answer.citation.page)
      ? answer.citation.snapshot_url
      : null;
  const query = fuzzyQuery(answer.title ?? '');
  reader.close();

  const server = await startServer(args);
  const auth = { authorization: `Bearer ${server.key}` };
  const targets: Target[] = [
    { name: 'healthz (ceiling)', method: 'GET', path: '/healthz', headers: {} },
    {
      name: REST_DIAGNOSTIC,
      method: 'POST',
      path: '/v1/diagnostic',
      body: JSON.stringify(example),
      headers: { ...auth, 'content-type': 'application/json' },
    },
    {
      name: 'search (fuzzy)',
      method: 'GET',
      path: `/v1/search?q=${encodeURIComponent(query)}`,
      headers: auth,
    },
  ];
  if (snapshotPath) targets.push({ name: 'pdf-snapshot', method: 'GET', path: snapshotPath, headers: auth });
  // The same diagnostic as an MCP tool call, in each protocol era.
  const mcpHeaders = {
    ...auth,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const toolCall = (params: Record<string, unknown>) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'diagnose', ...params } });
  targets.push(
    {
      name: 'mcp diagnose (2026-07-28)',
      method: 'POST',
      path: '/mcp',
      body: toolCall({
        arguments: example,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
      headers: {
        ...mcpHeaders,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'diagnose',
      },
    },
    {
      name: 'mcp diagnose (2025-11-25)',
      method: 'POST',
      path: '/mcp',
      body: toolCall({ arguments: example }),
      headers: { ...mcpHeaders, 'mcp-protocol-version': '2025-11-25' },
    },
  );

  // Rounds alternate the routes so that load from elsewhere on the machine hits them alike; each
  // route's ratio is taken against the ceiling measured in the same round, then the median is kept.
  const rounds = Math.max(1, args.rounds);
  const slice = args.duration / rounds;
  const samples = new Map<string, Sample[]>();
  const pid = server.child.pid!;
  const profiles: { name: string; summary: ProfileSummary }[] = [];
  let serverPeakRssMb = Number.NaN;
  try {
    for (const t of targets) await run(server.url, t, 1, args.connections, server.child);
    for (let round = 0; round < rounds; round++) {
      for (const t of targets) {
        const r = await run(server.url, t, slice, args.connections, server.child);
        samples.set(t.name, [...(samples.get(t.name) ?? []), r]);
      }
    }
    if (args.profileSeconds > 0) {
      for (const t of targets.filter((t) => t.name === REST_DIAGNOSTIC || t.name.startsWith('mcp '))) {
        await ask(server.child, { profile: 'start' });
        await run(server.url, t, args.profileSeconds, args.connections, server.child);
        const { summary } = await ask<{ summary: ProfileSummary }>(server.child, { profile: 'stop' });
        profiles.push({ name: t.name, summary });
      }
    }
    serverPeakRssMb = peakRssMb(pid);
  } finally {
    server.child.disconnect();
  }
  const ceiling = samples.get(targets[0]!.name)!;
  const rest = samples.get(REST_DIAGNOSTIC)!;
  let nodeClient: Row | null = null;
  if (snapshotPath) {
    const server2 = await startServer(args);
    try {
      const headers = { authorization: `Bearer ${server2.key}` };
      await nodeClientRun(server2.url + snapshotPath, headers, 1, args.connections);
      const r = await nodeClientRun(server2.url + snapshotPath, headers, args.duration, args.connections);
      nodeClient = {
        name: 'pdf-snapshot (node:http client)',
        request: `GET ${snapshotPath.length > 56 ? `${snapshotPath.slice(0, 53)}...` : snapshotPath}`,
        rps: Math.round(r.rps),
        cpu_us: Number.NaN,
        p50_ms: r.p50,
        p99_ms: r.p99,
        ratio: Number.NaN,
        non2xx: r.non2xx,
        errors: 0,
        gc_minor_per_1k: Number.NaN,
        gc_major_per_1k: Number.NaN,
      };
    } finally {
      server2.child.disconnect();
    }
  }
  const round2 = (x: number) => Math.round(x * 100) / 100;
  const rows: Row[] = targets.map((t) => {
    const ss = samples.get(t.name)!;
    const rs = ss.map((s) => s.result);
    return {
      name: t.name,
      request: `${t.method} ${t.path.length > 60 ? `${t.path.slice(0, 57)}...` : t.path}`,
      rps: Math.round(median(rs.map((r) => r.requests.average))),
      cpu_us: Math.round(median(ss.map((s) => s.cpuUs))),
      p50_ms: median(rs.map((r) => r.latency.p50)),
      p99_ms: median(rs.map((r) => r.latency.p99)),
      ratio: round2(median(rs.map((r, i) => r.requests.average / ceiling[i]!.result.requests.average))),
      ...(t.name.startsWith('mcp ')
        ? {
            ratio_to_rest: round2(
              median(rs.map((r, i) => r.requests.average / rest[i]!.result.requests.average)),
            ),
            cpu_ratio_to_rest: round2(median(ss.map((s, i) => s.cpuUs / rest[i]!.cpuUs))),
          }
        : {}),
      non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
      errors: rs.reduce((n, r) => n + r.errors, 0),
      gc_minor_per_1k: round2(median(ss.map((s) => s.gcMinorPer1k))),
      gc_major_per_1k: round2(median(ss.map((s) => s.gcMajorPer1k))),
    };
  });
  if (nodeClient) rows.push(nodeClient);
  const result = {
    machine: machineLine(),
    bundle: path.basename(args.bundle),
    duration_s: args.duration,
    rounds,
    connections: args.connections,
    heap_growth_percent: args.heapGrowth,
    semi_space_mb: args.semiSpace ?? null,
    compiler_threads: args.compilerThreads,
    server_peak_rss_mb: serverPeakRssMb,
    diagnostic: example,
    search_query: query,
    snapshot: snapshotPath,
    results: rows,
    profiles,
  };
  console.log(JSON.stringify(result, null, 2));
  if (!args.json) {
    console.log('');
    console.log(
      `${result.machine}; ${args.connections} connections, ${args.duration} s per route in ${rounds} rounds, bundle ${result.bundle}; ` +
        `server heap growth ${args.heapGrowth === 0 ? "V8's own" : `${args.heapGrowth} %`}, semi-space ` +
        `${args.semiSpace === undefined ? "Node's default" : `${args.semiSpace} MB`}, compiler threads ` +
        `${args.compilerThreads === null ? "V8's own" : args.compilerThreads}, peak RSS ${Math.round(serverPeakRssMb)} MB`,
    );
    console.log('');
    console.log(
      '| route | request | req/s | server CPU µs/req | p50 ms | p99 ms | ratio to ceiling | req/s ratio to REST diagnostic | CPU ratio to REST diagnostic | GCs per 1,000 req (minor / major) | non-2xx |',
    );
    console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const ratio = Number.isNaN(r.ratio) ? 'n/a' : r.ratio.toFixed(2);
      const cpu = Number.isNaN(r.cpu_us) ? 'n/a' : String(r.cpu_us);
      const toRest = r.ratio_to_rest === undefined ? '' : r.ratio_to_rest.toFixed(2);
      const cpuToRest = r.cpu_ratio_to_rest === undefined ? '' : r.cpu_ratio_to_rest.toFixed(2);
      const gcs = Number.isNaN(r.gc_minor_per_1k) ? 'n/a' : `${r.gc_minor_per_1k} / ${r.gc_major_per_1k}`;
      console.log(
        `| ${r.name} | \`${r.request}\` | ${r.rps} | ${cpu} | ${r.p50_ms} | ${r.p99_ms} | ${ratio} | ${toRest} | ${cpuToRest} | ${gcs} | ${r.non2xx} |`,
      );
    }
    for (const { name, summary } of profiles) {
      console.log('');
      console.log(
        `Server CPU profile, ${name} (${args.profileSeconds} s, ${summary.samples} samples; shares of the non-idle ones): ` +
          summary.by_origin
            .slice(0, 8)
            .map((o) => `${o.origin} ${o.self_pct} %`)
            .join(', '),
      );
      console.log('');
      console.log('| self % | frame |');
      console.log('|---:|---|');
      for (const f of summary.top_frames) console.log(`| ${f.self_pct} | \`${f.frame}\` |`);
    }
  }
  if (!snapshotPath)
    console.error('note: the bundle holds no snapshot of the cited page; pdf-snapshot not measured');
  else if (!args.json) {
    console.log('');
    console.log(
      "autocannon's JavaScript HTTP parser is slow on large binary bodies: the node:http row measures the " +
        'snapshot route with keep-alive node:http clients instead (its ratio is not comparable).',
    );
  }
}

main().catch((err) => {
  console.error((err as Error).message);
  process.exit(1);
});
