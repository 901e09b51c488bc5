/**
 * Runs every case through the session engine with the simulated technician and scores the runs.
 *
 * A turn is an action the engine asked, answered or not. A case converges within k turns when the
 * session ends naming one of the true causes (concluded, or escalated with that cause) after at most
 * k turns. Wrong part: the session proposed a part swap for a cause that is not the true one (as an
 * action or as its concluded remedy), or an action the case marks as a needless replacement.
 * Premature closure: ended naming a cause that is not the true one, concluded on it or handed on with it
 * as the suspect. Escalation accuracy: the session
 * escalated exactly when the case expects an escalation. Top-1: the most probable hypothesis at the end
 * (the residual included) is a true cause. `conv5_concluded` counts only the sessions that concluded on
 * the true cause within five turns, not those that handed the job on naming it. `conv5_answered` counts only the actions the case could
 * answer: the cases record few readings, so many actions come back "unknown".
 */
import { createSession, nextAction, respond } from '../src/engine/sessions/index.js';
import type { Knowledge } from '../src/engine/sessions/knowledge-schema.js';
import { readingActionOf } from '../src/engine/sessions/model.js';
import type { ModelAction } from '../src/engine/sessions/types.js';
import type { BenchCase, CaseFormat } from './sessions-cases.js';
import { ACTION_MAP } from './sessions-mapping.js';
import { type SimulatedAnswer, SimulatedTechnician } from './sessions-simulator.js';
import type { Taxonomy } from './sessions-taxonomy.js';

export interface EvalOptions {
  budget?: number;
  threshold?: number;
}

export interface CaseRow {
  case: string;
  format: CaseFormat;
  family: string;
  out_of_family: boolean;
  truth: string;
  true_causes: string[];
  expected_escalation: boolean;
  status: string;
  reason: string | null;
  cause: string | null;
  remedy: string | null;
  turns: number;
  answered: number;
  expert_actions: number;
  conv3: boolean;
  conv5: boolean;
  /** Counting only the actions the case could answer (its readings are sparse). */
  conv5_answered: boolean;
  /** Converged by a conclusion, not by handing the job on with the cause named. */
  conv5_concluded: boolean;
  top1: boolean;
  top_hypothesis: string;
  wrong_part: boolean;
  premature: boolean;
  /**
   * How a premature closure came about (absent when the session did not end on a wrong cause): handed on
   * naming a wrong suspect, or concluded on a wrong cause; in either case after an answered check that
   * the knowledge says tells the named cause from the true one (the check looked separating but the
   * answer went the wrong way), or before any such check (the lead came from the description or from
   * checks that do not tell the two apart).
   */
  premature_kind?: PrematureKind;
  escalated: boolean;
  escalation_ok: boolean;
  path: { action: string; value: SimulatedAnswer }[];
}

export type PrematureKind =
  | 'handed_on_separated'
  | 'handed_on_unseparated'
  | 'concluded_separated'
  | 'concluded_unseparated';

/** Outcome rows further apart than this (total variation) tell two causes apart. */
const SEPARATING_DISTANCE = 0.3;

function rowOf(a: ModelAction, cause: string): number[] | undefined {
  return a.table ? (a.table.rows[cause] ?? a.table.baseline) : undefined;
}

/** Whether an answered check of the path predicts its outcomes differently for the two causes. */
function toldApart(run: SessionRun, named: string, truth: string[]): boolean {
  return run.path.some((step) => {
    if (isUnknown(step.value)) return false;
    const a = run.actions.find((x) => x.id === step.action);
    const own = a && rowOf(a, named);
    if (!a || !own) return false;
    return truth.some((t) => {
      const other = rowOf(a, t)!;
      const tv = own.reduce((sum, x, i) => sum + Math.abs(x - (other[i] ?? 0)), 0) / 2;
      return tv >= SEPARATING_DISTANCE;
    });
  });
}

/** Premature closures counted by how they came about (totals only: no case is named). */
export function prematureKinds(rows: CaseRow[]): Record<PrematureKind, number> {
  const counts: Record<PrematureKind, number> = {
    handed_on_separated: 0,
    handed_on_unseparated: 0,
    concluded_separated: 0,
    concluded_unseparated: 0,
  };
  for (const r of rows) if (r.premature_kind) counts[r.premature_kind] += 1;
  return counts;
}

export interface Summary {
  cases: number;
  conv3: number;
  conv5: number;
  top1: number;
  mean_actions: number;
  mean_expert_actions: number;
  wrong_part_rate: number;
  premature_closure_rate: number;
  escalation_accuracy: number;
  /** Share of the asked actions the case had a reading for. */
  answered_rate: number;
  conv5_answered: number;
  conv5_concluded: number;
}

export interface EvaluationReport extends Summary {
  by_format: Partial<Record<CaseFormat, Summary>>;
  heat_pumps_only: Summary;
  per_case: CaseRow[];
}

function trapActions(c: BenchCase): Set<string> {
  const traps = new Set<string>();
  const theirs = new Set(c.steps.filter((s) => s.wrongPart).map((s) => s.action));
  for (const [ours, ids] of Object.entries(ACTION_MAP)) if (ids.some((id) => theirs.has(id))) traps.add(ours);
  return traps;
}

/**
 * Our causes behind a case's truth. v2/v3 name a taxonomy cause id (CAUSE_MAP); an AM case states its
 * cause in free text, so its truth is read from its expert path instead: the causes fixed by the last
 * piece of work on the path (through ACTION_MAP), or those our knowledge hands on with its escalation.
 */
export function trueCausesOf(knowledge: Knowledge, c: BenchCase): string[] {
  if (c.format !== 'am') return c.trueCauses;
  for (const theirs of [...c.expertPath].reverse()) {
    const ours = Object.entries(ACTION_MAP)
      .filter(([, ids]) => ids.includes(theirs))
      .map(([id]) => knowledge.actions.find((a) => a.id === id))
      .filter((a) => a !== undefined);
    const fixed = ours.flatMap((a) => Object.keys(a.fixes ?? {}));
    if (fixed.length > 0) return [...new Set(fixed)];
    const handedOn = knowledge.causes
      .filter((cause) => ours.some((a) => a.kind === 'escalate' && a.id === cause.remedy))
      .map((cause) => cause.id);
    if (handedOn.length > 0) return handedOn;
  }
  return [];
}

/**
 * What a client sees of a finished session, however it was driven: its status and outcome, the actions
 * asked with the technician's answers, the most probable hypothesis, and the model's actions (to tell
 * part swaps and fixes apart when scoring).
 */
export interface SessionRun {
  status: string;
  reason: string | null;
  cause: string | null;
  remedy: string | null;
  top: string;
  path: { action: string; value: SimulatedAnswer }[];
  actions: readonly ModelAction[];
}

function isUnknown(value: SimulatedAnswer): value is { unknown: true } {
  return typeof value === 'object';
}

/** Drives one case through the engine directly (fast: the leave-one-format-out grid uses it). */
export function runOnEngine(
  knowledge: Knowledge,
  taxonomy: Taxonomy,
  c: BenchCase,
  options: EvalOptions = {},
): SessionRun {
  const settings = {
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
    ...(options.threshold !== undefined ? { threshold: options.threshold } : {}),
  };
  const technician = new SimulatedTechnician(c, taxonomy);
  const probe = createSession(knowledge, { ...c.init, ...settings });
  const readings = technician.initialReadings((q) => readingActionOf(probe.model.actions, q));
  let state = createSession(knowledge, { ...c.init, ...settings, readings });
  const path: SessionRun['path'] = [];
  while (state.status === 'active') {
    const action = nextAction(state)!;
    const value = technician.answer(action);
    path.push({ action: action.id, value });
    state = respond(state, { action_id: action.id, value });
  }
  const outcome = state.outcome!;
  return {
    status: state.status,
    reason: outcome.reason,
    cause: outcome.cause_id,
    remedy: outcome.action_id,
    top: Object.entries(state.posterior).sort((a, b) => b[1] - a[1])[0]![0],
    path,
    actions: state.model.actions,
  };
}

export function runCase(
  knowledge: Knowledge,
  taxonomy: Taxonomy,
  c: BenchCase,
  options: EvalOptions = {},
): CaseRow {
  return scoreRun(knowledge, c, runOnEngine(knowledge, taxonomy, c, options));
}

/** Scores a finished session against the case's truth. */
export function scoreRun(knowledge: Knowledge, c: BenchCase, run: SessionRun): CaseRow {
  const trueCauses = trueCausesOf(knowledge, c);
  const truth = new Set(trueCauses);
  const { path, status } = run;
  const turns = path.length;
  const answered = path.filter((p) => !isUnknown(p.value)).length;
  const identified = run.cause;
  const found = identified !== null && truth.has(identified);
  const top = run.top;
  const remedy = run.remedy ? run.actions.find((a) => a.id === run.remedy) : undefined;

  const traps = trapActions(c);
  const proposed = [...path.map((p) => p.action), ...(status === 'concluded' && remedy ? [remedy.id] : [])];
  const fixesTruth = (id: string) => {
    const a = run.actions.find((x) => x.id === id);
    return Object.keys(a?.fixes ?? {}).some((cause) => truth.has(cause));
  };
  const isSwap = (id: string) => run.actions.find((x) => x.id === id)?.replacement === true;
  // A trap the case names counts unless the action is the fix of the true cause (some traps are
  // conditional, e.g. "replace the compressor without a megger test").
  const wrongPart = proposed.some((id) => (isSwap(id) || traps.has(id)) && !fixesTruth(id));
  const premature = identified !== null && !found;
  const prematureKind: PrematureKind | undefined = !premature
    ? undefined
    : `${status === 'concluded' ? 'concluded' : 'handed_on'}_${toldApart(run, identified!, trueCauses) ? 'separated' : 'unseparated'}`;

  return {
    case: c.key,
    format: c.format,
    family: c.family,
    out_of_family: c.outOfFamily,
    truth: c.truthLabel,
    true_causes: trueCauses,
    expected_escalation: c.expectEscalation,
    status,
    reason: run.reason,
    cause: identified,
    remedy: run.remedy,
    turns,
    answered,
    expert_actions: c.expertPath.length,
    conv3: found && turns <= 3,
    conv5: found && turns <= 5,
    conv5_answered: found && answered <= 5,
    conv5_concluded: found && turns <= 5 && status === 'concluded',
    top1: truth.has(top),
    top_hypothesis: top,
    wrong_part: wrongPart,
    // Ending on a wrong cause misleads whether the session concludes on it or hands the job on with it.
    premature,
    ...(prematureKind ? { premature_kind: prematureKind } : {}),
    escalated: status === 'escalated',
    escalation_ok: (status === 'escalated') === c.expectEscalation,
    path,
  };
}

function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : 0;
}

function rate(rows: CaseRow[], pick: (r: CaseRow) => boolean): number {
  return rows.length ? rows.filter(pick).length / rows.length : 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function summarise(rows: CaseRow[]): Summary {
  const turns = rows.reduce((s, r) => s + r.turns, 0);
  return {
    cases: rows.length,
    conv3: round(rate(rows, (r) => r.conv3)),
    conv5: round(rate(rows, (r) => r.conv5)),
    top1: round(rate(rows, (r) => r.top1)),
    mean_actions: round(mean(rows.map((r) => r.turns))),
    mean_expert_actions: round(mean(rows.map((r) => r.expert_actions))),
    wrong_part_rate: round(rate(rows, (r) => r.wrong_part)),
    premature_closure_rate: round(rate(rows, (r) => r.premature)),
    escalation_accuracy: round(rate(rows, (r) => r.escalation_ok)),
    answered_rate: round(turns ? rows.reduce((s, r) => s + r.answered, 0) / turns : 0),
    conv5_answered: round(rate(rows, (r) => r.conv5_answered)),
    conv5_concluded: round(rate(rows, (r) => r.conv5_concluded)),
  };
}

/** Runs and scores every case. */
export function evaluateCases(
  knowledge: Knowledge,
  taxonomy: Taxonomy,
  cases: BenchCase[],
  options: EvalOptions = {},
): EvaluationReport {
  return summariseRows(cases.map((c) => runCase(knowledge, taxonomy, c, options)));
}

/** The report over scored cases: all of them, by format, and heat pumps only. */
export function summariseRows(rows: CaseRow[]): EvaluationReport {
  const byFormat: EvaluationReport['by_format'] = {};
  for (const format of ['v2', 'v3', 'am'] as const) {
    const subset = rows.filter((r) => r.format === format);
    if (subset.length > 0) byFormat[format] = summarise(subset);
  }
  return {
    ...summarise(rows),
    by_format: byFormat,
    heat_pumps_only: summarise(rows.filter((r) => !r.out_of_family)),
    per_case: rows,
  };
}
