/**
 * Cases generated from the peer benchmark's public taxonomy alone, never from its cases: a measure of
 * the guided sessions on installations nobody wrote a rule near.
 *
 *   npm run bench:sessions-generated [-- --seed S] [--per-cause N] [--instrument-available P] [--json]
 *                                       [--service BUNDLE | --engine]
 *
 * The sessions are driven as a client drives them, through the service layer (`Services.invoke`, as
 * bench/sessions-service.ts does for the shared cases): over BUNDLE, or over an empty bundle built for
 * the run (the generated units are of no brand any corpus holds, so no manual entry joins them).
 * `--engine` drives the engine directly instead (faster; the same figures, test/sessions/bench-generated).
 *
 * For every concludable cause of the fault tree (taxonomy/fault-tree-v3-*.json), N installations. Each
 * is a world of readings of the taxonomy's quantities (quantities-v3.json):
 * - a quantity the cause has an effect on shows that effect with the probability its likelihood tier
 *   gives (tier ratio r: r / (r + 1), so "fort" 0.91, "moyen" 0.75, "faible" 0.6), else a nominal value;
 *   where the fault tree gives an effect per operating state, the steady-running one is used (the
 *   nominal ranges are steady-running ranges);
 * - every other quantity reads nominal: a number drawn inside its default range, a qualitative
 *   quantity the first of its modalities that no cause of the fault tree names as an effect (the
 *   healthy one); a quantity whose every modality is some cause's effect (the fault light) is left
 *   unread;
 * - a low or high number is drawn outside the range by 30 to 100 % of a span (the range's width, at most
 *   80 % of its lower bound for a low value, so a reading stays positive).
 * The simulated technician (bench/sessions-simulator.ts, unchanged) answers what the taxonomy's actions
 * observe: every visual check (OBS-*) and the installation's gauge (MES-PRESSION); every other
 * reading action needs an instrument and is available with probability P per action and case (default
 * 0.5). Every piece of work of the taxonomy's action list is done when asked and reported: the
 * cause's repairs (the fault tree's `repair_actions`) clear the fault, any other work does not. The description is what a caller would say of one effect that shows
 * (COMPLAINTS, seven times in ten when one shows) or that the unit is in fault, and half the
 * installations come with one reading of the cause's first affected quantity already taken, as a call
 * often does ("the pressure was low").
 *
 * Truth: the causes of ours the taxonomy's cause maps to (CAUSE_MAP). Metrics: bench/sessions-eval.ts.
 * The generator draws from the seed, the cause id and the installation's number only.
 */
import crypto from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BundleBuilder } from '../pipeline/bundle/writer.js';
import { BundleReader } from '../src/bundle/reader.js';
import { BrandAliases } from '../src/catalog/brands.js';
import { loadKnowledge } from '../src/engine/sessions/knowledge.js';
import type { BenchCase, CaseStep } from './sessions-cases.js';
import { type CaseRow, prematureKinds, runCase, summarise } from './sessions-eval.js';
import { CAUSE_MAP } from './sessions-mapping.js';
import { evaluateThroughService, type ServiceRefusal } from './sessions-service.js';
import {
  DEFAULT_TAXONOMY_DIR,
  kindOf,
  loadTaxonomy,
  READING_KINDS,
  type Taxonomy,
  taxonomyPresent,
} from './sessions-taxonomy.js';

export const DEFAULT_GENERATED_SEED = 'heatsource-generated-1';

type Json = Record<string, unknown>;

interface Effect {
  quantity: string;
  direction?: string;
  value?: string;
  operating_state?: string;
  lr: string;
}

interface TreeCause {
  cause_id: string;
  effects: Effect[];
  repair_actions: string[];
}

export interface FaultTree {
  tiers: Record<string, number>;
  causes: TreeCause[];
  concludable: string[];
  /** Their quantity id -> the action that reads it (quantities-v3). */
  readBy: Record<string, string>;
  /** Their pieces of work on the installation (every action that is neither a reading, a dismantling nor an escalation). */
  work: string[];
  /** Reading actions a technician answers without an instrument. */
  noInstrument: Set<string>;
}

function readJson(dir: string, name: string): Json {
  return JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Json;
}

export function loadFaultTree(dir: string): FaultTree {
  const treeFile = readdirSync(dir).find((f) => f.startsWith('fault-tree-v3'));
  const priorsFile = readdirSync(dir).find((f) => f.startsWith('priors-v3'));
  if (!treeFile || !priorsFile) throw new Error(`no v3 fault tree or priors under ${dir}`);
  const tree = readJson(dir, treeFile);
  const priors = readJson(dir, priorsFile);
  const readBy: Record<string, string> = {};
  for (const q of (readJson(dir, 'quantities-v3.json').quantities as Json[]) ?? []) {
    if (typeof q.action_id === 'string') readBy[String(q.quantity_id)] = q.action_id;
  }
  const causes = (tree.causes as TreeCause[]).map((c) => ({
    cause_id: c.cause_id,
    effects: c.effects ?? [],
    repair_actions: c.repair_actions ?? [],
  }));
  const isWork = (id: string) => !READING_KINDS.has(kindOf(id)) && !['dem', 'esc'].includes(kindOf(id));
  // The fault tree names repairs the action list lacks (the purge of the water circuit): they are work
  // too, else the cause they repair could never be cleared.
  const work = [
    ...new Set([
      ...((readJson(dir, 'actions-v2.json').actions as Json[]) ?? []).map((a) => String(a.action_id)),
      ...causes.flatMap((c) => c.repair_actions),
    ]),
  ].filter(isWork);
  return {
    work,
    tiers: tree.lr_tiers as Record<string, number>,
    causes,
    concludable: (priors.concludable_causes as string[]) ?? [],
    readBy,
    // The gauge on the hydraulic module is read by looking at it, like the display and the air vent.
    noInstrument: new Set(['MES-PRESSION']),
  };
}

/** mulberry32 seeded by a SHA-256 digest: the same seed, cause and number draw the same installation. */
function rng(seed: string): () => number {
  let a = crypto.createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** A number of a band of the range [lo, hi]. */
function drawNumber(range: [number, number], band: string, random: () => number): number {
  const [lo, hi] = range;
  const u = 0.3 + 0.7 * random();
  if (band === 'low') return round2(lo - u * 0.8 * Math.min(hi - lo, lo > 0 ? lo : hi - lo));
  if (band === 'high') return round2(hi + u * (hi - lo));
  return round2(lo + (0.15 + 0.7 * random()) * (hi - lo));
}

/** The healthy modality of a qualitative quantity: the first that no cause names as an effect. */
function healthyModality(tree: FaultTree, taxonomy: Taxonomy, quantity: string): string | undefined {
  const named = new Set(
    tree.causes.flatMap((c) => c.effects.filter((e) => e.quantity === quantity).map((e) => e.value)),
  );
  return taxonomy.quantities[quantity]?.modalities.find((m) => !named.has(m));
}

/** The effect a cause has on a quantity in steady running (or in any state when only one is given). */
function effectOn(cause: TreeCause, quantity: string): Effect | undefined {
  const all = cause.effects.filter((e) => e.quantity === quantity);
  return all.find((e) => !e.operating_state || e.operating_state === 'regime_etabli') ?? all[0];
}

/** Whether a quantity is read by an action that reads other quantities too. */
function sharedAction(tree: FaultTree, action: string, quantity: string): boolean {
  return Object.entries(tree.readBy).some(([q, a]) => a === action && q !== quantity);
}

/**
 * What a technician says on the phone about a reading of theirs that is off, in plain trade French,
 * by their quantity id and effect (direction or modality). Written from the taxonomy's quantity list
 * alone; readings that take an instrument the caller would not have used (refrigerant pressures,
 * currents, a sensor's deviation) and positions one must go and check (valves, bypass) say nothing.
 */
const COMPLAINTS: Record<string, Record<string, string>> = {
  delta_t_eau: {
    high: "grand écart de température entre départ et retour d'eau",
    low: 'départ et retour presque à la même température',
  },
  debit_l_min: { low: "défaut de débit d'eau" },
  pression_circuit_bar: { low: "pression d'eau basse au manomètre" },
  purgeur: { crache_air: "le purgeur crache de l'air" },
  bruit_pompe: { claquement: 'claquement au niveau de la pompe' },
  led_defaut: { code: "un code défaut s'affiche" },
  t_depart: { high: 'température de départ trop haute' },
  givre: {
    localise: "givre par plaques sur l'unité extérieure",
    generalise: 'unité extérieure entièrement prise en glace',
  },
  condensats: { bouche: "de l'eau déborde sous l'unité extérieure" },
};

const GENERIC_COMPLAINT = 'la pompe à chaleur est en défaut';

export interface GenerateOptions {
  seed: string;
  perCause: number;
  instrumentAvailable: number;
}

export function generateCases(tree: FaultTree, taxonomy: Taxonomy, options: GenerateOptions): BenchCase[] {
  const cases: BenchCase[] = [];
  const affected = new Set(tree.causes.flatMap((c) => c.effects.map((e) => e.quantity)));
  for (const causeId of tree.concludable) {
    const cause = tree.causes.find((c) => c.cause_id === causeId);
    if (!cause) continue;
    for (let n = 0; n < options.perCause; n++) {
      const random = rng(`${options.seed}\u0000${causeId}\u0000${n}`);
      const available = new Map<string, boolean>();
      const canRead = (action: string) => {
        if (tree.noInstrument.has(action) || action.startsWith('OBS-')) return true;
        if (!available.has(action)) available.set(action, random() < options.instrumentAvailable);
        return available.get(action)!;
      };
      const steps: CaseStep[] = [];
      const initialReadings: Record<string, number | string> = {};
      let firstAffected: { quantity: string; value: number } | undefined;
      const said: string[] = [];
      for (const [quantity, q] of Object.entries(taxonomy.quantities)) {
        const action = tree.readBy[quantity];
        const effect = effectOn(cause, quantity);
        // Quantities no cause acts on and that one reading action shares with others (the return and
        // outdoor temperatures beside the flow temperature) would be drawn apart from the ones they
        // depend on: left unread rather than made inconsistent.
        if (!action || (!affected.has(quantity) && sharedAction(tree, action, quantity))) continue;
        const shows =
          effect !== undefined && random() < tree.tiers[effect.lr]! / (tree.tiers[effect.lr]! + 1);
        const range = q.nominal.default;
        let reading: CaseStep['reading'] = null;
        const phrase = shows ? COMPLAINTS[quantity]?.[effect.direction ?? effect.value ?? ''] : undefined;
        if (phrase) said.push(phrase);
        if (range) {
          const band =
            shows && effect.direction && effect.direction !== 'in_range' ? effect.direction : 'normal';
          reading = { quantity, value: drawNumber(range, band, random) };
          if (shows && !firstAffected) firstAffected = { quantity, value: reading.value! };
        } else {
          const modality = shows && effect.value ? effect.value : healthyModality(tree, taxonomy, quantity);
          if (modality) reading = { quantity, modality };
        }
        if (reading && canRead(action))
          steps.push({ action, text: '', reading, resolves: false, wrongPart: false });
      }
      if (firstAffected && random() < 0.5) initialReadings[firstAffected.quantity] = firstAffected.value;
      // The caller mentions one thing that is off, when there is one to say, seven times in ten.
      const symptom =
        said.length > 0 && random() < 0.7 ? said[Math.floor(random() * said.length)]! : GENERIC_COMPLAINT;
      // Any piece of work asked is done and reported: it clears the fault when it is a repair the fault
      // tree gives for this cause, and does not otherwise.
      for (const work of tree.work) {
        steps.push({
          action: work,
          text: '',
          reading: null,
          resolves: cause.repair_actions.includes(work),
          wrongPart: false,
        });
      }
      const id = `${causeId}-${n}`;
      cases.push({
        key: `generated:${id}`,
        id,
        format: 'v3',
        family: 'pac_air_eau',
        outOfFamily: false,
        init: { equipment: 'air_water', brand: 'unknown', model: 'unknown', symptom, context: {} },
        narrative: symptom,
        ageYears: null,
        truthLabel: causeId,
        trueCauses: CAUSE_MAP[causeId] ?? [],
        expectEscalation: false,
        expertPath: [],
        steps,
        initialReadings,
        am: null,
      });
    }
  }
  return cases;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)} %`;
}

/**
 * The generated cases scored as a client receives them: through the service layer over `bundle`, or
 * over an empty bundle written to a temporary folder and removed afterwards.
 */
export async function runThroughService(
  knowledge: ReturnType<typeof loadKnowledge>,
  taxonomy: Taxonomy,
  cases: BenchCase[],
  bundle?: string,
): Promise<{ rows: CaseRow[]; refused: ServiceRefusal[] }> {
  const dir = bundle === undefined ? mkdtempSync(path.join(os.tmpdir(), 'heatsource-generated-')) : undefined;
  try {
    let file = bundle;
    if (dir !== undefined) {
      file = path.join(dir, 'empty.bundle');
      new BundleBuilder(file, BrandAliases.load()).finish('empty');
    }
    const reader = new BundleReader(file!);
    try {
      const { report, refused } = await evaluateThroughService(reader, knowledge, taxonomy, cases);
      return { rows: report.per_case, refused };
    } finally {
      reader.close();
    }
  } finally {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      seed: { type: 'string', default: DEFAULT_GENERATED_SEED },
      'per-cause': { type: 'string', default: '12' },
      'instrument-available': { type: 'string', default: '0.5' },
      taxonomy: { type: 'string', default: DEFAULT_TAXONOMY_DIR },
      json: { type: 'boolean', default: false },
      service: { type: 'string' },
      engine: { type: 'boolean', default: false },
    },
  });
  if (values.engine && values.service !== undefined)
    throw new Error('--engine and --service exclude each other');
  if (!taxonomyPresent(values.taxonomy)) {
    console.error(`bench:sessions-generated: no taxonomy at ${values.taxonomy}: skipped`);
    return;
  }
  const perCause = Number(values['per-cause']);
  const instrumentAvailable = Number(values['instrument-available']);
  if (!(Number.isInteger(perCause) && perCause > 0)) throw new Error('--per-cause needs a positive integer');
  if (!(instrumentAvailable >= 0 && instrumentAvailable <= 1))
    throw new Error('--instrument-available needs a share in [0, 1]');
  const knowledge = loadKnowledge();
  const taxonomy = loadTaxonomy(values.taxonomy);
  const tree = loadFaultTree(values.taxonomy);
  const cases = generateCases(tree, taxonomy, { seed: values.seed, perCause, instrumentAvailable });
  let rows: CaseRow[];
  let refused: ServiceRefusal[] = [];
  if (values.engine) rows = cases.map((c) => runCase(knowledge, taxonomy, c));
  else ({ rows, refused } = await runThroughService(knowledge, taxonomy, cases, values.service));
  // A case the service refused is not scored: every refusal is reported, and the run fails.
  if (refused.length > 0) {
    console.error(`bench:sessions-generated: the service refused ${refused.length} case(s):`);
    for (const r of refused) console.error(`  ${r.case}: ${r.status} ${JSON.stringify(r.body)}`);
    process.exitCode = 1;
  }
  const byCause = new Map<string, CaseRow[]>();
  for (const r of rows) byCause.set(r.truth, [...(byCause.get(r.truth) ?? []), r]);
  const report = {
    seed: values.seed,
    measured_through: values.engine ? 'engine' : 'service',
    per_cause: perCause,
    instrument_available: instrumentAvailable,
    knowledge_version: knowledge.version,
    all: summarise(rows),
    premature_kinds: prematureKinds(rows),
    by_cause: Object.fromEntries([...byCause].map(([k, v]) => [k, summarise(v)])),
    wrong_names: Object.fromEntries(
      [...byCause].map(([k, v]) => [
        k,
        Object.fromEntries(
          [...new Set(v.filter((r) => r.premature).map((r) => r.cause!))].map((c) => [
            c,
            v.filter((r) => r.premature && r.cause === c).length,
          ]),
        ),
      ]),
    ),
  };
  if (values.json) {
    console.log(JSON.stringify(report));
    return;
  }
  const s = report.all;
  const lines = [
    `Guided troubleshooting on cases generated from the taxonomy (seed ${values.seed}, ${perCause} per cause, instruments available ${instrumentAvailable}), through the ${report.measured_through === 'engine' ? 'engine directly' : 'service layer'}`,
    '',
    '| cause (theirs) | cases | conv@5 | premature | wrong part | mean actions | answered | wrong names |',
    '|---|---|---|---|---|---|---|---|',
    ...[...byCause].map(([k, v]) => {
      const x = summarise(v);
      const wrong = Object.entries(report.wrong_names[k] ?? {})
        .map(([c, n]) => `${c} ${n}`)
        .join(', ');
      return `| ${k} | ${x.cases} | ${pct(x.conv5)} | ${pct(x.premature_closure_rate)} | ${pct(x.wrong_part_rate)} | ${x.mean_actions.toFixed(2)} | ${pct(x.answered_rate)} | ${wrong || '-'} |`;
    }),
    `| **all** | ${s.cases} | ${pct(s.conv5)} | ${pct(s.premature_closure_rate)} | ${pct(s.wrong_part_rate)} | ${s.mean_actions.toFixed(2)} | ${pct(s.answered_rate)} | |`,
    '',
    `conv@3 ${pct(s.conv3)}, conv@5 concluded ${pct(s.conv5_concluded)}, top-1 ${pct(s.top1)}; premature kinds: ${JSON.stringify(report.premature_kinds)}`,
  ];
  console.log(lines.join('\n'));
}

if (process.argv[1] && path.resolve(process.argv[1]).endsWith(path.join('bench', 'sessions-generated.js')))
  await main();
