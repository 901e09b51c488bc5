import { InvalidResponseError } from './errors.js';
import type { AnswerValue, ExpectedNumber, ModelAction, SessionModel } from './types.js';

export type Distribution = Record<string, number>;

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

/**
 * Band weights of a numeric reading: values well inside a band count fully for it; within `margin`
 * of a range end they are shared between the two bands, so a reading on the boundary is weak evidence.
 */
export function bandWeights(expected: ExpectedNumber, value: number): Record<string, number> {
  const x = expected.absolute ? Math.abs(value) : value;
  if (expected.zero !== null && x <= expected.zero) return { zero: 1 };
  const [lo, hi] = expected.nominal_range;
  const m = expected.margin;
  const low = expected.sided === 'upper' ? 0 : clamp01((lo + m - x) / (2 * m));
  const high = expected.sided === 'lower' ? 0 : clamp01((x - (hi - m)) / (2 * m));
  const weights: Record<string, number> = { normal: Math.max(0, 1 - low - high) };
  if (low > 0) weights.low = low;
  if (high > 0) weights.high = high;
  return weights;
}

/** Checks a value against what the action expects and returns its weight on each outcome. */
export function answerWeights(action: ModelAction, value: AnswerValue): number[] {
  const table = action.table;
  const expected = action.expected;
  if (expected.type === 'number') {
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new InvalidResponseError(`action ${action.id} expects a number (${expected.unit})`);
    }
    const plausible = expected.plausible_range;
    if (plausible && (value < plausible[0] || value > plausible[1])) {
      throw new InvalidResponseError(
        `action ${action.id}: ${value} ${expected.unit} is not a plausible reading (plausible ${plausible[0]} to ${plausible[1]} ${expected.unit}); check the value and its unit`,
      );
    }
    const weights = bandWeights(expected, value);
    return (table?.outcomes ?? []).map((o) => weights[o] ?? 0);
  }
  if (expected.type === 'boolean') {
    if (typeof value !== 'boolean')
      throw new InvalidResponseError(`action ${action.id} expects true or false`);
    return (table?.outcomes ?? ['true', 'false']).map((o) => (o === String(value) ? 1 : 0));
  }
  if (typeof value !== 'string' || !expected.choices.some((c) => c.id === value)) {
    const ids = expected.choices.map((c) => c.id).join(', ');
    throw new InvalidResponseError(`action ${action.id} expects one of: ${ids}`);
  }
  return (table?.outcomes ?? []).map((o) => (o === value ? 1 : 0));
}

export function likelihoodRow(action: ModelAction, hypothesisId: string): number[] {
  const table = action.table!;
  return table.rows[hypothesisId] ?? table.baseline;
}

/** Bayes' rule: multiplies each hypothesis by the likelihood of the (possibly soft) answer. */
export function update(
  model: SessionModel,
  prior: Distribution,
  action: ModelAction,
  weights: number[],
): Distribution {
  if (!action.table) return { ...prior };
  const next: Distribution = {};
  let total = 0;
  for (const h of model.hypotheses) {
    const row = likelihoodRow(action, h.id);
    let likelihood = 0;
    for (let i = 0; i < row.length; i++) likelihood += (weights[i] ?? 0) * row[i]!;
    const p = (prior[h.id] ?? 0) * likelihood;
    next[h.id] = p;
    total += p;
  }
  if (!(total > 0)) return { ...prior };
  for (const id of Object.keys(next)) next[id] = next[id]! / total;
  return next;
}

export function priorOf(model: SessionModel): Distribution {
  return Object.fromEntries(model.hypotheses.map((h) => [h.id, h.prior]));
}

/** Entropies already worked out, by beliefs (each check's gain starts from the same one). */
const entropyCache = new WeakMap<Distribution, number>();

export function entropy(p: Distribution): number {
  const known = entropyCache.get(p);
  if (known !== undefined) return known;
  const h = entropyOf(p);
  entropyCache.set(p, h);
  return h;
}

function entropyOf(p: Distribution): number {
  let h = 0;
  for (const v of Object.values(p)) if (v > 0) h -= v * Math.log2(v);
  return h;
}

/** Each hypothesis's row of an action's table, in the model's order: fixed for a model, so looked up once. */
const rowsCache = new WeakMap<ModelAction, WeakMap<SessionModel, readonly number[][]>>();

function rowsOf(model: SessionModel, action: ModelAction): readonly number[][] {
  let byModel = rowsCache.get(action);
  const known = byModel?.get(model);
  if (known) return known;
  const rows = model.hypotheses.map((h) => likelihoodRow(action, h.id));
  if (!byModel) {
    byModel = new WeakMap();
    rowsCache.set(action, byModel);
  }
  byModel.set(model, rows);
  return rows;
}

/** Probability of each outcome of the action under the current beliefs. */
export function predictive(model: SessionModel, p: Distribution, action: ModelAction): number[] {
  const table = action.table!;
  const out = table.outcomes.map(() => 0);
  const rows = rowsOf(model, action);
  const hypotheses = model.hypotheses;
  for (let j = 0; j < hypotheses.length; j++) {
    const ph = p[hypotheses[j]!.id] ?? 0;
    if (ph === 0) continue;
    const row = rows[j]!;
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + ph * row[i]!;
  }
  return out;
}

export interface Branch {
  probability: number;
  posterior: Distribution;
}

/**
 * Branches already worked out, by beliefs and action. One step weighs every check and every repair against
 * the same beliefs, several times over (information gain, expected cost after it, the repair tried as a
 * test), so each is computed once. Beliefs are never changed in place (`update` returns new ones), which
 * is what makes the object a key; a WeakMap lets them go with the step that made them.
 */
const branchCache = new WeakMap<Distribution, Map<ModelAction, readonly Branch[]>>();

/**
 * Bayes' rule for a certain answer (outcome `k`), as `update` with a weight of one on `k` and zero
 * elsewhere works it out: the likelihood is the row's entry itself (adding zeros changes no sum), the
 * same products in the same order, so the beliefs are the same to the last bit.
 */
function updateOnOutcome(
  model: SessionModel,
  prior: Distribution,
  rows: readonly number[][],
  k: number,
): Distribution {
  const next: Distribution = {};
  const hypotheses = model.hypotheses;
  let total = 0;
  for (let j = 0; j < hypotheses.length; j++) {
    const id = hypotheses[j]!.id;
    const p = (prior[id] ?? 0) * (rows[j]![k] ?? 0);
    next[id] = p;
    total += p;
  }
  if (!(total > 0)) return { ...prior };
  for (const id of Object.keys(next)) next[id] = next[id]! / total;
  return next;
}

/** Posterior after each outcome of the action, with the outcome's predicted probability. Read only. */
export function branches(model: SessionModel, p: Distribution, action: ModelAction): readonly Branch[] {
  let byAction = branchCache.get(p);
  const known = byAction?.get(action);
  if (known) return known;
  const pred = predictive(model, p, action);
  const rows = rowsOf(model, action);
  const out = pred.map((probability, i) => ({ probability, posterior: updateOnOutcome(model, p, rows, i) }));
  if (!byAction) {
    byAction = new Map();
    branchCache.set(p, byAction);
  }
  byAction.set(action, out);
  return out;
}

/** Gains already worked out, by beliefs and action (the choice of a step weighs one check several times). */
const gainCache = new WeakMap<Distribution, Map<ModelAction, number>>();

/** Expected information gain in bits, outcomes weighted by their predicted probability. */
export function expectedGain(model: SessionModel, p: Distribution, action: ModelAction): number {
  if (!action.table || Object.keys(action.table.rows).length === 0) return 0;
  let byAction = gainCache.get(p);
  const known = byAction?.get(action);
  if (known !== undefined) return known;
  const before = entropy(p);
  let after = 0;
  for (const b of branches(model, p, action)) {
    if (b.probability > 0) after += b.probability * entropy(b.posterior);
  }
  const gain = Math.max(0, before - after);
  if (!byAction) {
    byAction = new Map();
    gainCache.set(p, byAction);
  }
  byAction.set(action, gain);
  return gain;
}

function binaryEntropy(x: number): number {
  if (x <= 0 || x >= 1) return 0;
  return -x * Math.log2(x) - (1 - x) * Math.log2(1 - x);
}

/**
 * Expected information in bits about one question only: whether the cause is among `members` (the
 * leading remedy group) or not. A check can tell much about causes nobody suspects and nothing about
 * the lead; this measures what it tells about the lead.
 */
export function expectedGainOnGroup(
  model: SessionModel,
  p: Distribution,
  action: ModelAction,
  members: readonly string[],
): number {
  if (!action.table || Object.keys(action.table.rows).length === 0) return 0;
  const massIn = (d: Distribution) => members.reduce((sum, id) => sum + (d[id] ?? 0), 0);
  let after = 0;
  for (const b of branches(model, p, action)) {
    if (b.probability > 0) after += b.probability * binaryEntropy(massIn(b.posterior));
  }
  return Math.max(0, binaryEntropy(massIn(p)) - after);
}
