/**
 * What a guided-session step costs in CPU, and every session's transcript for a before/after comparison.
 *
 *   node dist/bench/sessions-step-cost.js [--seed S]... [--transcripts FILE] [--json]
 *
 * Drives the generated cases of each seed (bench/sessions-generated.ts, 12 per cause, instruments
 * available 0.5) and the shared cases (../shared/hvac-bench/sessions) through the engine, timing each
 * step (opening the session, then each answer) with `process.cpuUsage` (user + system, so the time other
 * jobs take on a shared machine is not counted). Prints the median, mean and 90th percentile per step
 * and a digest of every transcript (each case's actions, answers and outcome); `--transcripts` writes
 * them, one JSON line per case, so two builds can be compared byte for byte.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadKnowledge } from '../src/engine/sessions/knowledge.js';
import { readingActionOf } from '../src/engine/sessions/model.js';
import { createSession, nextAction, respond } from '../src/engine/sessions/session.js';
import { PROJECT_ROOT } from '../src/project-path.js';
import { type BenchCase, loadCases } from './sessions-cases.js';
import { DEFAULT_GENERATED_SEED, generateCases, loadFaultTree } from './sessions-generated.js';
import { SimulatedTechnician } from './sessions-simulator.js';
import { DEFAULT_TAXONOMY_DIR, loadTaxonomy, taxonomyPresent } from './sessions-taxonomy.js';

function cpuMicros(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return d.user + d.system;
}

function main(): void {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      seed: { type: 'string', multiple: true, default: [DEFAULT_GENERATED_SEED] },
      transcripts: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!taxonomyPresent(DEFAULT_TAXONOMY_DIR)) {
    console.error(`bench:sessions-step-cost: no taxonomy at ${DEFAULT_TAXONOMY_DIR}: skipped`);
    return;
  }
  const knowledge = loadKnowledge();
  const taxonomy = loadTaxonomy(DEFAULT_TAXONOMY_DIR);
  const tree = loadFaultTree(DEFAULT_TAXONOMY_DIR);
  const sets: [string, BenchCase[]][] = values.seed.map((seed) => [
    seed,
    generateCases(tree, taxonomy, { seed, perCause: 12, instrumentAvailable: 0.5 }),
  ]);
  sets.push(['shared', loadCases(path.resolve(PROJECT_ROOT, '../shared/hvac-bench/sessions')).cases]);
  const lines: string[] = [];
  const steps: number[] = [];
  for (const [name, cases] of sets) {
    for (const c of cases) {
      const technician = new SimulatedTechnician(c, taxonomy);
      const probe = createSession(knowledge, { ...c.init });
      const readings = technician.initialReadings((q) => readingActionOf(probe.model.actions, q));
      let since = process.cpuUsage();
      let state = createSession(knowledge, { ...c.init, readings });
      steps.push(cpuMicros(since));
      const path: unknown[] = [];
      while (state.status === 'active') {
        const action = nextAction(state)!;
        const value = technician.answer(action);
        path.push([action.id, value]);
        since = process.cpuUsage();
        state = respond(state, { action_id: action.id, value });
        steps.push(cpuMicros(since));
      }
      lines.push(JSON.stringify([name, c.key, path, state.status, state.outcome]));
    }
  }
  const text = `${lines.join('\n')}\n`;
  if (values.transcripts) writeFileSync(values.transcripts, text);
  steps.sort((a, b) => a - b);
  const at = (q: number) => steps[Math.min(steps.length - 1, Math.floor(steps.length * q))]!;
  const total = steps.reduce((s, v) => s + v, 0);
  const report = {
    seeds: values.seed,
    sessions: lines.length,
    steps: steps.length,
    median_ms: at(0.5) / 1000,
    mean_ms: total / steps.length / 1000,
    p90_ms: at(0.9) / 1000,
    total_cpu_s: total / 1e6,
    transcripts_sha256: createHash('sha256').update(text).digest('hex'),
  };
  if (values.json) console.log(JSON.stringify(report));
  else
    console.log(
      `${report.sessions} sessions, ${report.steps} steps: CPU per step median ${report.median_ms.toFixed(2)} ms, mean ${report.mean_ms.toFixed(2)} ms, p90 ${report.p90_ms.toFixed(2)} ms (total ${report.total_cpu_s.toFixed(2)} s); transcripts ${report.transcripts_sha256.slice(0, 16)}`,
    );
}

if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('bench', 'sessions-step-cost.js')))
  main();
