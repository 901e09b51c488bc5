// Start-up of the terminal: how long `heatsource` takes before it answers, against `node -e 0` measured in
// the same run (the floor any Node program pays). Runs are interleaved so that a busy machine slows every
// command alike; medians are reported.
//
//   npm run bench:startup -- [--runs 15] [--bundle data/demo.bundle] [--baseline DIR] [--write]
//
// --baseline DIR times the same commands of another built checkout (an earlier version) in the same
// interleaved runs, each against its own demo bundle.
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
    baseline: { type: 'string' },
  },
});
const runs = Math.max(3, Math.min(200, Number(values.runs)));
const bin = projectPath('bin', 'run.js');
if (!fs.existsSync(values.bundle)) {
  console.error(`no bundle at ${values.bundle}: run \`heatsource demo\` first`);
  process.exit(2);
}

function commandsOf(label: string, runJs: string, bundle: string): { name: string; args: string[] }[] {
  return [
    { name: `${label} --version`, args: [runJs, '--version'] },
    { name: `${label} --help`, args: [runJs, '--help'] },
    {
      name: `${label} lookup (offline, demo bundle)`,
      args: [runJs, 'lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', '--bundle', bundle],
    },
    {
      name: `${label} code (offline, demo bundle)`,
      args: [runJs, 'code', 'Demotherm', 'E9', '--bundle', bundle],
    },
  ];
}

const cases: { name: string; args: string[] }[] = [
  { name: 'node -e 0', args: ['-e', '0'] },
  ...commandsOf('heatsource', bin, values.bundle),
  ...(values.baseline
    ? commandsOf(
        'baseline',
        path.join(path.resolve(values.baseline), 'bin', 'run.js'),
        path.join(path.resolve(values.baseline), 'data', 'demo.bundle'),
      )
    : []),
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
  `Command: \`npm run bench:startup${values.baseline ? ' -- --baseline DIR' : ''}\`${values.baseline ? ' (DIR: a built checkout of the version before)' : ''}.`,
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
