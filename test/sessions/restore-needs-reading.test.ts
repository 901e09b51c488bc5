import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  nextAction,
  respond,
  type SessionState,
} from '../../src/engine/sessions/index.js';

// Topping up a circuit whose gauge nobody has read can overfill it and lift its safety valve: the
// repair that brings the water pressure back into its range waits for a reading of that pressure.
const k = loadKnowledge();
const without = {
  ...k,
  settings: { ...k.settings, selection: { ...k.settings.selection, restore_needs_reading: false } },
};
const start = {
  equipment: 'air_water' as const,
  brand: 'Acme',
  model: 'HP-1',
  symptom: "perte de pression d'eau, appoint fait la semaine dernière",
};

/** The actions asked, answering from `answers` by action id and "unknown" to everything else. */
function asked(s: SessionState, answers: Record<string, unknown>): string[] {
  const ids: string[] = [];
  while (s.status === 'active') {
    const action = nextAction(s)!;
    ids.push(action.id);
    const value = action.id in answers ? answers[action.id] : { unknown: true };
    s = respond(s, { action_id: action.id, value: value as never });
  }
  return ids;
}

describe('a repair that restores a reading', () => {
  it('is declared on the top-up, for the water pressure', () => {
    expect(k.actions.find((a) => a.id === 'top_up_water_pressure')?.restores).toBe('water_pressure');
  });

  it('is never proposed while the gauge has not been read', () => {
    const ids = asked(createSession(k, start), {});
    expect(ids).toContain('read_water_pressure');
    expect(ids).not.toContain('top_up_water_pressure');
    // Without the rule the same session tops the circuit up blind once the gauge went unread.
    expect(asked(createSession(without, start), {})).toContain('top_up_water_pressure');
  });

  it('is proposed once the gauge reads low', () => {
    const ids = asked(createSession(k, { ...start, symptom: 'la PAC se met en sécurité' }), {
      read_water_pressure: 0.5,
    });
    expect(ids.slice(0, 2)).toEqual(['read_water_pressure', 'top_up_water_pressure']);
  });
});
