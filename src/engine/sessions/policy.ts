import {
  branches,
  type Distribution,
  expectedGain,
  likelihoodRow,
  predictive,
  priorOf,
} from './inference.js';
import { RESIDUAL_ID } from './model.js';
import type { ModelAction, ModelHypothesis, Outcome, SessionModel } from './types.js';

/** The quantity whose answer gates part swaps on a unit still under warranty. */
export const WARRANTY_QUANTITY = 'under_warranty';

export interface Situation {
  model: SessionModel;
  posterior: Distribution;
  /** Actions answered, with a value or as unknown, and actions covered by initial readings. */
  answered: Set<string>;
  /** Quantity -> reliability of the best valued answer it has. */
  quantityReliability: Map<string, number>;
  turnsUsed: number;
  /** Answers with a value, initial readings included. */
  answers: number;
  /**
   * Estimated chance that the technician can answer the next check (a reading not to hand on site
   * comes back unknown and teaches nothing): a check's worth is discounted by it, a repair's is not.
   */
  readable: number;
  /** Steps answered "unknown" since the last answer with a value. */
  unansweredStreak: number;
  warranty: boolean | null;
  /** Repairs answered "the fault cleared", in the order they were carried out. */
  resolvedBy: string[];
}

export type Decision =
  | { kind: 'ask'; actionId: string }
  | { kind: 'finish'; status: 'concluded' | 'escalated'; outcome: Outcome };

const EPSILON = 1e-12;

function isInformation(a: ModelAction): boolean {
  return a.kind === 'observe' || a.kind === 'measure' || a.kind === 'check';
}

function available(s: Situation, a: ModelAction): boolean {
  if (a.kind === 'escalate' || !a.table || s.answered.has(a.id)) return false;
  if (a.quantity) {
    const best = s.quantityReliability.get(a.quantity);
    if (best !== undefined && best >= a.reliability) return false;
  }
  // A manual step that swaps a part is only ever cited, never asked as a check.
  if (a.source === 'manual' && a.replacement) return false;
  return true;
}

function actionById(model: SessionModel, id: string | null): ModelAction | undefined {
  return id ? model.actions.find((a) => a.id === id) : undefined;
}

function topHypothesis(model: SessionModel, p: Distribution, among?: ModelHypothesis[]): ModelHypothesis {
  let best: ModelHypothesis | undefined;
  for (const h of among ?? model.hypotheses) {
    if (h.id === RESIDUAL_ID) continue;
    if (!best || (p[h.id] ?? 0) > (p[best.id] ?? 0) + EPSILON) best = h;
  }
  return best!;
}

interface RemedyGroup {
  members: ModelHypothesis[];
  mass: number;
  top: ModelHypothesis;
}

/**
 * Hypotheses grouped by the remedy they call for (a manual-only cause stands alone), the heaviest
 * group first: when one repair settles every likely cause, which of them it is does not change the work.
 */
function heaviestRemedyGroup(model: SessionModel, p: Distribution): RemedyGroup {
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

interface RepairStep {
  hypothesis: ModelHypothesis;
  remedy: ModelAction | undefined;
  probability: number;
  success: number;
  cost: number;
}

/** Every hypothesis's remedy, ordered by probability of success over cost (Heckerman et al. 1995). */
function repairOrder(model: SessionModel, p: Distribution): RepairStep[] {
  const steps = model.hypotheses.map((h, index) => {
    const remedy = actionById(model, h.remedy);
    const success = remedy?.kind === 'repair' ? (remedy.fixes[h.id] ?? 1) : 1;
    const cost = remedy ? remedy.cost : model.settings.escalationCost;
    return { hypothesis: h, remedy, probability: p[h.id] ?? 0, success, cost, index };
  });
  steps.sort((a, b) => {
    const d = (b.probability * b.success) / b.cost - (a.probability * a.success) / a.cost;
    return Math.abs(d) > EPSILON ? d : a.index - b.index;
  });
  return steps;
}

/** Expected cost of repairing by following the p/C order until the fault clears. */
export function expectedRepairCost(model: SessionModel, p: Distribution): number {
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
function expectedCostAfter(
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

function massOf(p: Distribution, ids: string[]): number {
  return ids.reduce((sum, id) => sum + (p[id] ?? 0), 0);
}

/**
 * Whether the action could rule the group of hypotheses out: one of its outcomes, reasonably likely
 * under the current beliefs, is one the group rarely produces while a system without that fault
 * commonly shows it (likelihood ratio against the baseline at most `ruleOutRatio`), and seeing it
 * would leave the group below `level`, so the conclusion would change. A check whose worst outcome
 * still leaves the group above the bar cannot change what is proposed, however strong it is.
 */
export function canRuleOut(
  model: SessionModel,
  p: Distribution,
  action: ModelAction,
  ids: string[],
  level: number,
): boolean {
  if (!action.table) return false;
  const group = new Set(ids);
  const pred = predictive(model, p, action);
  const inside = pred.map(() => 0);
  let mass = 0;
  for (const h of model.hypotheses) {
    if (!group.has(h.id)) continue;
    const ph = p[h.id] ?? 0;
    mass += ph;
    const row = likelihoodRow(action, h.id);
    for (let i = 0; i < row.length; i++) inside[i] = inside[i]! + ph * row[i]!;
  }
  if (mass <= 0) return false;
  const baseline = action.table.baseline;
  for (let i = 0; i < pred.length; i++) {
    const own = inside[i]! / mass;
    if (pred[i]! < 0.01 || own / baseline[i]! > model.settings.ruleOutRatio) continue;
    // Bayes on the one outcome: the group's share of the outcome's predicted probability.
    if (inside[i]! / pred[i]! < level - EPSILON) return true;
  }
  return false;
}

/**
 * Whether one of the action's outcomes, reasonably likely under the current beliefs, would unseat the
 * group: another remedy would then carry more weight, or the group would lose its majority. Such an
 * answer could still change what the session proposes.
 */
function couldUnseat(model: SessionModel, p: Distribution, action: ModelAction, group: RemedyGroup): boolean {
  if (!action.table) return false;
  const ids = group.members.map((h) => h.id);
  return branches(model, p, action).some((b) => {
    if (b.probability < OUTCOME_FLOOR) return false;
    const mass = massOf(b.posterior, ids);
    return mass < 0.5 - EPSILON || heaviestRemedyGroup(model, b.posterior).mass > mass + EPSILON;
  });
}

/** Total variation distance between two outcome rows. */
function distance(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + Math.abs(x - (b[i] ?? 0)), 0) / 2;
}

/**
 * The check a conclusion waits for: a rival outside the leader's remedy group that explains the
 * evidence nearly as well as the leader (the posterior over the prior, which is the likelihood of the
 * answers, at least `likelihoodRatio` of the leader's) and holds some share, while an open check tells
 * the two apart. A cause read from one symptom (low pressure) is thus not concluded while a check that
 * tells it from another cause of the same symptom is still open. The cheapest such check is asked.
 */
function separatingCheck(
  s: Situation,
  group: RemedyGroup,
  information: ModelAction[],
): ModelAction | undefined {
  const rule = s.model.settings.separation;
  if (!rule) return undefined;
  const { model, posterior: p } = s;
  const prior = priorOf(model);
  const likelihood = (id: string) => (p[id] ?? 0) / Math.max(prior[id] ?? 0, EPSILON);
  const leader = group.top;
  const inGroup = new Set(group.members.map((h) => h.id));
  const rivals = model.hypotheses.filter(
    (h) =>
      h.id !== RESIDUAL_ID &&
      !inGroup.has(h.id) &&
      h.source !== 'manual' &&
      (p[h.id] ?? 0) >= rule.minRival &&
      likelihood(h.id) >= rule.likelihoodRatio * likelihood(leader.id),
  );
  if (rivals.length === 0) return undefined;
  let best: ModelAction | undefined;
  for (const a of information) {
    if (!a.table) continue;
    const lead = likelihoodRow(a, leader.id);
    if (!rivals.some((r) => distance(lead, likelihoodRow(a, r.id)) >= rule.minDistance)) continue;
    if (!best || a.cost < best.cost) best = a;
  }
  return best;
}

/** Outcomes predicted below this probability are not expected to change a conclusion. */
const OUTCOME_FLOOR = 0.01;

/** Expected cost of carrying out the repair now and, if the fault stays, repairing in p/C order. */
function expectedCostWithRepair(model: SessionModel, p: Distribution, repair: ModelAction): number {
  const failed = branches(model, p, repair).find((_, i) => repair.table?.outcomes[i] === 'false');
  if (!failed) return repair.cost + expectedRepairCost(model, p);
  return repair.cost + failed.probability * expectedRepairCost(model, failed.posterior);
}

/** A repair is tried ahead of observations only when it clears the fault this often. */
const LIKELY_FIX = 0.25;

/** Among the repairs worth trying (enough information in their result), the one cheapest in expectation. */
function cheapestRepairFirst(
  model: SessionModel,
  p: Distribution,
  repairs: ModelAction[],
  likelyFix: number,
): { action: ModelAction; cost: number } | undefined {
  let best: { action: ModelAction; cost: number } | undefined;
  for (const action of repairs) {
    const likely = model.hypotheses.reduce((sum, h) => sum + (p[h.id] ?? 0) * (action.fixes[h.id] ?? 0), 0);
    if (likely < likelyFix || expectedGain(model, p, action) < model.settings.minGainBits) continue;
    const cost = expectedCostWithRepair(model, p, action);
    if (!best || cost < best.cost - EPSILON) best = { action, cost };
  }
  if (!best || best.cost > expectedRepairCost(model, p) + EPSILON) return undefined;
  return best;
}

interface Scored {
  action: ModelAction;
  gain: number;
  score: number;
}

function bestByGainPerCost(
  model: SessionModel,
  p: Distribution,
  actions: ModelAction[],
  minGain = model.settings.minGainBits,
): Scored | undefined {
  let best: Scored | undefined;
  for (const action of actions) {
    const gain = expectedGain(model, p, action);
    if (gain < minGain || gain <= 0) continue;
    const score = gain / action.cost;
    if (
      !best ||
      score > best.score + EPSILON ||
      (Math.abs(score - best.score) <= EPSILON && action.cost < best.action.cost)
    ) {
      best = { action, gain, score };
    }
  }
  return best;
}

function repairPlan(s: Situation): string[] {
  const plan: string[] = [];
  for (const step of repairOrder(s.model, s.posterior)) {
    if (step.probability < 0.02 || !step.remedy || s.answered.has(step.remedy.id)) continue;
    if (!plan.includes(step.remedy.id)) plan.push(step.remedy.id);
  }
  return plan;
}

function escalationAction(
  model: SessionModel,
  target: 'manufacturer_service' | 'warranty',
): ModelAction | undefined {
  return model.actions.find((a) => a.kind === 'escalate' && a.escalation === target);
}

/** Reasons a session hands the job on without having settled its cause. */
const HAND_ON_REASONS = new Set<Outcome['reason']>(['budget_spent', 'readings_unavailable']);

/**
 * Hands the job on when the session cannot go further: with the leading cause named as the suspect
 * when its group holds at least `suspectAt` (the leader's own escalation when its remedy is one, the
 * maker's service otherwise), and the remaining repairs in p/C order. Never a part swap: handing on is
 * what keeps an unproven part from being proposed.
 */
function handOn(s: Situation, reason: Outcome['reason']): Decision {
  const group = heaviestRemedyGroup(s.model, s.posterior);
  const suspectAt = s.model.settings.suspectAt;
  const suspect = suspectAt !== undefined && group.mass >= suspectAt - EPSILON ? group.top : null;
  const remedy = actionById(s.model, suspect?.remedy ?? null);
  const target = remedy?.kind === 'escalate' ? remedy : escalationAction(s.model, 'manufacturer_service');
  return finish(s, 'escalated', reason, suspect, target);
}

function finish(
  s: Situation,
  status: 'concluded' | 'escalated',
  reason: Outcome['reason'],
  cause: ModelHypothesis | null,
  action: ModelAction | undefined,
): Decision {
  return {
    kind: 'finish',
    status,
    outcome: {
      kind: status === 'concluded' ? 'cause_found' : 'escalation',
      reason,
      cause_id: cause?.id ?? null,
      probability: cause ? (s.posterior[cause.id] ?? 0) : null,
      action_id: action?.id ?? null,
      escalation: action?.escalation ?? null,
      repair_plan: status === 'escalated' && (!cause || HAND_ON_REASONS.has(reason)) ? repairPlan(s) : [],
    },
  };
}

/** The outcome recorded when the technician closes a session that was still active. */
export function closedOutcome(s: Situation): Outcome {
  return {
    kind: 'closed',
    reason: 'closed_by_user',
    cause_id: null,
    probability: null,
    action_id: null,
    escalation: null,
    repair_plan: repairPlan(s),
  };
}

/**
 * What the session does next: conclude on a repair that cleared the fault; conclude when one remedy
 * group dominates, or leads clearly and no check left could unseat it (after the checks that could
 * still rule out a part swap, and the warranty question for a major part); escalate when the unknown
 * cause dominates or the budget is spent; otherwise ask the observation with the best information gain
 * per unit of cost, unless trying a cheap repair of a likely cause first costs less in expectation.
 */
export function decide(s: Situation): Decision {
  const { model, posterior: p } = s;
  const settings = model.settings;
  const withinBudget = s.turnsUsed < settings.budget;
  // A technician who could not answer the last few steps lacks the means to read what is asked: no
  // further check is asked of them (the warranty is a question for the customer, not a reading); a
  // likely repair may still be tried, or the job is handed on.
  const stuck = (settings.unansweredStreak ?? 0) > 0 && s.unansweredStreak >= settings.unansweredStreak!;
  const open = model.actions.filter((a) => available(s, a));
  const candidates = stuck ? open.filter((a) => !isInformation(a) || a.quantity === WARRANTY_QUANTITY) : open;

  if ((p[RESIDUAL_ID] ?? 0) >= settings.residualEscalateAt) {
    return finish(
      s,
      'escalated',
      'residual_dominates',
      null,
      escalationAction(model, 'manufacturer_service'),
    );
  }

  const group = heaviestRemedyGroup(model, p);
  const top = group.top;
  const ids = group.members.map((h) => h.id);

  // A repair that cleared the fault settles the case on the cause it fixes: nothing is left to replace.
  for (const id of [...s.resolvedBy].reverse()) {
    const repair = actionById(model, id);
    const fixed = model.hypotheses.filter((h) => (repair?.fixes[h.id] ?? 0) > 0);
    const cleared = massOf(
      p,
      fixed.map((h) => h.id),
    );
    if (repair && fixed.length > 0 && cleared >= settings.threshold - EPSILON) {
      return finish(s, 'concluded', 'repair_resolved', topHypothesis(model, p, fixed), repair);
    }
  }

  const remedy = actionById(model, top.remedy);
  const threshold = remedy?.replacement ? settings.replacementThreshold : settings.threshold;
  // Whether a check could still change the conclusion does not depend on who could answer it.
  const information = open.filter(isInformation);
  const dominant = group.mass >= threshold - EPSILON;
  // Below the bar, a clear leader still settles the case once no check left could unseat it: asking
  // more would cost the technician time without changing what is proposed.
  const settled =
    !dominant &&
    group.mass >= settings.settledThreshold - EPSILON &&
    !information.some((a) => couldUnseat(model, p, a, group));
  if ((dominant || settled) && s.answers >= settings.minAnswers) {
    const separating = withinBudget && !stuck ? separatingCheck(s, group, information) : undefined;
    if (separating) return { kind: 'ask', actionId: separating.id };
    if (remedy?.replacement) {
      const level = dominant ? threshold : settings.settledThreshold;
      const ruling = information.filter(
        (a) => !a.replacement && a.cost < remedy.cost && canRuleOut(model, p, a, ids, level),
      );
      // Every check that could still rule the part out comes first, however sure the session is;
      // with no turn left for it, the part is not proposed at all.
      const best = bestByGainPerCost(model, p, ruling, 0);
      if (best && withinBudget && !stuck) return { kind: 'ask', actionId: best.action.id };
      if (best) return handOn(s, stuck ? 'readings_unavailable' : 'budget_spent');
    }
    if (remedy?.warrantyRelevant) {
      if (s.warranty === true) {
        return finish(s, 'escalated', 'under_warranty', top, escalationAction(model, 'warranty'));
      }
      const question = candidates.find((a) => a.quantity === WARRANTY_QUANTITY);
      if (s.warranty === null && question && withinBudget) return { kind: 'ask', actionId: question.id };
    }
    if (remedy?.kind === 'escalate') return finish(s, 'escalated', 'cause_requires_escalation', top, remedy);
    return finish(s, 'concluded', dominant ? 'dominant_hypothesis' : 'evidence_settled', top, remedy);
  }

  if (!withinBudget) return handOn(s, 'budget_spent');

  const repairs = candidates.filter((a) => a.kind === 'repair' && !a.replacement);
  const askable = stuck ? [] : information;
  const bestObservation = bestByGainPerCost(model, p, askable);

  // What a technician reads in a couple of minutes (a gauge, the display, the air vent) comes before
  // any work on the installation, when it tells something.
  // A glance (the gauge, the display) is always worth its minute or two; for the other quick readings
  // the bar rises as the technician fails to read what is asked: the case may not have it to hand.
  const quickGain = settings.quickMinGain ?? 1;
  const glances = askable.filter((a) => a.minutes <= (settings.glanceMinutes ?? 0));
  // The glance's bar is the plain minimum gain: tying it to the quick-reading bar let a raised bar
  // push the gauge behind longer checks, against the rule that it comes first.
  const quick =
    bestByGainPerCost(model, p, glances) ??
    bestByGainPerCost(
      model,
      p,
      askable.filter((a) => a.minutes <= (settings.quickMinutes ?? 0)),
      quickGain / s.readable,
    );
  if (quick && quick.action.id === bestObservation?.action.id)
    return { kind: 'ask', actionId: quick.action.id };

  // A repair that costs little and clears a likely cause goes first when trying it, then going on,
  // costs less in expectation than observing first (one step of lookahead on the repair sequence).
  // The less the technician can read, the less likely a repair need be to be worth trying first.
  const repairFirst = quick ? undefined : cheapestRepairFirst(model, p, repairs, 2 * LIKELY_FIX * s.readable);
  if (repairFirst) {
    if (
      !bestObservation ||
      repairFirst.cost <= expectedCostAfter(model, p, bestObservation.action, s.readable) + EPSILON
    ) {
      return { kind: 'ask', actionId: repairFirst.action.id };
    }
  }
  if (quick) return { kind: 'ask', actionId: quick.action.id };
  if (bestObservation) return { kind: 'ask', actionId: bestObservation.action.id };
  if (stuck) return handOn(s, 'readings_unavailable');

  const fallback = bestByGainPerCost(model, p, repairs);
  if (fallback) return { kind: 'ask', actionId: fallback.action.id };
  return finish(
    s,
    'escalated',
    'no_discriminating_action',
    null,
    escalationAction(model, 'manufacturer_service'),
  );
}
