import { describe, expect, it } from 'vitest';
import { createSession, respond } from '../../src/engine/sessions/index.js';
import { fixtureKnowledge } from './fixture.js';

const base = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

describe('Bayesian update', () => {
  const k = fixtureKnowledge();

  it('starts from the knowledge weights with the residual mass set aside', () => {
    const s = createSession(k, base);
    // weights leak 2, clog 1, swap 1; residual prior 0.1
    expect(s.posterior.leak).toBeCloseTo(0.45, 12);
    expect(s.posterior.clog).toBeCloseTo(0.225, 12);
    expect(s.posterior.swap).toBeCloseTo(0.225, 12);
    expect(s.posterior.unknown).toBeCloseTo(0.1, 12);
  });

  it('multiplies each hypothesis by the likelihood of a choice answer and renormalises', () => {
    const s = createSession(k, { ...base, readings: [{ quantity: 'look', value: 'dirty' }] });
    // look baseline dirty 0.2; clog is strong (0.8) on dirty: 0.2 * 0.2 + 0.8 = 0.84;
    // the residual mixes baseline and uniform half and half: 0.5 * 0.2 + 0.5 * 0.5 = 0.35
    const leak = 0.45 * 0.2;
    const clog = 0.225 * 0.84;
    const swap = 0.225 * 0.2;
    const unknown = 0.1 * 0.35;
    const z = leak + clog + swap + unknown;
    expect(s.posterior.clog).toBeCloseTo(clog / z, 12);
    expect(s.posterior.leak).toBeCloseTo(leak / z, 12);
    expect(s.posterior.swap).toBeCloseTo(swap / z, 12);
    expect(s.posterior.unknown).toBeCloseTo(unknown / z, 12);
  });

  it('shares a reading on the edge of the nominal range between the two bands', () => {
    const s = createSession(k, { ...base, readings: [{ quantity: 'gauge', value: 1 }] });
    // default baseline low 0.1, normal 0.77, high 0.1, normalised; the value 1.0 sits on the lower
    // end (margin 0.1), so it counts half low, half normal; leak is moderate (0.5) on low
    const b = { low: 0.1 / 0.97, normal: 0.77 / 0.97 };
    const leakL = 0.5 * (0.5 * b.low + 0.5) + 0.5 * (0.5 * b.normal);
    const otherL = 0.5 * b.low + 0.5 * b.normal;
    const residualL = 0.5 * (0.5 * b.low + 0.5 / 3) + 0.5 * (0.5 * b.normal + 0.5 / 3);
    const z = 0.45 * leakL + 0.45 * otherL + 0.1 * residualL;
    expect(s.posterior.leak).toBeCloseTo((0.45 * leakL) / z, 12);
    expect(s.posterior.clog).toBeCloseTo((0.225 * otherL) / z, 12);
  });

  it('reads a value well below the range as fully low', () => {
    const low = createSession(k, { ...base, readings: [{ quantity: 'gauge', value: 0.5 }] });
    const b = { low: 0.1 / 0.97 };
    const leakL = 0.5 * b.low + 0.5;
    const z = 0.45 * leakL + 0.45 * b.low + 0.1 * (0.5 * b.low + 0.5 / 3);
    expect(low.posterior.leak).toBeCloseTo((0.45 * leakL) / z, 12);
  });

  it('treats "unknown" as no evidence: probabilities unchanged, the action not asked again', () => {
    const s = createSession(k, base);
    const asked = s.next_action_id!;
    const after = respond(s, { action_id: asked, value: { unknown: true } });
    expect(after.posterior).toEqual(s.posterior);
    expect(after.history).toHaveLength(1);
    expect(after.history[0]!.answer).toEqual({ unknown: true });
    expect(after.next_action_id).not.toBe(asked);
    let state = after;
    const seen = [asked];
    while (state.status === 'active') {
      expect(seen).not.toContain(state.next_action_id);
      seen.push(state.next_action_id!);
      state = respond(state, { action_id: state.next_action_id!, value: { unknown: true } });
    }
    expect(state.posterior).toEqual(s.posterior);
  });

  it('makes a recognised symptom raise its causes and lower the causes it does not explain', () => {
    const plain = createSession(k, base);
    const grinding = createSession(k, { ...base, symptom: 'Loud grinding at start-up' });
    // swap x8; leak and clog explain no recognised symptom: x0.5
    const z = 2 * 0.5 + 1 * 0.5 + 1 * 8;
    expect(grinding.posterior.swap).toBeCloseTo((0.9 * 8) / z, 12);
    expect(grinding.posterior.leak).toBeCloseTo((0.9 * 1) / z, 12);
    expect(grinding.posterior.swap).toBeGreaterThan(plain.posterior.swap!);
    expect(grinding.model.symptoms).toEqual(['grinding']);
  });
});
