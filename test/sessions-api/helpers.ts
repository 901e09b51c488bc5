import type { Citation } from '../../src/contract/common.js';
import type { NextAction, Session } from '../../src/contract/sessions.js';

export const UNIT = {
  brand: 'Demotherm',
  model: 'DT-A100-E',
  equipment: 'air_water',
  error_code: 'E9',
} as const;

/** A flow switch that stays open although water flows: every other reading is normal. */
export const FAULTY_FLOW_SWITCH: Record<string, boolean | number | string> = {
  test_flow_switch: 'stays_open',
  replace_flow_switch: true,
};

/** The answer a technician on a unit with the given fault would give: nominal readings, repairs that fail. */
export function answerFor(action: NextAction, fault: Record<string, boolean | number | string> = {}) {
  const given = fault[action.id];
  if (given !== undefined) return given;
  const e = action.expected;
  if (e.type === 'number') {
    const [lo, hi] = e.nominal_range ?? [0, 0];
    return (lo + hi) / 2;
  }
  if (e.type === 'choice') return e.choices![0]!.id;
  if (e.type === 'text') return 'nothing to report';
  return false;
}

export function citationKey(c: Citation): string {
  return `${c.document_id}#${c.page}-${c.page_end}`;
}

/** Every citation a session shows: hypotheses, the next action, the history and the outcome. */
export function citationsOf(s: Session): Set<string> {
  const all = [
    ...s.hypotheses.flatMap((h) => h.citations),
    ...(s.next_action?.citations ?? []),
    ...s.history.flatMap((h) => h.citations),
    ...(s.outcome?.citations ?? []),
  ];
  return new Set(all.map(citationKey));
}
