import {
  createSession,
  type Knowledge,
  loadKnowledge,
  nextAction,
  respond,
  type SessionState,
} from '../../src/engine/sessions/index.js';

export { createSession, type Knowledge, nextAction, respond, type SessionState };

/** The shipped knowledge, and a unit of no brand the corpus holds. */
export const real = loadKnowledge();
export const base = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

/** The shipped knowledge with some of its step-selection switches set otherwise. */
export function withSelection(flags: Partial<Knowledge['settings']['selection']>): Knowledge {
  return { ...real, settings: { ...real.settings, selection: { ...real.settings.selection, ...flags } } };
}

/**
 * Runs a session to its end on scripted answers: an action in the table gets its answer, any other
 * gets `otherwise(action)` (by default "unknown"). Returns the last state and the actions asked.
 */
export function drive(
  s: SessionState,
  answers: Record<string, unknown>,
  otherwise: (action: { id: string; kind: string }) => unknown = () => ({ unknown: true }),
): { s: SessionState; asked: string[] } {
  const asked: string[] = [];
  while (s.status === 'active') {
    const a = nextAction(s)!;
    asked.push(a.id);
    const value = a.id in answers ? answers[a.id] : otherwise(a);
    s = respond(s, { action_id: a.id, value: value as never });
  }
  return { s, asked };
}

/**
 * A failing defrost told apart: patchy frost, a drain that flows, nothing else explaining the answers half
 * as well; a forced defrost cycle clears it. Walked by the rule tests under different switches.
 */
export const DEFROST_WALK: Readonly<Record<string, unknown>> = {
  read_water_pressure: 1.5,
  read_fault_display: 'none',
  listen_circulator: 'normal',
  inspect_frost: 'patchy',
  inspect_condensate_drain: 'flowing',
  check_isolation_valves: 'all_open',
  run_defrost_cycle: true,
  reseat_defrost_sensor: true,
};
