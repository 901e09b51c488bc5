import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge, nextAction, respond } from '../../src/engine/sessions/index.js';

const k = loadKnowledge();

/** The checks asked, answering every one with a nominal reading, up to `limit`. */
function asked(symptom: string, limit = 6): { id: string; instrument: boolean; minutes: number }[] {
  let s = createSession(k, { equipment: 'air_water', brand: 'Acme', model: 'HP-1', symptom });
  const out: { id: string; instrument: boolean; minutes: number }[] = [];
  while (s.status === 'active' && out.length < limit) {
    const a = nextAction(s)!;
    out.push({ id: a.id, instrument: !!a.instrument, minutes: a.minutes });
    const e = a.expected;
    const value =
      e.type === 'number'
        ? (e.nominal_range[0] + e.nominal_range[1]) / 2
        : e.type === 'choice'
          ? e.choices[0]!.id
          : false;
    s = respond(s, { action_id: a.id, value });
  }
  return out;
}

describe('checks that need an instrument', () => {
  it('are marked in the knowledge: readings of ΔT and flow need one, the gauge and the display do not', () => {
    const by = new Map(k.actions.map((a) => [a.id, a]));
    expect(by.get('read_water_delta_t')?.instrument).toBe('thermometer');
    expect(by.get('measure_water_flow')?.instrument).toBe('flow_meter');
    for (const id of [
      'read_water_pressure',
      'read_fault_display',
      'inspect_air_vent',
      'inspect_frost',
      'check_bypass',
    ])
      expect(by.get(id)?.instrument).toBeUndefined();
  });

  it('leave the quick tier to looks: the circulator is listened to before the water ΔT is measured', () => {
    for (const symptom of ['no heating, radiators cold', 'compressor trips']) {
      const path = asked(symptom).map((a) => a.id);
      expect(path).toContain('read_water_delta_t');
      expect(path).toContain('listen_circulator');
      // Both are five-minute readings or less; before the rule ΔT came first on both descriptions.
      expect(path.indexOf('listen_circulator')).toBeLessThan(path.indexOf('read_water_delta_t'));
    }
  });
});
