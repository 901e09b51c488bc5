import { describe, expect, it } from 'vitest';
import { base, createSession, DEFROST_WALK, drive, type Knowledge, real, withSelection } from './scripted.js';

// Each rule is measured on its own: repairs tried as tests (selection.repair_as_test, tested in
// repair-as-test.test.ts) are off here, since the scripted technician answers no repair but the ones
// listed, and a repair left unanswered counts towards the streak that hands the job on.
function withRules(flags: { leader_repair_first: boolean; hand_on_separated: boolean }): Knowledge {
  return withSelection({ ...flags, repair_as_test: false });
}

describe("the leader's cheapest repair once no other cause explains the answers", () => {
  // Patchy frost and a drain that flows: the answers point at a failing defrost, and nothing else
  // explains them half as well. A forced defrost cycle clears it.
  const start = { ...base, symptom: 'the heat pump is in fault' };
  const answers = DEFROST_WALK;

  it('ships on', () => {
    expect(real.settings.selection.leader_repair_first).toBe(true);
  });

  it('is tried right after the look that separated the leader, and settles the case', () => {
    const on = drive(
      createSession(withRules({ leader_repair_first: true, hand_on_separated: true }), start),
      answers,
    );
    const drain = on.asked.indexOf('inspect_condensate_drain');
    expect(drain).toBeGreaterThanOrEqual(0);
    // The cheaper of the two repairs that clear it, not the defrost fault's listed remedy.
    expect(on.asked[drain + 1]).toBe('run_defrost_cycle');
    expect(on.s.status).toBe('concluded');
    expect(on.s.outcome?.reason).toBe('repair_resolved');
    expect(on.s.outcome?.cause_id).toBe('defrost_fault');
  });

  it('without the rule, the session reads on until its budget and never tries it', () => {
    const off = drive(
      createSession(withRules({ leader_repair_first: false, hand_on_separated: true }), start),
      answers,
    );
    expect(off.asked).not.toContain('run_defrost_cycle');
    expect(off.s.status).toBe('escalated');
    expect(off.s.outcome?.cause_id).not.toBe('defrost_fault');
  });
});

describe('a separated leader whose part a check could still rule out, when a reading came back unknown', () => {
  // A grinding circulator: the leader dominates and no rival explains the noise; the checks that
  // could rule its part out need meters the technician does not have.
  const start = { ...base, symptom: 'the circulator makes a grinding noise' };
  const answers = { read_water_pressure: 1.5, listen_circulator: 'grinding' };

  it('ships on', () => {
    expect(real.settings.selection.hand_on_separated).toBe(true);
  });

  it('hands the job on naming it after the first unknown, never proposing the part', () => {
    const on = drive(
      createSession(withRules({ leader_repair_first: true, hand_on_separated: true }), start),
      answers,
    );
    const off = drive(
      createSession(withRules({ leader_repair_first: true, hand_on_separated: false }), start),
      answers,
    );
    expect(on.s.status).toBe('escalated');
    expect(on.s.outcome?.cause_id).toBe('circulator_failed');
    expect(on.s.outcome?.repair_plan).toContain('replace_circulator');
    expect(on.asked).not.toContain('replace_circulator');
    // Without the rule, every meter reading that could rule the part out is asked in turn first.
    expect(off.asked.length).toBeGreaterThan(on.asked.length);
    expect(off.asked.slice(0, on.asked.length)).toEqual(on.asked);
    // A reading answered with a value keeps the rule from firing: the leader was not left unchecked.
    const read = drive(
      createSession(withRules({ leader_repair_first: true, hand_on_separated: true }), start),
      { ...answers, [on.asked[on.asked.length - 1]!]: 5 },
    );
    expect(read.asked.length).toBeGreaterThan(on.asked.length);
  });
});
