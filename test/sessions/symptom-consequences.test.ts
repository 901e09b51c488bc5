import { describe, expect, it } from 'vitest';
import { base, createSession, drive, type Knowledge, real } from './scripted.js';

/** The shipped knowledge with the low pressure's consequences unmarked (the rule off). */
function unmarked(): Knowledge {
  return {
    ...real,
    causes: real.causes.map((c) => (c.id === 'low_water_pressure' ? { ...c, through_symptom: [] } : c)),
  };
}

/** A low gauge, a top-up that cleared the fault, no leak seen; every other step unanswered. */
const TOPPED_UP = { top_up_water_pressure: true, inspect_water_leaks: 'none' };
const start = { ...base, symptom: 'unit stops', readings: [{ quantity: 'water_pressure', value: 0.6 }] };

describe('a symptom told from a cause it may mask', () => {
  it('marks the low pressure’s consequences in the knowledge, from the fault tree’s mechanism', () => {
    const cause = real.causes.find((c) => c.id === 'low_water_pressure')!;
    expect(cause.through_symptom).toEqual(expect.arrayContaining(['water_flow', 'water_delta_t']));
  });

  it('is not told by a reading of its consequences (the ΔT) once the top-up cleared the fault', () => {
    const { s, asked } = drive(createSession(real, start), TOPPED_UP);
    expect(asked).toContain('ask_pressure_history');
    expect(asked).not.toContain('read_water_delta_t');
    expect(s.outcome?.cause_id).toBe('low_water_pressure');
  });

  it('asked the ΔT as if it told the pressure from the vessel when the consequences were unmarked', () => {
    const { s, asked } = drive(createSession(unmarked(), start), TOPPED_UP);
    expect(asked).toContain('read_water_delta_t');
    expect(s.outcome?.cause_id).toBe('low_water_pressure');
  });
});
