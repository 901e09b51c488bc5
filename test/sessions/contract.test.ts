import { describe, expect, it } from 'vitest';
import {
  CreateSessionRequest,
  Session,
  SessionResponseRequest,
  SessionSummary,
} from '../../src/contract/sessions.js';
import {
  close,
  createSession,
  loadKnowledge,
  respond,
  sessionInitFromRequest,
  summary,
  toPublic,
} from '../../src/engine/sessions/index.js';
import { citation } from './fixture.js';

describe('session contract', () => {
  const k = loadKnowledge();
  const init = {
    equipment: 'air_water' as const,
    brand: 'Acme',
    model: 'HP-1',
    code: 'E7',
    symptom: 'Water flow error after draining the floor heating',
    context: { emitter: 'underfloor' as const },
    manualFacts: [
      {
        code: 'E7',
        title: 'Water flow too low',
        causes: ['Air in the water circuit'],
        steps: [{ order: 1, text: 'Purge the air from the circuit', safety: null }],
        citation: citation(3),
      },
    ],
  };

  it('shows an active session as the contract describes it', () => {
    const s = createSession(k, init);
    const pub = Session.parse(toPublic(s));
    expect(pub.status).toBe('active');
    expect(pub.next_action).not.toBeNull();
    expect(pub.outcome).toBeUndefined();
    expect(pub.hypotheses[0]!.probability).toBeGreaterThanOrEqual(pub.hypotheses[1]!.probability);
    expect(pub.hypotheses.some((h) => h.source === 'residual')).toBe(true);
    expect(pub.turns).toEqual({ used: 0, budget: 12 });
    expect(pub.equipment).toMatchObject({
      error_code: 'E7',
      equipment: 'air_water',
      context: { emitter: 'underfloor' },
    });
  });

  it('gives a number question its unit and the nominal range of the context', () => {
    const s = createSession(k, init);
    const fr = toPublic(s, { lang: 'fr' });
    expect(fr.hypotheses.find((h) => h.id === 'air_in_water_circuit')?.label).toBe(
      "Air dans le circuit d'eau",
    );
    const dt = s.model.actions.find((a) => a.id === 'read_water_delta_t')!;
    expect(dt.expected).toMatchObject({ type: 'number', unit: 'K', nominal_range: [4, 8] });
  });

  it('shows the outcome, the history and a summary with every citation once finished', () => {
    let s = createSession(k, init);
    while (s.status === 'active') {
      const id = s.next_action_id!;
      const value =
        id === 'purge_water_circuit'
          ? true
          : id === 'inspect_air_vent'
            ? 'releases_air'
            : { unknown: true as const };
      s = respond(s, { action_id: id, value });
    }
    const pub = Session.parse(toPublic(s));
    expect(pub.status).toBe('concluded');
    expect(pub.next_action).toBeNull();
    expect(pub.outcome?.cause?.id).toBe('air_in_water_circuit');
    expect(pub.outcome?.citations).toEqual([citation(3)]);
    expect(pub.history.length).toBe(s.history.length);
    const sum = SessionSummary.parse(summary(close(s)));
    expect(sum.status).toBe('closed');
    expect(sum.citations).toEqual([citation(3)]);
    expect(sum.path.map((p) => p.action_id)).toEqual(s.history.map((h) => h.action_id));
  });

  it('turns a create request into a session', () => {
    const request = CreateSessionRequest.parse({
      brand: 'Acme',
      model: 'HP-1',
      equipment: 'air_water',
      error_code: 'E7',
      readings: [{ quantity: 'water_pressure', value: 0.4 }],
      budget: 5,
    });
    const s = createSession(
      k,
      sessionInitFromRequest(
        { ...request, equipment: 'air_water' },
        { id: 'ses_1', manualFacts: init.manualFacts },
      ),
    );
    expect(s.id).toBe('ses_1');
    expect(s.initial_readings).toEqual([
      { action_id: 'read_water_pressure', quantity: 'water_pressure', value: 0.4 },
    ]);
    expect(toPublic(s).turns.budget).toBe(5);
    expect(s.model.citations).toEqual([citation(3)]);
  });

  it('validates requests', () => {
    expect(
      CreateSessionRequest.safeParse({ brand: 'Acme', model: 'X', equipment: 'air_water' }).success,
    ).toBe(true);
    expect(CreateSessionRequest.safeParse({ model: 'X', equipment: 'air_water' }).success).toBe(false);
    expect(CreateSessionRequest.safeParse({ brand: 'A', model: 'X', equipment: 'geothermal' }).success).toBe(
      false,
    );
    expect(SessionResponseRequest.safeParse({ action_id: 'a', value: { unknown: true } }).success).toBe(true);
    expect(SessionResponseRequest.safeParse({ action_id: 'a', value: 1.5 }).success).toBe(true);
    expect(SessionResponseRequest.safeParse({ action_id: 'a', value: { unknown: false } }).success).toBe(
      false,
    );
    expect(SessionResponseRequest.safeParse({ value: true }).success).toBe(false);
  });
});
