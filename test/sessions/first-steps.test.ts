import { describe, expect, it } from 'vitest';
import { loadKnowledge, toPublic } from '../../src/engine/sessions/index.js';
import { base, createSession, drive, nextAction, real, withSelection } from './scripted.js';

const COMMS = "erreur de communication entre l'unité extérieure et l'unité intérieure";

/** The shipped knowledge with the link cable's repair free to be tried before anything finds the damage. */
function unlocated(): typeof real {
  return {
    ...real,
    actions: real.actions.map((a) => (a.id === 'repair_link_cable' ? { ...a, located_by: undefined } : a)),
  };
}

describe('the first steps of a complaint that already points somewhere', () => {
  it('does not open a communication fault on the water gauge', () => {
    const first = nextAction(createSession(real, { ...base, symptom: COMMS }));
    expect(first?.id).not.toBe('read_water_pressure');
    // Without the rule the same session opens on the gauge, which bears on no suspected cause.
    const without = withSelection({ when_led: undefined });
    expect(nextAction(createSession(without, { ...base, symptom: COMMS }))?.id).toBe('read_water_pressure');
  });

  it('looks at the link cable before trying the repairs of causes the complaint leaves unlikely', () => {
    const { asked } = drive(createSession(real, { ...base, symptom: COMMS }), {});
    const cable = asked.indexOf('inspect_link_cable');
    expect(cable).toBeGreaterThanOrEqual(0);
    for (const unlikely of ['open_isolation_valves', 'adjust_heating_curve']) {
      const at = asked.indexOf(unlikely);
      expect(at === -1 || at > cable).toBe(true);
    }
    // Without the rule the same session opens the isolation valves before it looks at the cable.
    const noFloor = { ...real.settings.selection.when_led!, test_repair_min_fix: 0 };
    const without = drive(
      createSession(withSelection({ when_led: noFloor }), { ...base, symptom: COMMS }),
      {},
    );
    expect(without.asked.indexOf('open_isolation_valves')).toBeGreaterThanOrEqual(0);
  });

  it('asks no reading that tells nothing about the link cable, and hands the job on naming it', () => {
    const { asked, s } = drive(createSession(real, { ...base, symptom: COMMS }), {});
    expect(asked).not.toContain('read_water_pressure');
    expect(asked).not.toContain('read_water_delta_t');
    // Nor, as a last resort, a repair of a cause the complaint leaves at well under 1 % (a reset).
    expect(asked.filter((id) => real.actions.find((a) => a.id === id)?.kind === 'repair')).toEqual([]);
    expect(s.outcome).toMatchObject({ reason: 'readings_unavailable', cause_id: 'communication_link_fault' });
    // Without the bar on what a check tells about the lead, the water gauge and the display come first.
    const anyCheck = { ...real.settings.selection.when_led!, min_gain_bits: 1e-9 };
    const without = drive(
      createSession(withSelection({ when_led: anyCheck }), { ...base, symptom: COMMS }),
      {},
    );
    expect(without.asked.slice(0, 2)).toEqual(['read_water_pressure', 'read_fault_display']);
  });

  it('still opens on the gauge when the complaint is about the pressure', () => {
    const first = nextAction(createSession(real, { ...base, symptom: 'la pression baisse' }));
    expect(first?.id).toBe('read_water_pressure');
  });

  it('still opens on the gauge when the complaint points nowhere', () => {
    const first = nextAction(createSession(real, { ...base, symptom: 'la PAC est en défaut' }));
    expect(first?.id).toBe('read_water_pressure');
  });
});

describe('a repair of a defect someone must first find', () => {
  it('is declared on the link cable, located by its inspection or its continuity', () => {
    const repair = loadKnowledge().actions.find((a) => a.id === 'repair_link_cable');
    expect(repair?.located_by).toEqual(['link_cable_condition', 'link_continuity']);
  });

  it('is never asked while nothing has found the damage', () => {
    const { asked, s } = drive(createSession(real, { ...base, symptom: COMMS }), { reset_unit: false });
    expect(asked).not.toContain('repair_link_cable');
    expect(asked).toContain('inspect_link_cable');
    // Handed on, the plan keeps the repair and says which reading comes before it.
    const step = toPublic(s).outcome?.repair_plan.find((r) => r.id === 'repair_link_cable');
    expect(step?.reading_first?.id).toBe('inspect_link_cable');
    expect(step?.condition).toMatch(/inspect the link cable route/i);
    // Without the rule the same session replaces "the damaged section" before anyone has seen it.
    expect(drive(createSession(unlocated(), { ...base, symptom: COMMS }), {}).asked).toContain(
      'repair_link_cable',
    );
  });

  it('is not asked after an inspection that found the cable intact, which is not a defect found', () => {
    const { asked, s } = drive(createSession(real, { ...base, symptom: COMMS }), {
      inspect_link_cable: 'intact',
      reset_unit: false,
    });
    expect(asked).toContain('inspect_link_cable');
    expect(asked).not.toContain('repair_link_cable');
    // What could still find the damage is the continuity measurement.
    const step = toPublic(s).outcome?.repair_plan.find((r) => r.id === 'repair_link_cable');
    expect(step?.reading_first?.id).toBe('measure_link_continuity');
  });

  it('is the conclusion once the inspection finds the cable damaged', () => {
    const { asked, s } = drive(createSession(real, { ...base, symptom: COMMS }), {
      reset_unit: false,
      inspect_link_cable: 'damaged',
      repair_link_cable: true,
    });
    // The damage found, the cable's repair is what the session concludes on.
    expect(asked).toContain('inspect_link_cable');
    expect(s.outcome).toMatchObject({ cause_id: 'communication_link_fault', action_id: 'repair_link_cable' });
  });
});
