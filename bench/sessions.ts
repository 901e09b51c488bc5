/**
 * Guided-troubleshooting evaluation against the peer benchmark's cases.
 *
 *   npm run bench:sessions [-- --cases DIR] [--json] [--taxonomy DIR] [--lofo] [--budget N] [--threshold P]
 *                          [--service BUNDLE]
 *
 * Default cases: ../shared/hvac-bench/sessions (relative to the project root); every format found
 * there (v2 and v3 JSON lines, AM JSON files) is read. A simulated technician answers each action
 * from the case's readings through the peer's public taxonomy (--taxonomy, default
 * ../shared/hvac-bench/taxonomy) and the id mapping in bench/sessions-mapping.ts, and "unknown" where
 * the case has no reading. With --json one JSON object is printed; otherwise markdown tables.
 * Definitions of the metrics: bench/sessions-eval.ts. With --service the figures are measured through
 * the service layer over BUNDLE, as a client receives them (bench/sessions-service.ts), and the
 * engine-level figures are printed beside them; --lofo always runs at engine level (its grid varies
 * settings that are not request fields).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs as parseCliArgs } from 'node:util';
import { BundleReader } from '../src/bundle/reader.js';
import { loadKnowledge } from '../src/engine/sessions/knowledge.js';
import { PROJECT_ROOT } from '../src/project-path.js';
import { loadCases } from './sessions-cases.js';
import {
  type EvalOptions,
  type EvaluationReport,
  evaluateCases,
  type Summary,
  summarise,
} from './sessions-eval.js';
import { type LofoReport, leaveOneFormatOut, type Tunables } from './sessions-lofo.js';
import { evaluateThroughService, type ServiceRefusal } from './sessions-service.js';
import { DEFAULT_TAXONOMY_DIR, loadTaxonomy, taxonomyPresent } from './sessions-taxonomy.js';

interface Args {
  cases: string;
  taxonomy: string;
  json: boolean;
  lofo: boolean;
  service: string | undefined;
  options: EvalOptions;
}

export const DEFAULT_CASES_DIR = path.resolve(PROJECT_ROOT, '../shared/hvac-bench/sessions');

function parseArgs(argv: string[]): Args {
  const { values } = parseCliArgs({
    args: argv,
    options: {
      cases: { type: 'string', default: DEFAULT_CASES_DIR },
      taxonomy: { type: 'string', default: DEFAULT_TAXONOMY_DIR },
      json: { type: 'boolean', default: false },
      lofo: { type: 'boolean', default: false },
      service: { type: 'string' },
      budget: { type: 'string' },
      threshold: { type: 'string' },
    },
  });
  const args: Args = {
    cases: path.resolve(values.cases),
    taxonomy: path.resolve(values.taxonomy),
    json: values.json,
    lofo: values.lofo,
    service: values.service === undefined ? undefined : path.resolve(values.service),
    options: {},
  };
  if (values.budget !== undefined) args.options.budget = Number(values.budget);
  if (values.threshold !== undefined) args.options.threshold = Number(values.threshold);
  const { budget, threshold } = args.options;
  if (budget !== undefined && !(Number.isInteger(budget) && budget > 0))
    throw new Error('--budget needs a positive integer');
  if (threshold !== undefined && !(threshold > 0.5 && threshold < 1))
    throw new Error('--threshold needs a value in (0.5, 1)');
  if (args.service !== undefined && !statSync(args.service, { throwIfNoEntry: false })?.isFile())
    throw new Error(`--service needs a bundle file: none at ${args.service}`);
  if (args.service !== undefined && threshold !== undefined)
    throw new Error('--threshold is not a request field: it cannot go with --service');
  return args;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)} %`;
}

const TABLE_HEAD =
  '| set | cases | conv@3 | conv@5 | top-1 | mean actions | expert actions | wrong part | premature closure | escalation accuracy | answered | conv@5 answered only | conv@5 concluded |';
const TABLE_RULE = '|---|---|---|---|---|---|---|---|---|---|---|---|---|';

function summaryRow(name: string, s: Summary): string {
  return `| ${name} | ${s.cases} | ${pct(s.conv3)} | ${pct(s.conv5)} | ${pct(s.top1)} | ${s.mean_actions.toFixed(2)} | ${s.mean_expert_actions.toFixed(2)} | ${pct(s.wrong_part_rate)} | ${pct(s.premature_closure_rate)} | ${pct(s.escalation_accuracy)} | ${pct(s.answered_rate)} | ${pct(s.conv5_answered)} | ${pct(s.conv5_concluded)} |`;
}

function markdown(
  report: EvaluationReport,
  dir: string,
  skipped: { file: string; reason: string }[],
): string {
  const lines = [
    `Guided troubleshooting on ${report.cases} cases from ${dir}`,
    '',
    TABLE_HEAD,
    TABLE_RULE,
    summaryRow('all', report),
  ];
  for (const [format, s] of Object.entries(report.by_format)) lines.push(summaryRow(format, s));
  lines.push(summaryRow('heat pumps only', report.heat_pumps_only));
  lines.push(
    '',
    '| case | truth | status | cause | turns | expert | conv@5 | wrong part | escalation ok | path |',
  );
  lines.push('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of report.per_case) {
    const trail = r.path
      .map((p) => `${p.action}=${typeof p.value === 'object' ? '?' : String(p.value)}`)
      .join(', ');
    lines.push(
      `| ${r.case} | ${r.truth} | ${r.status} (${r.reason}) | ${r.cause ?? '-'} | ${r.turns} | ${r.expert_actions} | ${r.conv5 ? 'yes' : 'no'} | ${r.wrong_part ? 'YES' : 'no'} | ${r.escalation_ok ? 'yes' : 'no'} | ${trail} |`,
    );
  }
  for (const s of skipped) lines.push(`skipped ${s.file}: ${s.reason}`);
  return lines.join('\n');
}

function tunables(t: Tunables): string {
  return `threshold ${t.threshold}, settled ${t.settled_threshold}, quick gain ${t.quick_min_gain}, unanswered streak ${t.unanswered_streak}, suspect at ${t.suspect_at}`;
}

function serviceMarkdown(bundle: string, engine: EvaluationReport, refused: ServiceRefusal[]): string {
  const lines = [
    '',
    `Measured through the service layer over ${bundle}; the same cases driven through the engine directly:`,
    '',
    TABLE_HEAD,
    TABLE_RULE,
    summaryRow('engine level', engine),
  ];
  for (const r of refused) lines.push(`- refused ${r.case}: ${r.status} ${JSON.stringify(r.body)}`);
  return lines.join('\n');
}

function lofoMarkdown(lofo: LofoReport): string {
  const lines = [
    '',
    `Leave one format out (${lofo.grid_points} grid points; knowledge and policy frozen)`,
    '',
    TABLE_HEAD,
    TABLE_RULE,
    summaryRow('out of sample (pooled)', lofo.pooled),
  ];
  for (const f of lofo.folds) lines.push(summaryRow(`held out: ${f.held_out}`, f.test));
  lines.push(summaryRow('all-in (tuned on all, in sample)', lofo.all_in.summary), '');
  for (const f of lofo.folds)
    lines.push(`- held out ${f.held_out}: chosen on the others: ${tunables(f.chosen)}`);
  lines.push(`- all-in: ${tunables(lofo.all_in.chosen)}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench:sessions: ${(error as Error).message}`);
    process.exitCode = 2;
    return;
  }
  if (!statSync(args.cases, { throwIfNoEntry: false })?.isDirectory()) {
    const reason = `no cases folder at ${args.cases}: evaluation skipped`;
    if (args.json) console.log(JSON.stringify({ cases: 0, skipped: reason }));
    else console.error(reason);
    return;
  }
  if (!taxonomyPresent(args.taxonomy)) {
    const reason = `no taxonomy at ${args.taxonomy}: the simulated technician has no vocabulary, evaluation skipped`;
    if (args.json) console.log(JSON.stringify({ cases: 0, skipped: reason }));
    else console.error(reason);
    return;
  }
  const knowledge = loadKnowledge();
  const taxonomy = loadTaxonomy(args.taxonomy);
  const { cases, skipped } = loadCases(args.cases);
  const engine = evaluateCases(knowledge, taxonomy, cases, args.options);
  let report = engine;
  let refused: ServiceRefusal[] = [];
  if (args.service !== undefined) {
    const reader = new BundleReader(args.service);
    try {
      ({ report, refused } = await evaluateThroughService(reader, knowledge, taxonomy, cases, args.options));
    } finally {
      reader.close();
    }
  }
  const lofo = args.lofo ? leaveOneFormatOut(knowledge, taxonomy, cases, args.options) : undefined;
  if (args.json)
    console.log(
      JSON.stringify({
        ...report,
        ...(lofo ? { leave_one_format_out: lofo } : {}),
        ...(args.service !== undefined
          ? {
              measured_through: 'service',
              bundle: args.service,
              engine_level: summarise(engine.per_case),
              refused,
            }
          : { measured_through: 'engine' }),
        knowledge_version: knowledge.version,
        skipped_files: skipped,
      }),
    );
  else {
    console.log(markdown(report, args.cases, skipped));
    if (args.service !== undefined) console.log(serviceMarkdown(args.service, engine, refused));
    if (lofo) console.log(lofoMarkdown(lofo));
  }
}

void main();
