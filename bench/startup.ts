// Start-up of the terminal: how long `heatsource` takes before it answers, against `node -e 0` measured in
// the same run (the floor any Node program pays). Runs are interleaved so that a busy machine slows every
// command alike; medians are reported.
//
//   npm run bench:startup -- [--runs 15] [--bundle data/demo.bundle] [--write]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { projectPath } from '../src/project-path.js';
import { machineLine, median, replaceBenchBlock } from './machine.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    write: { type: 'boolean', default: false },
  },
});
const runs = Math.max(3, Math.min(200, Number(values.runs)));
const bin = projectPath('bin', 'run.js');
if (!fs.existsSync(values.bundle)) {
  console.error(`no bundle at ${values.bundle}: run \`heatsource demo\` first`);
  process.exit(2);
}

const cases: { name: string; args: string[] }[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'heatsource --version', args: [bin, '--version'] },
  { name: 'heatsource --help', args: [bin, '--help'] },
  {
    name: 'heatsource lookup (offline, demo bundle)',
    args: [bin, 'lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', '--bundle', values.bundle],
  },
  {
    name: 'heatsource code (offline, demo bundle)',
    args: [bin, 'code', 'Demotherm', 'E9', '--bundle', values.bundle],
  },
];

const times = new Map(cases.map((c) => [c.name, [] as number[]]));
for (let i = 0; i < runs; i++) {
  for (const c of cases) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, c.args, {
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    });
    const ms = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}`);
    times.get(c.name)!.push(ms);
  }
}
const floor = median(times.get('node -e 0')!);
const rows = cases.map((c) => {
  const m = median(times.get(c.name)!);
  return `| ${c.name} | ${m.toFixed(0)} ms | ${(m / floor).toFixed(1)}x |`;
});
const block = [
  `Start-up, median of ${runs} interleaved runs (${new Date().toISOString().slice(0, 10)}; ${machineLine()}).`,
  'Command: `npm run bench:startup`.',
  '',
  '| command | median | against `node -e 0` |',
  '|---|---|---|',
  ...rows,
].join('\n');
console.log(block);
if (values.write) {
  const file = path.join(projectPath(), 'BENCHMARKS.md');
  fs.writeFileSync(file, replaceBenchBlock(fs.readFileSync(file, 'utf8'), 'startup', block));
}
