import { branches, type Distribution, likelihoodRow, predictive, priorOf } from './inference.js';
import { RESIDUAL_ID } from './model.js';
import { EPSILON, heaviestRemedyGroup, massOf, type RemedyGroup } from './repair-order.js';
import type { Situation } from './situation.js';
import type { ModelAction, ModelHypothesis, SessionModel } from './types.js';

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
export function couldUnseat(
  model: SessionModel,
  p: Distribution,
  action: ModelAction,
  group: RemedyGroup,
): boolean {
  if (!action.table) return false;
  const ids = group.members.map((h) => h.id);
  return branches(model, p, action).some((b) => {
    if (b.probability < OUTCOME_FLOOR) return false;
    const mass = massOf(b.posterior, ids);
    return mass < 0.5 - EPSILON || heaviestRemedyGroup(model, b.posterior).mass > mass + EPSILON;
  });
}

/**
 * What asking the check costs when choosing among checks: its cost, plus the instrument penalty when
 * it needs a meter the installation does not carry (so, at equal information, a look comes first).
 */
export function selectionCost(model: SessionModel, a: ModelAction): number {
  return a.cost + (a.instrument ? (model.settings.instrumentPenalty ?? 0) : 0);
}

/** Total variation distance between two outcome rows. */
export function distance(a: number[], b: number[]): number {
  return a.reduce((sum, x, i) => sum + Math.abs(x - (b[i] ?? 0)), 0) / 2;
}

/**
 * The rivals a conclusion on the group's leader must be told apart from: causes outside the leader's
 * remedy group that explain the evidence nearly as well as the leader (the posterior over the prior,
 * which is the likelihood of the answers, at least `likelihoodRatio` of the leader's) and hold some
 * share. A symptom-level leader (a low pressure) is told from every cause still holding a share, not
 * only from those the evidence fits nearly as well: the reading that found the symptom is what the
 * other causes of that symptom also show.
 */
export function separationRivals(s: Situation, group: RemedyGroup): ModelHypothesis[] {
  const rule = s.model.settings.separation;
  if (!rule) return [];
  const { model, posterior: p } = s;
  const prior = priorOf(model);
  const likelihood = (id: string) => (p[id] ?? 0) / Math.max(prior[id] ?? 0, EPSILON);
  const leader = group.top;
  const inGroup = new Set(group.members.map((h) => h.id));
  return model.hypotheses.filter(
    (h) =>
      h.id !== RESIDUAL_ID &&
      !inGroup.has(h.id) &&
      h.source !== 'manual' &&
      (p[h.id] ?? 0) >= rule.minRival &&
      (leader.symptomLevel === true || likelihood(h.id) >= rule.likelihoodRatio * likelihood(leader.id)),
  );
}

/** Whether the check predicts its outcomes differently under the two causes. */
function separates(model: SessionModel, a: ModelAction, one: string, other: string): boolean {
  const rule = model.settings.separation;
  if (!rule || !a.table) return false;
  return distance(likelihoodRow(a, one), likelihoodRow(a, other)) >= rule.minDistance;
}

/**
 * The check a conclusion waits for: a rival (`separationRivals`) holds some share while an open check
 * tells it from the leader. A cause read from one symptom (low pressure) is thus not concluded while a
 * check that tells it from another cause of the same symptom is still open. The cheapest such check is
 * asked; at equal cost, one needing no instrument.
 */
export function separatingCheck(
  s: Situation,
  group: RemedyGroup,
  information: ModelAction[],
): ModelAction | undefined {
  const rivals = separationRivals(s, group);
  if (rivals.length === 0) return undefined;
  const leader = group.top;
  // A symptom is told from a cause its own remedy also clears (one that leaves the symptom behind and
  // that the remedy may mask) by the symptom's origin, never by its consequences: any cause of the
  // symptom shows those too, whatever the knowledge lists for it.
  const consequences = new Set(leader.symptomLevel ? (leader.throughSymptom ?? []) : []);
  const remedy = leader.remedy ? s.model.actions.find((a) => a.id === leader.remedy) : undefined;
  const masked = (id: string) => (remedy?.fixes[id] ?? 0) > 0;
  const tells = (a: ModelAction, r: ModelHypothesis) =>
    !(a.quantity && consequences.has(a.quantity) && masked(r.id)) && separates(s.model, a, leader.id, r.id);
  let best: ModelAction | undefined;
  for (const a of information) {
    if (!rivals.some((r) => tells(a, r))) continue;
    if (
      !best ||
      a.cost < best.cost - EPSILON ||
      (Math.abs(a.cost - best.cost) <= EPSILON && !a.instrument && best.instrument)
    ) {
      best = a;
    }
  }
  return best;
}

/**
 * The rivals of the leader that some check of the model could tell apart but that no check answered
 * with a value has told apart: the check that would have was answered "unknown" or never asked. A
 * rival no check can tell from the leader does not count (nothing the technician can do would confirm).
 */
export function unconfirmedRivals(s: Situation, group: RemedyGroup): ModelHypothesis[] {
  const leader = group.top;
  const { model } = s;
  return separationRivals(s, group).filter((r) => {
    const telling = model.actions.filter((a) => separates(model, a, leader.id, r.id));
    return telling.length > 0 && !telling.some((a) => s.valued.has(a.id));
  });
}

/** Outcomes predicted below this probability are not expected to change a conclusion. */
export const OUTCOME_FLOOR = 0.01;
