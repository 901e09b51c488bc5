import { describe, expect, it } from 'vitest';
import { repairAsTest } from '../../src/engine/sessions/expected-cost.js';
import type { Situation } from '../../src/engine/sessions/situation.js';
import {
  base,
  createSession,
  DEFROST_WALK,
  drive as driveWith,
  type Knowledge,
  real,
  type SessionState,
  withSelection,
} from './scripted.js';

function withRule(on: boolean, streakThroughRepairs = true): Knowledge {
  return withSelection({ repair_as_test: on, streak_through_repairs: streakThroughRepairs });
}

/** Answers from the table; a repair not listed is carried out and does not clear the fault; a check not listed comes back "unknown". */
function drive(s: SessionState, answers: Record<string, unknown>): { s: SessionState; asked: string[] } {
  return driveWith(s, answers, (a) => (a.kind === 'repair' ? false : { unknown: true }));
}

describe('repairs tried as tests, by expected cost to resolution', () => {
  // A unit in fault, nothing wrong to see or hear, the meters and the display not to hand: the readings
  // the session could ask tell little once unanswered, and a reset (five minutes) clears a transient
  // fault. The reset is the test.
  const start = { ...base, symptom: 'the heat pump is in fault' };
  const answers = { read_water_pressure: 1.5, listen_circulator: 'normal', reset_unit: true };

  it('ships on', () => {
    expect(real.settings.selection.repair_as_test).toBe(true);
  });

  it('tries the reset within five steps and settles the case on the transient fault when it clears', () => {
    const on = drive(createSession(withRule(true), start), answers);
    expect(on.asked.indexOf('reset_unit')).toBeGreaterThanOrEqual(0);
    expect(on.asked.indexOf('reset_unit')).toBeLessThan(5);
    expect(on.asked.length).toBeLessThanOrEqual(5);
    expect(on.s.status).toBe('concluded');
    expect(on.s.outcome?.reason).toBe('repair_resolved');
    expect(on.s.outcome?.cause_id).toBe('transient_fault');
    // Settled at the settled bar, under the dominance threshold: a cleared fault ends the tests.
    const share = on.s.outcome?.probability ?? 0;
    expect(share).toBeGreaterThanOrEqual(real.settings.conclusion.settled_threshold);
    expect(share).toBeLessThan(real.settings.conclusion.threshold);
  });

  it('without the rule, the session asks readings until it hands the job on and never tries the reset', () => {
    const off = drive(createSession(withRule(false), start), answers);
    expect(off.asked).not.toContain('reset_unit');
    expect(off.s.status).toBe('escalated');
    expect(off.s.outcome?.cause_id).not.toBe('transient_fault');
  });

  it('with no check left to ask, tries only a repair whose chance of clearing the fault outweighs its cost against handing on', () => {
    const session = createSession(withRule(true), start);
    const model = session.model;
    // The complaint alone leaves the mass spread over many causes: each repair swapping no part clears
    // the fault a few times in a hundred, worth less than the hand-on it might spare.
    const posterior: Record<string, number> = { ...session.posterior };
    const situation = {
      model,
      posterior,
      answered: new Set<string>(),
      valued: new Set<string>(),
      quantityReliability: new Map<string, number>(),
      readings: new Map(),
      turnsUsed: 4,
      answers: 2,
      readable: 0.4,
      unansweredStreak: 3,
      warranty: null,
      resolvedBy: [],
    } satisfies Situation;
    const repairs = model.actions.filter((a) => a.kind === 'repair' && !a.replacement);
    expect(repairAsTest(situation, repairs, [])).toBeUndefined();
    // A likely one is still tried: the transient fault at a third.
    const likely = Object.fromEntries(
      Object.entries(posterior).map(([id, v]) => [
        id,
        id === 'transient_fault' ? 0.35 : (v * 0.65) / (1 - (posterior.transient_fault ?? 0)),
      ]),
    );
    expect(repairAsTest({ ...situation, posterior: likely }, repairs, [])?.id).toBe('reset_unit');
    // Once a repair cleared the fault, none is tried as a test.
    expect(
      repairAsTest({ ...situation, posterior: likely, resolvedBy: ['reset_unit'] }, repairs, []),
    ).toBeUndefined();
  });

  it('still reaches a failing defrost, the leader-separated walk, when the repairs tried are carried out', () => {
    // The walk of leader-separated.test.ts under the shipped knowledge: with ΔT and the diverter
    // unread, cheap repairs are tried before the frost is looked at (longer than with the rule off,
    // which asks the frost and the drain first); the forced defrost cycle then clears it.
    const walk = DEFROST_WALK;
    const on = drive(createSession(real, start), walk);
    expect(on.s.status).toBe('concluded');
    expect(on.s.outcome?.reason).toBe('repair_resolved');
    expect(on.s.outcome?.cause_id).toBe('defrost_fault');
    expect(on.asked.at(-1)).toBe('run_defrost_cycle');
  });
});

describe('a streak of unread checks that repairs carried out do not end', () => {
  // Only the gauge is read; every other reading comes back unknown, and each repair tried is carried
  // out without clearing the fault.
  const start = { ...base, symptom: 'the heat pump is in fault' };
  const answers = { read_water_pressure: 1.5 };

  it('ships on', () => {
    expect(real.settings.selection.streak_through_repairs).toBe(true);
  });

  it('hands the job on at the third unread check, the repairs between them notwithstanding', () => {
    const on = drive(createSession(withRule(true, true), start), answers);
    const repairs = on.asked.filter((id) => on.s.model.actions.find((a) => a.id === id)?.kind === 'repair');
    expect(repairs.length).toBeGreaterThan(0);
    expect(on.s.status).toBe('escalated');
    expect(on.s.outcome?.reason).toBe('readings_unavailable');
    expect(on.asked.length).toBeLessThan(real.settings.budget_turns);
  });

  it('without the rule, each repair restarts the count and the session tries repairs until its budget', () => {
    const off = drive(createSession(withRule(true, false), start), answers);
    expect(off.s.status).toBe('escalated');
    expect(off.s.outcome?.reason).toBe('budget_spent');
    expect(off.asked.length).toBe(real.settings.budget_turns);
  });
});
