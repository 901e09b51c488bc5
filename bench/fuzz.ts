import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectPath } from '../src/project-path.js';
import { machineLine, replaceBenchBlock } from './machine.js';

/**
 * `npm run bench:fuzz [-- --requests N --seed S --write]`: the fuzz suite of test/api/fuzz.test.ts at a
 * larger count (6,000 requests by default) against a real listening server, REST, MCP in both protocol
 * eras and raw HTTP. It is the same fuzzer as the suite's, run through vitest, so that what the suite
 * asserts (0 5xx, 0 JSON-RPC -32603, every HTTP error a problem document, no stack trace or server path)
 * is what the benchmark counts. Prints the tally per surface; `--write` puts it in BENCHMARKS.md.
 */

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const requests = Number(arg('requests', '6000'));
const seed = Number(arg('seed', '16'));
if (!Number.isInteger(requests) || requests <= 0 || !Number.isInteger(seed)) {
  console.error('--requests and --seed take whole numbers');
  process.exit(2);
}
const root = projectPath();
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hs-fuzz-')), 'fuzz.json');
const started = Date.now();
const run = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/api/fuzz.test.ts'],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      HEATSOURCE_FUZZ_REQUESTS: String(requests),
      HEATSOURCE_FUZZ_SEED: String(seed),
      HEATSOURCE_FUZZ_REPORT: report,
    },
  },
);
const seconds = Math.round((Date.now() - started) / 1000);
if (!fs.existsSync(report)) {
  console.error(`the fuzz run wrote no tally (vitest exited ${run.status})`);
  process.exit(1);
}

interface Tally {
  sent: number;
  statuses: Record<string, number>;
  rpcErrors: Record<string, number>;
  failures: number;
}
const result = JSON.parse(fs.readFileSync(report, 'utf8')) as { surfaces: Record<string, Tally> };
const names: Record<string, string> = {
  rest: 'REST (every route)',
  'mcp-tools': 'MCP tools/call, 2025-11-25 and 2026-07-28 alternating',
  'mcp-methods': 'MCP other methods, each in both eras',
  'raw-json': 'raw JSON (`__proto__`, lone surrogates)',
  'raw-http': 'malformed HTTP on a raw socket',
};
const fmt = (m: Record<string, number>) =>
  Object.entries(m)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k} × ${v}`)
    .join(', ') || '-';
let sent = 0;
let fiveXX = 0;
let internal = 0;
let failures = 0;
const rows = Object.entries(result.surfaces).map(([name, t]) => {
  sent += t.sent;
  const five = Object.entries(t.statuses)
    .filter(([s]) => Number(s) >= 500)
    .reduce((a, [, v]) => a + v, 0);
  fiveXX += five;
  internal += t.rpcErrors['-32603'] ?? 0;
  failures += t.failures;
  return `| ${names[name] ?? name} | ${t.sent} | ${five} | ${t.rpcErrors['-32603'] ?? 0} | ${t.failures} | ${fmt(t.statuses)} | ${fmt(t.rpcErrors)} |`;
});
const table = [
  `**Fuzz at ${requests.toLocaleString('en')} requests** (\`npm run bench:fuzz -- --requests ${requests} --seed ${seed}\`, ` +
    `${new Date().toISOString().slice(0, 10)}; ${machineLine()}; ${seconds} s with set-up, vitest exit ${run.status}). ` +
    'Failures are answers outside the rules: a 5xx, a JSON-RPC -32603, an HTTP error that is not a problem ' +
    'document, a stack trace or server path in a body.',
  '',
  '| surface | sent | 5xx | -32603 | failures | HTTP statuses | JSON-RPC errors |',
  '|---|---:|---:|---:|---:|---|---|',
  ...rows,
  `| **all** | **${sent}** | **${fiveXX}** | **${internal}** | **${failures}** | | |`,
].join('\n');
console.log(`\n${table}\n`);
if (process.argv.includes('--write')) {
  const file = path.join(root, 'BENCHMARKS.md');
  fs.writeFileSync(file, replaceBenchBlock(fs.readFileSync(file, 'utf8'), 'fuzz', table));
}
process.exit(run.status === 0 ? 0 : 1);
