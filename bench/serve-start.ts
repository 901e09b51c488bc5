// Start-up of `heatsource serve`: from spawning the process to its first `/healthz` 200, its first
// `/readyz` 200 and the answer to its first search, with the server process's CPU time (user + system,
// from /proc) once that search is answered, the figure a loaded machine disturbs least. Each start uses
// a fresh SQLite state and `--no-auth` on 127.0.0.1 with a port of its own. With --baseline DIR the same
// starts of another built checkout run interleaved with these, on the same bundle.
//
//   npm run bench:serve-start -- [--runs 7] [--bundle data/demo.bundle] [--baseline DIR]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectPath } from '../src/project-path.js';
import { machineLine, median } from './machine.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    baseline: { type: 'string' },
    query: { type: 'string', default: 'heat pump error code table' },
  },
});
const runs = Math.max(1, Math.min(50, Number(values.runs)));
const bundle = path.resolve(values.bundle);
if (!fs.existsSync(bundle)) {
  console.error(`no bundle at ${bundle}`);
  process.exit(2);
}
const TICK = 1000 / 100; // /proc clock ticks are 1/100 s on Linux

interface Start {
  healthzMs: number;
  readyzMs: number;
  firstSearchMs: number;
  cpuMs: number;
}

function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) * TICK;
}

async function status(url: string): Promise<number> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

async function until(url: string, t0: number, deadline: number): Promise<number> {
  while (performance.now() < deadline) {
    if ((await status(url)) === 200) return performance.now() - t0;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url} did not answer 200 in time`);
}

let nextPort = 18_500 + (process.pid % 500) * 10;

async function startOnce(runJs: string): Promise<Start> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-serve-start-'));
  const port = nextPort++;
  const base = `http://127.0.0.1:${port}`;
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [
      runJs,
      'serve',
      '--no-auth',
      '--port',
      String(port),
      '--bundle',
      bundle,
      '--state',
      path.join(dir, 's.sqlite'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  try {
    const deadline = t0 + 60_000;
    const healthzMs = await until(`${base}/healthz`, t0, deadline);
    const readyzMs = await until(`${base}/readyz`, t0, deadline);
    const res = await fetch(`${base}/v1/search?q=${encodeURIComponent(values.query)}`);
    const body = (await res.json()) as { results?: unknown[] };
    const firstSearchMs = performance.now() - t0;
    if (res.status !== 200 || !Array.isArray(body.results)) throw new Error(`search answered ${res.status}`);
    const cpuMs = cpuOf(child.pid ?? 0);
    return { healthzMs, readyzMs, firstSearchMs, cpuMs };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${stderr}`);
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const variants: { name: string; runJs: string }[] = [
  { name: 'this build', runJs: projectPath('bin', 'run.js') },
  ...(values.baseline
    ? [{ name: 'baseline', runJs: path.join(path.resolve(values.baseline), 'bin', 'run.js') }]
    : []),
];
const results = new Map(variants.map((v) => [v.name, [] as Start[]]));
const loads: number[] = [];
for (let i = 0; i < runs; i++) {
  // Alternate which goes first, so that neither always starts right after the other's exit.
  const order = i % 2 === 0 ? variants : [...variants].reverse();
  for (const v of order) {
    loads.push(os.loadavg()[0] ?? 0);
    results.get(v.name)?.push(await startOnce(v.runJs));
  }
}

const fmt = (n: number) => n.toFixed(0);
console.log(`${machineLine()}; bundle ${path.basename(bundle)}; ${runs} starts each, interleaved`);
console.log(
  `load average (1 min) during the run: ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
);
console.log('| build | /healthz 200 | /readyz 200 | first search answered | server CPU to first search |');
console.log('|---|---|---|---|---|');
for (const [name, list] of results) {
  const m = (f: (s: Start) => number) => `${fmt(median(list.map(f)))} ms`;
  const range = (f: (s: Start) => number) =>
    ` (${fmt(Math.min(...list.map(f)))}-${fmt(Math.max(...list.map(f)))})`;
  console.log(
    `| ${name} | ${m((s) => s.healthzMs)}${range((s) => s.healthzMs)} | ${m((s) => s.readyzMs)} | ${m((s) => s.firstSearchMs)}${range((s) => s.firstSearchMs)} | ${m((s) => s.cpuMs)}${range((s) => s.cpuMs)} |`,
  );
}
