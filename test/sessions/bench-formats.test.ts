import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { causesFromText, loadCases } from '../../bench/sessions-cases.js';
import { evaluateCases } from '../../bench/sessions-eval.js';
import { SimulatedTechnician } from '../../bench/sessions-simulator.js';
import { createSession, loadKnowledge, nextAction } from '../../src/engine/sessions/index.js';

/** Made-up cases, one per format of the peer benchmark, written for this test. */
function writeCases(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'session-cases-'));
  const v2 = {
    id: 'hb2-9001',
    version: 2,
    split: 'public',
    locale: 'fr',
    symptom: {
      narrative:
        'La pression d eau chute depuis une semaine, appoint fait deux fois, la PAC se met en défaut.',
      code_present: 'E9',
      code_absent_by_design: false,
    },
    context: { brand: 'Acme', model: 'AW-8', equipment_type: 'pac_air_eau', in_corpus: false },
    initial_readings: {},
    hypotheses: [
      { id: 'pression_basse', label: 'Pression basse', prior: 0.5, n_observations: 40, true_cause: true },
      { id: 'air_circuit', label: 'Air dans le circuit', prior: 0.3, n_observations: 40, true_cause: false },
      { id: 'pompe_grippee', label: 'Circulateur HS', prior: 0.2, n_observations: 40, true_cause: false },
    ],
    tests: [
      { action_id: 'MES-PRESSION', observation: '0,6 bar au manomètre', discriminates: [], eliminates: [] },
      {
        action_id: 'MAN-REMPLISSAGE',
        observation: 'Remis à 1,5 bar, défaut disparu',
        discriminates: [],
        eliminates: [],
        resolves: true,
      },
      {
        action_id: 'REM-CIRCULATEUR',
        observation: 'Circulateur sain',
        discriminates: [],
        eliminates: [],
        wrong_part: true,
      },
    ],
    expert_path: ['MES-PRESSION', 'MAN-REMPLISSAGE'],
    escalation_expected: null,
    harvest: { harvest_date: '2026-01-01', reformulated: true },
    flags: { gate_critical: false, safety_sensitive: false, no_code: false, sparse_priors: false },
    meta: { created_at: '2026-01-01T00:00:00Z', author: 'test', family: 'code_multi_cause' },
  };
  const v3 = {
    id: 'hb2-9002',
    version: 3,
    split: 'public',
    locale: 'fr',
    symptom: {
      narrative:
        'Après la vidange du plancher chauffant la PAC se met en sécurité débit plusieurs fois par jour.',
      code_present: 'F1',
      code_absent_by_design: false,
    },
    context: {
      brand: 'Acme',
      equipment_type: 'pac_air_eau',
      emitter: 'plancher_chauffant',
      in_corpus: false,
    },
    initial_readings: {
      pression_circuit_bar: { quantity_id: 'pression_circuit_bar', value: 1.6, unit: 'bar' },
    },
    observations: [
      { action_id: 'OBS-PURGEUR', reading: { quantity_id: 'purgeur', modality: 'crache_air' } },
      {
        action_id: 'MAN-PURGE',
        reading: { quantity_id: 'delta_t_eau', value: 5, unit: 'K' },
        resolves: true,
      },
    ],
    ground_truth: { cause_id: 'air_circuit' },
    expert_path: ['OBS-PURGEUR', 'MAN-PURGE'],
    harvest: { reformulated: true },
    flags: {},
    meta: {},
  };
  const am = {
    id: 'ham-9003',
    titre: 'Circulateur muet',
    equipement: { marque: 'Acme', modele: 'AW-12', famille: 'pac_air_eau', age_ans: 6 },
    installation: {
      emetteur: 'radiateurs_bt',
      regime_eau: '45/38',
      particularites: 'coupure de courant la veille',
    },
    plainte_initiale: 'La pompe ne tourne plus, rien ne circule, la carte est allumée.',
    etat_operatoire: 'arret_force',
    ground_state: {
      bruit_pompe: 'silencieux',
      amperage_circulateur: 0,
      etat_fusible: 'grille',
      debit_l_min: 0,
    },
    evolution: [{ si_action: 'remplacement_fusible', alors: { amperage_circulateur: 0.6, resout: true } }],
    verite: {
      cause: 'fusible du circulateur grillé',
      solution: 'fusible',
      verification: 'débit',
      pieges: ['remplacer le circulateur'],
    },
    chemin_expert: ['MES-AMPERAGE', 'CONTROLE-FUSIBLE', 'REM-FUSIBLE'],
    escalade_attendue: null,
    provenance: { source: 'test', reformule: true, valide_par: null },
    split: 'dev',
  };
  writeFileSync(path.join(dir, 'pilot-v2.jsonl'), `${JSON.stringify(v2)}\n`);
  writeFileSync(path.join(dir, 'pilot-v3.jsonl'), `${JSON.stringify(v3)}\n`);
  mkdirSync(path.join(dir, 'am'));
  writeFileSync(path.join(dir, 'am', 'ham-9003.json'), JSON.stringify(am));
  writeFileSync(path.join(dir, 'am', 'schema.json'), JSON.stringify({ $schema: 'x', properties: {} }));
  return dir;
}

describe('session benchmark harness', () => {
  const dir = writeCases();
  const k = loadKnowledge();

  it('reads every format and skips schemas', () => {
    const { cases, skipped } = loadCases(dir);
    expect(cases.map((c) => `${c.format}:${c.id}`)).toEqual(['am:ham-9003', 'v2:hb2-9001', 'v3:hb2-9002']);
    expect(cases.map((c) => c.trueCauses)).toEqual([
      ['circulator_power_fault'],
      ['low_water_pressure'],
      ['air_in_water_circuit'],
    ]);
    expect(cases[2]!.init.context).toEqual({ emitter: 'underfloor' });
    expect(skipped).toEqual([{ file: path.join('am', 'schema.json'), reason: 'a schema, not a case' }]);
  });

  it('answers from readings through the vocabulary, and "unknown" where the case has none', () => {
    const { cases } = loadCases(dir);
    const v2 = cases.find((c) => c.format === 'v2')!;
    const tech = new SimulatedTechnician(v2);
    const s = createSession(k, v2.init);
    const action = (id: string) => s.model.actions.find((a) => a.id === id)!;
    expect(tech.answer(action('read_water_pressure'))).toBe(0.6);
    expect(tech.answer(action('top_up_water_pressure'))).toBe(true);
    expect(tech.answer(action('inspect_air_vent'))).toEqual({ unknown: true });
    expect(nextAction(s)).not.toBeNull();
  });

  it('runs the cases and reports the metrics per case and per format', () => {
    const { cases } = loadCases(dir);
    const report = evaluateCases(k, cases);
    expect(report.cases).toBe(3);
    expect(Object.keys(report.by_format).sort()).toEqual(['am', 'v2', 'v3']);
    expect(report.per_case.every((r) => r.conv5)).toBe(true);
    expect(report.wrong_part_rate).toBe(0);
    expect(report.premature_closure_rate).toBe(0);
    expect(report.escalation_accuracy).toBe(1);
    for (const key of [
      'conv3',
      'conv5',
      'top1',
      'mean_actions',
      'wrong_part_rate',
      'premature_closure_rate',
    ]) {
      expect(report).toHaveProperty(key);
    }
  });

  it('maps a free-text cause by the words it names first', () => {
    expect(causesFromText('air dans le circuit suite à la vidange — purge')).toEqual([
      'air_in_water_circuit',
    ]);
    expect(causesFromText('vanne 3 voies grippée par le calcaire (moteur sain)')).toEqual([
      'diverter_valve_stuck',
    ]);
    expect(causesFromText('cause sans rapport')).toEqual([]);
  });
});
