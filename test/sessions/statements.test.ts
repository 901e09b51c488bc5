import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  respond,
  toPublic,
  validateKnowledge,
} from '../../src/engine/sessions/index.js';
import type { Statement } from '../../src/engine/sessions/knowledge-schema.js';
import { fixtureKnowledge, RAW_FIXTURE } from './fixture.js';

const real = loadKnowledge();
const noStatements = { ...real, statements: [] };
const unit = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

function stated(symptom: string) {
  return (createSession(real, { ...unit, symptom }).model.stated ?? []).map((r) => [r.quantity, r.outcome]);
}

describe('readings stated in the description', () => {
  it('reads each stated quantity with its outcome, in French and English', () => {
    expect(
      stated("PAC en sécurité. ΔT très faible, débit nominal affiché, pas d'air au purgeur, sous garantie"),
    ).toEqual([
      ['water_delta_t', 'low'],
      ['water_flow', 'normal'],
      ['purger_state', 'no_air'],
      ['under_warranty', 'true'],
    ]);
    expect(stated('Unit out of warranty; the air vent spits air and the delta T is low')).toEqual([
      ['water_delta_t', 'low'],
      ['purger_state', 'releases_air'],
      ['under_warranty', 'false'],
    ]);
  });

  it('keeps clauses apart and reads nothing from a description that contradicts itself', () => {
    expect(stated('débit ok mais ΔT faible')).toEqual([
      ['water_delta_t', 'low'],
      ['water_flow', 'normal'],
    ]);
    expect(stated('ΔT faible le matin. ΔT normal le soir.')).toEqual([]);
    // A subject far from any outcome word states nothing.
    expect(stated('le ΔT de cette installation au plancher mesuré hier était faible')).toEqual([]);
  });

  it('weighs a stated reading as evidence, short of a reading taken on site', () => {
    const symptom = 'ΔT très faible';
    const withStatement = createSession(real, { ...unit, symptom });
    const without = createSession(noStatements, { ...unit, symptom });
    const measured = createSession(noStatements, {
      ...unit,
      symptom,
      readings: [{ quantity: 'water_delta_t', value: 1 }],
    });
    const flow = ['air_in_water_circuit', 'strainer_clogged', 'circulator_failed'];
    const mass = (p: Record<string, number>) => flow.reduce((sum, id) => sum + (p[id] ?? 0), 0);
    expect(mass(withStatement.posterior)).toBeGreaterThan(mass(without.posterior));
    expect(mass(withStatement.posterior)).toBeLessThan(mass(measured.posterior));
  });

  it('lets a reading taken on site replace the statement', () => {
    const symptom = 'ΔT très faible';
    const readings = [{ quantity: 'water_delta_t', value: 6 }];
    const s = createSession(real, { ...unit, symptom, readings });
    const plain = createSession(noStatements, { ...unit, symptom, readings });
    for (const [id, p] of Object.entries(plain.posterior)) expect(s.posterior[id]).toBeCloseTo(p, 12);
    expect(toPublic(s).stated_readings).toEqual([
      expect.objectContaining({ quantity: 'water_delta_t', outcome: 'low', superseded: true }),
    ]);
    // The history weighs each step as the session does, the statement included.
    let asked = createSession(real, { ...unit, symptom });
    asked = respond(asked, { action_id: asked.next_action_id!, value: { unknown: true } });
    const [id, probability] = Object.entries(asked.posterior).sort((x, y) => y[1] - x[1])[0]!;
    expect(toPublic(asked).history[0]!.top_hypothesis).toEqual({
      id,
      probability: expect.closeTo(probability, 5),
    });
    expect(toPublic(createSession(real, { ...unit, symptom })).stated_readings).toEqual([
      expect.objectContaining({ quantity: 'water_delta_t', superseded: false }),
    ]);
  });

  it('shows what it read, labelled, in the public view', () => {
    const view = toPublic(createSession(real, { ...unit, symptom: 'Mesures HP/BP normales' }), {
      lang: 'fr',
    });
    expect(view.stated_readings).toEqual([
      {
        quantity: 'refrigerant_pressures',
        label: expect.any(String),
        outcome: 'within_range',
        outcome_label: 'Dans la plage',
        phrase: 'hp bp normales',
        superseded: false,
      },
    ]);
  });

  it('takes a stated warranty as the answer to the warranty question', () => {
    const warranty: Statement = {
      quantity: 'under_warranty',
      subject: { en: ['warranty'], fr: ['garantie'], de: ['garantie'], es: ['garantia'], nl: ['garantie'] },
      outcomes: {
        true: { en: ['under'], fr: ['sous'], de: ['unter'], es: ['bajo'], nl: ['onder'] },
        false: { en: ['out of'], fr: ['hors'], de: ['ausserhalb'], es: ['fuera de'], nl: ['buiten'] },
      },
    };
    const k = validateKnowledge({ ...structuredClone(RAW_FIXTURE), statements: { statements: [warranty] } });
    const leads = {
      ...unit,
      readings: [
        { quantity: 'gauge', value: 1.5 },
        { quantity: 'look', value: 'clean' },
      ],
      threshold: 0.75,
      replacementThreshold: 0.8,
    };
    // Without the statement the session asks; with it, a confirmed worn part goes to the maker at once.
    const asked = respond(createSession(k, { ...leads, symptom: 'grinding noise' }), {
      action_id: 'probe_part',
      value: 'bad',
    });
    expect(asked.next_action_id).toBe('ask_warranty');
    const told = respond(createSession(k, { ...leads, symptom: 'grinding noise, unit under warranty' }), {
      action_id: 'probe_part',
      value: 'bad',
    });
    expect(told.status).toBe('escalated');
    expect(told.outcome).toMatchObject({ reason: 'under_warranty', cause_id: 'swap' });
    expect(told.history.map((h) => h.action_id)).toEqual(['probe_part']);
    expect(fixtureKnowledge().statements).toEqual([]);
  });
});
