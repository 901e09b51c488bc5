import { expectedGain } from './inference.js';
import {
  clearChance,
  EPSILON,
  expectedCostAfter,
  expectedCostWithRepair,
  expectedRepairCost,
  leastRepairCost,
} from './repair-order.js';
import type { Situation } from './situation.js';
import type { ModelAction } from './types.js';

/**
 * Repairs as tests (Heckerman, Breese and Rommelse 1995): a repair that swaps no part tells whether
 * its causes were the fault by clearing it or not. The one whose expected cost to resolution (its
 * cost, then the p/C repair order on the beliefs it leaves when the fault stays) is lowest is tried
 * when it costs less in expectation than asking any check first (each check's answer weighed at the
 * session's chance of an answer; unanswered, it leaves the beliefs as they were) and than the repair
 * order itself. With no check left to ask, the alternative is handing the job on: a repair is then
 * tried only when its chance of clearing the fault, times the cost of handing on, outweighs its cost.
 * Once a repair has cleared the fault, no other can tell anything by clearing it. A repair whose chance
 * of clearing the fault is under `minFix` is not tried.
 */
export function repairAsTest(
  s: Situation,
  repairs: ModelAction[],
  checks: ModelAction[],
  minFix = 0,
): ModelAction | undefined {
  const { model, posterior: p } = s;
  if (!model.settings.repairAsTest || s.resolvedBy.length > 0) return undefined;
  const repairFirst = expectedRepairCost(model, p);
  let best: { action: ModelAction; cost: number } | undefined;
  for (const action of repairs) {
    if (action.replacement) continue;
    // A repair costs at least its own price: one dearer than the best so far, or than the repair order,
    // cannot be chosen, and its branches are not worked out.
    if (action.cost > Math.min(best?.cost ?? Number.POSITIVE_INFINITY, repairFirst) + EPSILON) continue;
    const likely = clearChance(model, p, action);
    if (likely <= EPSILON || likely < minFix || expectedGain(model, p, action) < model.settings.minGainBits)
      continue;
    if (checks.length === 0 && likely * model.settings.escalationCost < action.cost - EPSILON) continue;
    const cost = expectedCostWithRepair(model, p, action);
    if (!best || cost < best.cost - EPSILON) best = { action, cost };
  }
  if (!best || best.cost > repairFirst + EPSILON) return undefined;
  // A check's expected cost to resolution is at least its own cost, plus, when answered, the least a
  // repair order can cost, plus, when not, the repair order as it stands: a check whose bound is above
  // the repair's cannot undercut it, and its branches are not worked out. The bound's answered part is
  // shaded by a millionth so that rounding in the branch sum never prunes a check the full sum keeps.
  const least = leastRepairCost(model) * (1 - 1e-6);
  for (const check of checks) {
    const bound = check.cost + s.readable * least + (1 - s.readable) * repairFirst;
    if (bound > best.cost + EPSILON) continue;
    if (expectedGain(model, p, check) < model.settings.minGainBits) continue;
    if (expectedCostAfter(model, p, check, s.readable) <= best.cost + EPSILON) return undefined;
  }
  return best.action;
}
