import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  type ManualFact,
  respond,
  summary,
  toPublic,
} from '../../src/engine/sessions/index.js';
import { citation } from './fixture.js';

const facts: ManualFact[] = [
  {
    code: 'E7',
    title: 'Water flow too low',
    causes: ['Water filter clogged', 'Luft im Heizkreis', 'Flux regulator misaligned'],
    steps: [
      { order: 1, text: 'Clean the water filter', safety: null },
      { order: 2, text: 'Check the flux regulator alignment mark', safety: 'Isolate the power supply first' },
    ],
    citation: citation(12),
  },
  {
    code: 'E7',
    title: 'Débit insuffisant',
    causes: ['Pression d’eau insuffisante', 'Flux regulator misaligned'],
    steps: [{ order: 1, text: 'Remplacer le régulateur de flux', safety: null }],
    citation: citation(40),
  },
];

describe('manual facts join the hypotheses', () => {
  const k = loadKnowledge();
  const s = createSession(k, {
    equipment: 'air_water',
    brand: 'Acme',
    model: 'HP-1',
    code: 'E7',
    manualFacts: facts,
  });
  const pub = toPublic(s);
  const byId = new Map(pub.hypotheses.map((h) => [h.id, h]));

  it('maps the manual causes onto knowledge causes by keywords in any language, with their citations', () => {
    expect(byId.get('strainer_clogged')).toMatchObject({ source: 'manual', citations: [citation(12)] });
    expect(byId.get('air_in_water_circuit')).toMatchObject({ source: 'manual', citations: [citation(12)] });
    expect(byId.get('low_water_pressure')).toMatchObject({ source: 'manual', citations: [citation(40)] });
    expect(byId.get('circulator_failed')).toMatchObject({ source: 'knowledge', citations: [] });
  });

  it('adds a cause no knowledge cause matches as a manual-only hypothesis, once, citing every fact', () => {
    const manual = pub.hypotheses.filter((h) => h.id.startsWith('manual-'));
    expect(manual).toHaveLength(1);
    expect(manual[0]).toMatchObject({
      label: 'Flux regulator misaligned',
      source: 'manual',
      citations: [citation(12), citation(40)],
    });
    expect(manual[0]!.probability).toBeGreaterThan(0);
  });

  it('makes the causes the manual lists more likely than before', () => {
    const plain = createSession(k, { equipment: 'air_water', brand: 'Acme', model: 'HP-1', code: 'E7' });
    expect(s.posterior.strainer_clogged!).toBeGreaterThan(plain.posterior.strainer_clogged!);
    expect(s.model.symptoms).toContain('flow_fault');
  });

  it('cites the manual on the knowledge action a step describes, and asks an unmatched step as it stands', () => {
    const clean = s.model.actions.find((a) => a.id === 'clean_strainer')!;
    expect(clean.citations).toEqual([citation(12)]);
    const step = s.model.actions.find((a) => a.id === 'manual-step-1-2')!;
    expect(step).toMatchObject({
      kind: 'check',
      source: 'manual',
      replacement: false,
      citations: [citation(12)],
    });
    expect(step.safety?.en).toBe('Isolate the power supply first');
    // "Remplacer ..." is a part swap: kept as a cited step, never asked as a check
    expect(s.model.actions.find((a) => a.id === 'manual-step-2-1')!.replacement).toBe(true);
  });

  it('lists every citation in the summary', () => {
    let state = s;
    while (state.status === 'active') {
      state = respond(state, { action_id: state.next_action_id!, value: { unknown: true } });
    }
    const pages = summary(state).citations.map((c) => c.page);
    expect(pages).toEqual(expect.arrayContaining([12, 40]));
  });
});
