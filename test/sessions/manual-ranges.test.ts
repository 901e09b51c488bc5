import { describe, expect, it } from 'vitest';
import { expectedText } from '../../src/cli/format-session.js';
import { valueFor } from '../../src/cli/session-answer.js';
import {
  createSession,
  loadKnowledge,
  type ManualFact,
  nextAction,
  respond,
  toPublic,
} from '../../src/engine/sessions/index.js';
import { citation } from './fixture.js';

/** A made-up manual entry for a water-flow code, written for this test. */
const facts: ManualFact[] = [
  {
    code: 'F3',
    title: 'Water flow error',
    causes: ['closed valves, blocked strainer, air in the circuit'],
    steps: [
      { order: 1, text: 'Check that the isolation valves are open.', safety: null },
      {
        order: 2,
        text: 'Check the water pressure. It must be between 1,0 and 2.5 bar with the water cold.',
        safety: null,
      },
      {
        order: 3,
        text: 'Read the flow on the controller: at least 12 l/min for AW-80, 17 l/min for AW-120.',
        safety: null,
      },
      { order: 4, text: 'A correct signal with no flow points to a blocked circulator.', safety: null },
    ],
    citation: citation(7),
  },
];

const k = loadKnowledge();
const start = (model: string) =>
  createSession(k, { equipment: 'air_water', brand: 'Acme', model, code: 'F3', manualFacts: facts });
const expectedOf = (model: string, id: string) => {
  const s = start(model);
  return toPublic(s).next_action && s.model.actions.find((a) => a.id === id)!.expected;
};

describe("the manual's own ranges, for the session's model", () => {
  it('replaces the general figure with the range the manual states, citing its page', () => {
    const pressure = expectedOf('AW-80', 'read_water_pressure');
    expect(pressure).toMatchObject({
      nominal_range: [1, 2.5],
      range_source: { kind: 'manual', citation: citation(7), stated: [1, 2.5] },
    });
    const action = start('AW-80').model.actions.find((a) => a.id === 'read_water_pressure')!;
    expect(action.citations).toContainEqual(citation(7));
  });

  it('takes the threshold given for this model, never another model’s', () => {
    expect(expectedOf('AW-80', 'measure_water_flow')).toMatchObject({
      range_source: { kind: 'manual', stated: [12, null] },
    });
    expect(expectedOf('AW 120', 'measure_water_flow')).toMatchObject({
      range_source: { kind: 'manual', stated: [17, null] },
    });
    const other = expectedOf('AW-100', 'measure_water_flow');
    expect(other).toMatchObject({ range_source: { kind: 'knowledge' } });
    // Without a manual entry the general figure stands, and says so.
    const plain = createSession(k, { equipment: 'air_water', brand: 'Acme', model: 'AW-80' });
    const flow = plain.model.actions.find((a) => a.id === 'measure_water_flow')!.expected;
    expect(flow).toMatchObject({ range_source: { kind: 'knowledge' } });
  });

  it('shows the manual range with its page at the prompt, and the general figure as such', () => {
    const s = start('AW-80');
    const pub = (id: string) => toPublic({ ...s, next_action_id: id }).next_action!.expected;
    expect(expectedText(pub('read_water_pressure'))[0]).toBe(
      'a number in bar (normal 1 to 2.5 bar, from the manual: Service manual, page 7)',
    );
    expect(expectedText(pub('measure_water_flow'))[0]).toContain('at least 12 l/min, from the manual');
    expect(expectedText(pub('read_water_delta_t'))[0]).toContain(
      'a general figure: the manual states no range',
    );
  });

  it('states the range a repair restores, from the manual with its page or as a general figure', () => {
    const topUp = start('AW-80').model.actions.find((a) => a.id === 'top_up_water_pressure')!;
    expect(topUp.prompt.en).toMatch(/The manual gives 1 to 2\.5 bar\.$/);
    expect(topUp.citations).toContainEqual(citation(7));
    const plain = createSession(k, { equipment: 'air_water', brand: 'Acme', model: 'AW-80' });
    const general = plain.model.actions.find((a) => a.id === 'top_up_water_pressure')!;
    expect(general.prompt.en).toMatch(/General figure \(the manual states no range\): 1\.2 to 2\.5 bar\.$/);
    expect(general.citations).toEqual([]);
  });

  it('cites the page of a step that speaks of the cause', () => {
    const circulator = toPublic(start('AW-80')).hypotheses.find((h) => h.id === 'circulator_failed')!;
    expect(circulator.citations).toContainEqual(citation(7));
  });

  it('asks the two-minute gauge reading before any repair', () => {
    const s = start('AW-80');
    const first = nextAction(s)!;
    expect(first.id).toBe('read_water_pressure');
    expect(first.minutes).toBeLessThanOrEqual(2);
  });
});

describe('physically impossible readings', () => {
  it('are refused with the plausible range, and leave the session as it was', () => {
    let s = start('AW-80');
    s = respond(s, { action_id: nextAction(s)!.id, value: { unknown: true } });
    const dt = s.model.actions.find((a) => a.id === 'read_water_delta_t')!;
    const asked = { ...s, next_action_id: dt.id };
    expect(() => respond(asked, { action_id: dt.id, value: -500 })).toThrow(/plausible -30 to 60 K/);
    expect(() => respond(asked, { action_id: dt.id, value: 5 })).not.toThrow();
    expect(asked.history).toHaveLength(1);
  });

  it('are refused at the prompt before they reach the session', () => {
    const expected = toPublic({ ...start('AW-80'), next_action_id: 'read_water_delta_t' }).next_action!
      .expected;
    expect(expected.plausible_range).toEqual([-30, 60]);
    expect(valueFor('-500', expected)).toEqual({ error: '-500 K is not a plausible reading: -30 to 60 K' });
    expect(valueFor('6', expected)).toEqual({ value: 6 });
  });
});
