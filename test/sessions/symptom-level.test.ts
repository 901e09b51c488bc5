import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  nextAction,
  respond,
  type SessionState,
} from '../../src/engine/sessions/index.js';

const k = loadKnowledge();
const start = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1', symptom: 'unit stops' };

/** Runs the session, answering from `answers` by action id and "unknown" to everything else. */
function drive(s: SessionState, answers: Record<string, unknown>): { s: SessionState; asked: string[] } {
  const asked: string[] = [];
  while (s.status === 'active') {
    const action = nextAction(s)!;
    asked.push(action.id);
    const value = action.id in answers ? answers[action.id] : { unknown: true };
    s = respond(s, { action_id: action.id, value: value as never });
  }
  return { s, asked };
}

describe('a symptom-level cause (a low water pressure)', () => {
  it('is marked in the knowledge, and its rival explains the same reading', () => {
    const cause = k.causes.find((c) => c.id === 'low_water_pressure')!;
    expect(cause.symptom_level).toBe(true);
    const vessel = k.causes.find((c) => c.id === 'expansion_vessel_flat')!;
    expect(Object.keys(vessel.effects.water_pressure ?? {})).toContain('low');
  });

  it('asks how the pressure behaves before settling on topping it up, even when the top-up worked', () => {
    const s = createSession(k, { ...start, readings: [{ quantity: 'water_pressure', value: 0.4 }] });
    const { s: end, asked } = drive(s, { top_up_water_pressure: true });
    expect(asked).toContain('ask_pressure_history');
    expect(end.outcome?.cause_id).toBe('low_water_pressure');
  });

  it('does not conclude on the low pressure when the pressure swings with temperature', () => {
    const s = createSession(k, { ...start, readings: [{ quantity: 'water_pressure', value: 0.4 }] });
    const { s: end, asked } = drive(s, {
      top_up_water_pressure: true,
      ask_pressure_history: 'swings_with_temperature',
    });
    expect(asked).toContain('ask_pressure_history');
    expect(end.outcome?.cause_id).not.toBe('low_water_pressure');
  });
});
