import {
  canRuleOut,
  couldUnseat,
  selectionCost,
  separatingCheck,
  separationRivals,
  unconfirmedRivals,
} from './conclusion-checks.js';
import { repairAsTest } from './expected-cost.js';
import { type Distribution, expectedGain, expectedGainOnGroup, priorOf } from './inference.js';
import { located } from './located.js';
import { RESIDUAL_ID } from './model.js';
import {
  actionById,
  cheapestRepairFirst,
  clearChance,
  EPSILON,
  expectedCostAfter,
  heaviestRemedyGroup,
  LIKELY_FIX,
  massOf,
  repairOrder,
  topHypothesis,
} from './repair-order.js';
import { type Decision, type Situation, WARRANTY_QUANTITY } from './situation.js';
import type { ModelAction, ModelHypothesis, Outcome, SessionModel } from './types.js';

export { type Decision, type Situation, WARRANTY_QUANTITY } from './situation.js';

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
  const scored: Scored[] = [];
  for (const action of actions) {
    const gain = expectedGain(model, p, action);
    if (gain < minGain || gain <= 0) continue;
    const cost = selectionCost(model, action);
    const score = gain / cost;
    scored.push({ action, gain, score });
    if (
      !best ||
      score > best.score + EPSILON ||
      (Math.abs(score - best.score) <= EPSILON && cost < selectionCost(model, best.action))
    ) {
      best = { action, gain, score };
    }
  }
  // A tie-break, not a weight: when a check anyone can make without a meter tells nearly as much per
  // minute as the best, it is asked first. When the session may conclude is not decided here.
  const margin = model.settings.instrumentTieMargin ?? 0;
  if (best?.action.instrument && margin > 0) {
    const floor = best.score * (1 - margin);
    for (const c of scored) {
      if (c.action.instrument || c.score < floor - EPSILON) continue;
      if (!best.action.instrument && c.score <= best.score + EPSILON) continue;
      best = c;
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

/**
 * The repair to try next when the answers have told the leader apart: no cause outside its remedy
 * group explains them at `likelihood_ratio` of the leader's likelihood (`separationRivals`), the
 * answers favour the leader over its prior by the inverse of that ratio, and a repair swapping no
 * part clears it. A symptom-level leader (a low pressure) waits for its own separating check instead.
 */
function leaderRepair(
  s: Situation,
  group: ReturnType<typeof heaviestRemedyGroup>,
  repairs: ModelAction[],
): ModelAction | undefined {
  const rule = s.model.settings.separation;
  if (!rule || !s.model.settings.leaderRepairFirst || s.answers < s.model.settings.minAnswers)
    return undefined;
  const top = group.top;
  if (top.symptomLevel || top.source === 'manual') return undefined;
  // The repair most likely to clear the leader per minute of cost (its remedy, or a cheaper one).
  let repair: ModelAction | undefined;
  for (const a of repairs) {
    const fix = a.fixes[top.id] ?? 0;
    if (fix <= 0) continue;
    if (!repair || fix / a.cost > (repair.fixes[top.id] ?? 0) / repair.cost + EPSILON) repair = a;
  }
  if (!repair) return undefined;
  const prior = priorOf(s.model);
  // The answers must favour the leader, not only leave it ahead on its prior.
  if ((s.posterior[top.id] ?? 0) < (prior[top.id] ?? 0) / rule.likelihoodRatio) return undefined;
  return separationRivals(s, group).length === 0 ? repair : undefined;
}

/**
 * What a repair that cleared the fault has put right: the reading it restores (the pressure a top-up
 * brings back) and, when it fixes a symptom-level cause, that symptom's consequences (the flow and
 * the ΔT of a circuit short of pressure). Read after the repair, they show the repaired state and tell
 * nothing of what caused the fault, so they are not asked any more.
 */
function repairedQuantities(s: Situation): Set<string> {
  const out = new Set<string>();
  for (const id of s.resolvedBy) {
    const repair = actionById(s.model, id);
    if (!repair) continue;
    if (repair.restores) out.add(repair.restores);
    for (const h of s.model.hypotheses)
      if (h.symptomLevel && (repair.fixes[h.id] ?? 0) > 0) for (const q of h.throughSymptom ?? []) out.add(q);
  }
  return out;
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
  // A suspect is not named while a rival holding at least `likelihoodRatio` of its share (the bar under
  // which the separation rule counts two causes as not yet told apart) could have been told from it by
  // a check that was never answered: the lead would come from the description alone.
  const rule = s.model.settings.separation;
  const confirmed =
    !rule?.confirmSuspect ||
    unconfirmedRivals(s, group).every(
      (r) => (s.posterior[r.id] ?? 0) < rule.likelihoodRatio * (s.posterior[group.top.id] ?? 0) - EPSILON,
    );
  const suspect =
    confirmed && suspectAt !== undefined && group.mass >= suspectAt - EPSILON ? group.top : null;
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
  const repaired = repairedQuantities(s);
  const open = model.actions.filter(
    (a) => available(s, a) && !(isInformation(a) && a.quantity && repaired.has(a.quantity)),
  );
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
    // Tried as a test, a repair that cleared the fault settles the case at the settled bar.
    const bar = settings.repairAsTest ? settings.settledThreshold : settings.threshold;
    if (repair && fixed.length > 0 && cleared >= bar - EPSILON) {
      const cause = topHypothesis(model, p, fixed);
      // Restoring a symptom (topping up the pressure) clears it today whatever caused it: the check
      // that tells a one-off from a recurring cause comes first, and the case settles on the symptom,
      // or on a cause the repair merely masked (a vessel that lost its charge), only when that cause
      // holds the threshold on its own.
      const masking = fixed.some((h) => h.symptomLevel);
      if (masking && withinBudget && !stuck) {
        const group = heaviestRemedyGroup(model, p);
        const separating = separatingCheck(s, { ...group, top: cause }, open.filter(isInformation));
        if (separating) return { kind: 'ask', actionId: separating.id };
      }
      // Below the bar, a masked cause still settles the case as any leader does: at the settled bar,
      // once no check left could unseat it (the fault is gone, so no repair can tell more).
      if (masking && (p[cause.id] ?? 0) < settings.threshold - EPSILON) {
        const group = heaviestRemedyGroup(model, p);
        const settledOn =
          group.top.id === cause.id &&
          (p[cause.id] ?? 0) >= settings.settledThreshold - EPSILON &&
          !open.filter(isInformation).some((a) => couldUnseat(model, p, a, group));
        if (!settledOn) continue;
      }
      // A masked cause is concluded with its own remedy, not with the repair that hid it.
      const own = masking && cause.remedy !== repair.id ? actionById(model, cause.remedy) : undefined;
      return finish(s, 'concluded', 'repair_resolved', cause, own ?? repair);
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
    // The check that would tell the leader from a rival was not read (unknown, or no turn left for
    // it): the job is handed on with the ranked suspects rather than concluded on an unconfirmed lead.
    if (settings.separation?.confirmConclusion && unconfirmedRivals(s, group).length > 0) {
      return handOn(s, stuck || withinBudget ? 'readings_unavailable' : 'budget_spent');
    }
    if (remedy?.replacement) {
      const level = dominant ? threshold : settings.settledThreshold;
      const ruling = information.filter(
        (a) => !a.replacement && a.cost < remedy.cost && canRuleOut(model, p, a, ids, level),
      );
      // Every check that could still rule the part out comes first, however sure the session is;
      // with no turn left for it, the part is not proposed at all.
      const best = bestByGainPerCost(model, p, ruling, 0);
      // A leader no other cause explains the answers nearly as well, whose part a check could still rule
      // out, while the last check came back unknown: the job is handed on naming it (its part in the
      // plan, never proposed) rather than asking the technician for one reading after another.
      if (
        best &&
        settings.handOnSeparated &&
        s.unansweredStreak > 0 &&
        separationRivals(s, group).length === 0
      )
        return handOn(s, 'readings_unavailable');
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

  // A repair that brings a reading back into its range (topping up the pressure) waits for that
  // reading: nobody tops up a circuit whose gauge they have not read, and overfilling one lifts its
  // safety valve. Once it has a value (read on site, or stated in the description where the knowledge
  // reads such a statement), it tells whether the repair is due. Likewise a repair of a defect someone
  // must first find (the damaged section of a cable) waits for a reading that finds it.
  // Once a repair has cleared the fault, no other repair is asked as a step: "did the fault clear?"
  // has no answer any more. What is left to try goes into the plan of a job handed on.
  const cleared = s.resolvedBy.length > 0;
  const repairs = candidates.filter(
    (a) =>
      !cleared &&
      a.kind === 'repair' &&
      !a.replacement &&
      (!a.restores || !model.settings.restoreNeedsReading || s.quantityReliability.has(a.restores)) &&
      located(s.readings, a),
  );

  // Once the answers point at the leader well past every other cause (none explains them at
  // `likelihood_ratio` of the leader's likelihood), its own repair, when it swaps no part, is the next
  // step: trying it tells more than any further reading and clears the fault when the lead is right.
  const ownRepair = leaderRepair(s, group, repairs);
  if (ownRepair) return { kind: 'ask', actionId: ownRepair.id };
  // Once the complaint points at a leading group (more likely than not), a check that tells nothing
  // about it (the water gauge or the ΔT on a communication fault) is not asked: the job is handed on
  // sooner rather than spent on causes nobody suspects. Once a repair has cleared the fault, the checks
  // left are what settles its cause, and stay.
  const whenLed = settings.whenLed;
  const led = whenLed !== undefined && group.mass >= whenLed.lead - EPSILON && s.resolvedBy.length === 0;
  const askable = stuck
    ? []
    : led
      ? information.filter((a) => expectedGainOnGroup(model, p, a, ids) >= whenLed.minGainBits)
      : information;
  const bestObservation = bestByGainPerCost(model, p, askable);

  // What a technician reads in a couple of minutes (a gauge, the display, the air vent) comes before
  // any work on the installation, when it tells something.
  // A glance (the gauge, the display) is always worth its minute or two; for the other quick readings
  // the bar rises as the technician fails to read what is asked: the case may not have it to hand.
  const quickGain = settings.quickMinGain ?? 1;
  // A reading that needs a meter the installation does not carry is never a glance nor a quick reading:
  // it is chosen, like any longer check, by its information per minute.
  const glances = askable.filter((a) => a.minutes <= (settings.glanceMinutes ?? 0) && !a.instrument);
  // The glance's bar is the plain minimum gain: tying it to the quick-reading bar let a raised bar
  // push the gauge behind longer checks, against the rule that it comes first.
  const quick =
    bestByGainPerCost(model, p, glances) ??
    bestByGainPerCost(
      model,
      p,
      askable.filter((a) => a.minutes <= (settings.quickMinutes ?? 0) && !a.instrument),
      quickGain / s.readable,
    );
  if (quick && quick.action.id === bestObservation?.action.id)
    return { kind: 'ask', actionId: quick.action.id };
  // Past the glances and quick readings, a repair swapping no part that costs less to resolution in
  // expectation than any check asked first.
  // Likewise a cheap repair of a cause the complaint leaves under a few percent is not tried as a test.
  const asTest = quick ? undefined : repairAsTest(s, repairs, askable, led ? whenLed.testRepairMinFix : 0);
  if (asTest) return { kind: 'ask', actionId: asTest.id };

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
  if (cleared) return handOn(s, 'no_discriminating_action');

  // Once a cause leads, the last resort is its own kind of repair, not a long shot: with none left that
  // clears the fault often enough, the job is handed on naming the leader.
  const lastResort = led
    ? repairs.filter((a) => clearChance(model, p, a) >= whenLed.testRepairMinFix)
    : repairs;
  const fallback = bestByGainPerCost(model, p, lastResort);
  if (fallback) return { kind: 'ask', actionId: fallback.action.id };
  if (led) return handOn(s, s.unansweredStreak > 0 ? 'readings_unavailable' : 'no_discriminating_action');
  return finish(
    s,
    'escalated',
    'no_discriminating_action',
    null,
    escalationAction(model, 'manufacturer_service'),
  );
}
