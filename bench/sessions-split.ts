/**
 * Guided troubleshooting on a seeded half of each case format, with the other half held out.
 *
 *   npm run bench:sessions-split [-- --seed S] [--json] [--in-sample-cases]
 *     [--description as-written|withheld|own-phrases-removed]
 *
 * Each format's cases (v2, v3, AM) are ordered by a digest of the seed and the case id, and the first
 * half (rounded up) is the in-sample half (one installation written in two formats ranks the same in both,
 * so it is not read in one and held out in the other): knowledge and policy changes may be written while reading its
 * per-case paths (`--in-sample-cases` prints them). The held-out half is only ever reported as totals,
 * so a change can be judged on cases nobody looked at while making it. The figures of all the cases are
 * printed beside both halves. Metrics: bench/sessions-eval.ts.
 *
 * `--description withheld` runs every case without the technician's words (the code, the context and
 * the initial readings stay): what the figures owe to the wording of descriptions the knowledge's
 * phrases were written beside, which a case written by someone else will not repeat.
 * `--description own-phrases-removed` keeps the words but runs each case without the knowledge's
 * phrases that occur in its description and in no other installation's (bench/sessions-own-phrases.ts).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadKnowledge } from '../src/engine/sessions/knowledge.js';
import { PROJECT_ROOT } from '../src/project-path.js';
import { orderBySeed } from './seeded-order.js';
import { type BenchCase, loadCases } from './sessions-cases.js';
import { type CaseRow, prematureKinds, runCase, type Summary, summarise } from './sessions-eval.js';
import { ownPhrasesRemoved } from './sessions-own-phrases.js';
import { DEFAULT_TAXONOMY_DIR, loadTaxonomy, taxonomyPresent } from './sessions-taxonomy.js';

// Not imported from sessions.ts: importing that script would run it.
const DEFAULT_CASES_DIR = path.resolve(PROJECT_ROOT, '../shared/hvac-bench/sessions');

export const DEFAULT_SEED = 'heatsource-sessions-split-1';

export interface Split {
  inSample: BenchCase[];
  heldOut: BenchCase[];
}

/** Half of each format in sample, the other half held out, by the seed alone (not by the cases' contents). */
export function splitCases(cases: BenchCase[], seed: string): Split {
  const split: Split = { inSample: [], heldOut: [] };
  const formats = [...new Set(cases.map((c) => c.format))];
  for (const format of formats) {
    const ofFormat = new Map(cases.filter((c) => c.format === format).map((c) => [c.id, c]));
    const ordered = orderBySeed([...ofFormat.keys()], seed).map((id) => ofFormat.get(id)!);
    const half = Math.ceil(ordered.length / 2);
    split.inSample.push(...ordered.slice(0, half));
    split.heldOut.push(...ordered.slice(half));
  }
  return split;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)} %`;
}

function row(name: string, s: Summary): string {
  return `| ${name} | ${s.cases} | ${pct(s.conv3)} | ${pct(s.conv5)} | ${pct(s.top1)} | ${s.mean_actions.toFixed(2)} | ${pct(s.wrong_part_rate)} | ${pct(s.premature_closure_rate)} | ${pct(s.escalation_accuracy)} | ${pct(s.answered_rate)} |`;
}

function main(): void {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      seed: { type: 'string', default: DEFAULT_SEED },
      cases: { type: 'string', default: DEFAULT_CASES_DIR },
      taxonomy: { type: 'string', default: DEFAULT_TAXONOMY_DIR },
      json: { type: 'boolean', default: false },
      'in-sample-cases': { type: 'boolean', default: false },
      description: { type: 'string', default: 'as-written' },
    },
  });
  const DESCRIPTIONS = ['as-written', 'withheld', 'own-phrases-removed'];
  if (!DESCRIPTIONS.includes(values.description)) {
    // A usage error: one line and exit status 2, nothing measured.
    console.error(`bench:sessions-split: --description takes ${DESCRIPTIONS.join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const withheld = values.description === 'withheld';
  if (
    !statSync(values.cases, { throwIfNoEntry: false })?.isDirectory() ||
    !taxonomyPresent(values.taxonomy)
  ) {
    console.error(
      `bench:sessions-split: no cases at ${values.cases} or no taxonomy at ${values.taxonomy}: skipped`,
    );
    return;
  }
  const knowledge = loadKnowledge();
  const taxonomy = loadTaxonomy(values.taxonomy);
  const { cases } = loadCases(values.cases);
  const split = splitCases(cases, values.seed);
  const asRun = (c: BenchCase): BenchCase =>
    withheld ? { ...c, init: { ...c.init, symptom: undefined }, narrative: '' } : c;
  const knowledgeFor =
    values.description === 'own-phrases-removed' ? ownPhrasesRemoved(knowledge, cases) : () => knowledge;
  const score = (list: BenchCase[]): CaseRow[] =>
    list.map((c) => runCase(knowledgeFor(c), taxonomy, asRun(c)));
  const inRows = score(split.inSample);
  const outRows = score(split.heldOut);
  const report = {
    seed: values.seed,
    knowledge_version: knowledge.version,
    description: values.description,
    in_sample: summarise(inRows),
    held_out: summarise(outRows),
    all: summarise([...inRows, ...outRows]),
    premature_kinds: {
      in_sample: prematureKinds(inRows),
      held_out: prematureKinds(outRows),
    },
  };
  if (values.json) {
    console.log(JSON.stringify(report));
    return;
  }
  const lines = [
    `Guided troubleshooting, half of each format held out (seed ${values.seed})${values.description === 'as-written' ? '' : `, descriptions ${values.description}`}`,
    '',
    '| set | cases | conv@3 | conv@5 | top-1 | mean actions | wrong part | premature closure | escalation accuracy | answered |',
    '|---|---|---|---|---|---|---|---|---|---|',
    row('in sample', report.in_sample),
    row('held out', report.held_out),
    row('all', report.all),
    '',
    '| premature closures (counts; separated: an answered check the knowledge says tells the named cause from the true one) | handed on, separated | handed on, not separated | concluded, separated | concluded, not separated |',
    '|---|---|---|---|---|',
    ...(['in_sample', 'held_out'] as const).map((set) => {
      const k = report.premature_kinds[set];
      return `| ${set.replace('_', ' ')} | ${k.handed_on_separated} | ${k.handed_on_unseparated} | ${k.concluded_separated} | ${k.concluded_unseparated} |`;
    }),
  ];
  if (values['in-sample-cases']) {
    lines.push(
      '',
      '| in-sample case | truth | status | cause | turns | conv@5 | premature | wrong part | path |',
    );
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const r of inRows) {
      const trail = r.path
        .map((p) => `${p.action}=${typeof p.value === 'object' ? '?' : String(p.value)}`)
        .join(', ');
      lines.push(
        `| ${r.case} | ${r.true_causes.join(' ')} | ${r.status} (${r.reason}) | ${r.cause ?? '-'} | ${r.turns} | ${r.conv5 ? 'yes' : 'no'} | ${r.premature ? 'YES' : 'no'} | ${r.wrong_part ? 'YES' : 'no'} | ${trail} |`,
      );
    }
  }
  console.log(lines.join('\n'));
}

main();
