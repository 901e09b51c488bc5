import { branches, type Distribution, expectedGain } from './inference.js';
import { RESIDUAL_ID } from './model.js';
import type { ModelAction, ModelHypothesis, SessionModel } from './types.js';

export const EPSILON = 1e-12;

export function actionById(model: SessionModel, id: string | null): ModelAction | undefined {
  return id ? model.actions.find((a) => a.id === id) : undefined;
}

export function topHypothesis(
  model: SessionModel,
  p: Distribution,
  among?: ModelHypothesis[],
): ModelHypothesis {
  let best: ModelHypothesis | undefined;
  for (const h of among ?? model.hypotheses) {
    if (h.id === RESIDUAL_ID) continue;
    if (!best || (p[h.id] ?? 0) > (p[best.id] ?? 0) + EPSILON) best = h;
  }
  return best!;
}

export interface RemedyGroup {
  members: ModelHypothesis[];
  mass: number;
  top: ModelHypothesis;
}

/**
 * Hypotheses grouped by the remedy they call for (a manual-only cause stands alone), the heaviest
 * group first: when one repair settles every likely cause, which of them it is does not change the work.
 */
export function heaviestRemedyGroup(model: SessionModel, p: Distribution): RemedyGroup {
  const groups = new Map<string, ModelHypothesis[]>();
  for (const h of model.hypotheses) {
    if (h.id === RESIDUAL_ID) continue;
    const key = h.remedy ?? `hypothesis:${h.id}`;
    groups.set(key, [...(groups.get(key) ?? []), h]);
  }
  let best: RemedyGroup | undefined;
  for (const members of groups.values()) {
    const mass = members.reduce((sum, h) => sum + (p[h.id] ?? 0), 0);
    if (!best || mass > best.mass + EPSILON) best = { members, mass, top: topHypothesis(model, p, members) };
  }
  return best!;
}

export interface RepairStep {
  hypothesis: ModelHypothesis;
  remedy: ModelAction | undefined;
  probability: number;
  success: number;
  cost: number;
}

interface StepBase {
  hypothesis: ModelHypothesis;
  remedy: ModelAction | undefined;
  success: number;
  cost: number;
  index: number;
}

/** Each hypothesis's remedy, its chance of clearing it and its cost: fixed for a model, so worked out once. */
const stepBases = new WeakMap<SessionModel, readonly StepBase[]>();

function stepBasesOf(model: SessionModel): readonly StepBase[] {
  const known = stepBases.get(model);
  if (known) return known;
  const bases = model.hypotheses.map((h, index) => {
    const remedy = actionById(model, h.remedy);
    const success = remedy?.kind === 'repair' ? (remedy.fixes[h.id] ?? 1) : 1;
    const cost = remedy ? remedy.cost : model.settings.escalationCost;
    return { hypothesis: h, remedy, success, cost, index };
  });
  stepBases.set(model, bases);
  return bases;
}

/**
 * The least any repair order can cost, whatever the beliefs: its first step is always paid in full,
 * and no step costs less than the cheapest remedy (or the escalation, for a cause without one).
 */
export function leastRepairCost(model: SessionModel): number {
  return stepBasesOf(model).reduce((least, b) => Math.min(least, b.cost), Number.POSITIVE_INFINITY);
}

/** Every hypothesis's remedy, ordered by probability of success over cost (Heckerman et al. 1995). */
export function repairOrder(model: SessionModel, p: Distribution): RepairStep[] {
  const steps = stepBasesOf(model).map((b) => {
    const probability = p[b.hypothesis.id] ?? 0;
    // The same expression the order compares, worked out once per step instead of once per comparison.
    return { ...b, probability, ratio: (probability * b.success) / b.cost };
  });
  steps.sort((a, b) => {
    const d = b.ratio - a.ratio;
    return Math.abs(d) > EPSILON ? d : a.index - b.index;
  });
  return steps;
}

/** Costs already worked out, by model and beliefs (see the branch cache in inference.ts for why the key holds). */
const repairCostCache = new WeakMap<SessionModel, WeakMap<Distribution, number>>();

/** Expected cost of repairing by following the p/C order until the fault clears. */
export function expectedRepairCost(model: SessionModel, p: Distribution): number {
  let byBeliefs = repairCostCache.get(model);
  const known = byBeliefs?.get(p);
  if (known !== undefined) return known;
  const cost = repairCostOf(model, p);
  if (!byBeliefs) {
    byBeliefs = new WeakMap();
    repairCostCache.set(model, byBeliefs);
  }
  byBeliefs.set(p, cost);
  return cost;
}

function repairCostOf(model: SessionModel, p: Distribution): number {
  let remaining = 1;
  let cost = 0;
  for (const step of repairOrder(model, p)) {
    if (remaining <= EPSILON) break;
    cost += remaining * step.cost;
    remaining -= step.probability * step.success;
  }
  return cost;
}

/** Expected cost of observing first, then repairing; an unanswered check leaves the beliefs as they are. */
export function expectedCostAfter(
  model: SessionModel,
  p: Distribution,
  action: ModelAction,
  readable: number,
): number {
  let after = 0;
  for (const b of branches(model, p, action)) {
    if (b.probability > 0) after += b.probability * expectedRepairCost(model, b.posterior);
  }
  return action.cost + readable * after + (1 - readable) * expectedRepairCost(model, p);
}

export function massOf(p: Distribution, ids: string[]): number {
  return ids.reduce((sum, id) => sum + (p[id] ?? 0), 0);
}

/** Expected cost of carrying out the repair now and, if the fault stays, repairing in p/C order. */
export function expectedCostWithRepair(model: SessionModel, p: Distribution, repair: ModelAction): number {
  const failed = branches(model, p, repair).find((_, i) => repair.table?.outcomes[i] === 'false');
  if (!failed) return repair.cost + expectedRepairCost(model, p);
  return repair.cost + failed.probability * expectedRepairCost(model, failed.posterior);
}

/** The chance that carrying out a repair clears the fault, under the current beliefs. */
export function clearChance(model: SessionModel, p: Distribution, repair: ModelAction): number {
  return model.hypotheses.reduce((sum, h) => sum + (p[h.id] ?? 0) * (repair.fixes[h.id] ?? 0), 0);
}

/** A repair is tried ahead of observations only when it clears the fault this often. */
export const LIKELY_FIX = 0.25;

/** Among the repairs worth trying (enough information in their result), the one cheapest in expectation. */
export function cheapestRepairFirst(
  model: SessionModel,
  p: Distribution,
  repairs: ModelAction[],
  likelyFix: number,
): { action: ModelAction; cost: number } | undefined {
  let best: { action: ModelAction; cost: number } | undefined;
  for (const action of repairs) {
    const likely = clearChance(model, p, action);
    if (likely < likelyFix || expectedGain(model, p, action) < model.settings.minGainBits) continue;
    const cost = expectedCostWithRepair(model, p, action);
    if (!best || cost < best.cost - EPSILON) best = { action, cost };
  }
  if (!best || best.cost > expectedRepairCost(model, p) + EPSILON) return undefined;
  return best;
}
