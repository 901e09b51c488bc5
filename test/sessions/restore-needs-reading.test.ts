import { describe, expect, it } from 'vitest';
import { base, createSession, drive, real, withSelection } from './scripted.js';

// Topping up a circuit whose gauge nobody has read can overfill it and lift its safety valve: the
// repair that brings the water pressure back into its range waits for a reading of that pressure.
const without = withSelection({ restore_needs_reading: false });
const start = { ...base, symptom: "perte de pression d'eau, appoint fait la semaine dernière" };

/** The actions asked, answering from `answers` by action id and "unknown" to everything else. */
const asked = (k: typeof real, init: typeof start, answers: Record<string, unknown>) =>
  drive(createSession(k, init), answers).asked;

describe('a repair that restores a reading', () => {
  it('is declared on the top-up, for the water pressure', () => {
    expect(real.actions.find((a) => a.id === 'top_up_water_pressure')?.restores).toBe('water_pressure');
  });

  it('is never proposed while the gauge has not been read', () => {
    const ids = asked(real, start, {});
    expect(ids).toContain('read_water_pressure');
    expect(ids).not.toContain('top_up_water_pressure');
    // Without the rule the same session tops the circuit up blind once the gauge went unread.
    expect(asked(without, start, {})).toContain('top_up_water_pressure');
  });

  it('is proposed once the gauge reads low', () => {
    const ids = asked(real, { ...start, symptom: 'la PAC se met en sécurité' }, { read_water_pressure: 0.5 });
    expect(ids.slice(0, 2)).toEqual(['read_water_pressure', 'top_up_water_pressure']);
  });
});
