import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCases } from '../../bench/sessions-cases.js';
import { evaluateCases, trueCausesOf } from '../../bench/sessions-eval.js';
import { GRID, leaveOneFormatOut } from '../../bench/sessions-lofo.js';
import { evaluateThroughService } from '../../bench/sessions-service.js';
import { SimulatedTechnician } from '../../bench/sessions-simulator.js';
import { loadTaxonomy } from '../../bench/sessions-taxonomy.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { createSession, loadKnowledge, nextAction } from '../../src/engine/sessions/index.js';
import { buildFixtureBundle } from '../api/fixture.js';

/** A made-up taxonomy in the peer benchmark's layout, written for this test. */
function writeTaxonomy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'session-taxonomy-'));
  const map = {
    mes: {
      'MES-PRESSION': { quantities: ['pression_circuit_bar'], kind: 'numeric' },
      'MES-DT-EAU': { quantities: ['delta_t_eau'], kind: 'numeric' },
      'MES-AMPERAGE': { quantities: ['amperage_circulateur'], kind: 'numeric' },
      'MES-DEBIT': { quantities: ['debit_l_min'], kind: 'numeric' },
      'LECTURE-CODE': { quantities: ['code_defaut', 'libelle_code'], kind: 'composite' },
      'CONTROLE-FUSIBLE': { quantities: ['etat_fusible', 'fusible_calibre_a'], kind: 'composite' },
      'VERIF-CABLAGE-CARTE': { quantities: ['cablage_apparent'], kind: 'qualitative' },
      'TEST-MOTEUR-VANNE': {
        quantities: ['continuite_moteur_vanne', 'tension_commande_vanne_v'],
        kind: 'composite',
      },
    },
    obs: {
      'OBS-PURGEUR': { quantity: 'purgeur', kind: 'qualitative' },
      'OBS-BRUIT-POMPE': { quantity: 'bruit_pompe', kind: 'qualitative' },
      'OBS-FUITE': { quantity: 'fuite_visible', kind: 'qualitative' },
    },
  };
  const quantities = {
    quantities: [
      { quantity_id: 'pression_circuit_bar', unit: 'bar', nominal: { default: [1, 2] } },
      { quantity_id: 'delta_t_eau', unit: 'K', nominal: { default: [4, 8] } },
      { quantity_id: 'amperage_circulateur', unit: 'A', nominal: { default: [0.2, 2] } },
      { quantity_id: 'debit_l_min', unit: 'l/min', nominal: { default: [15, 30] } },
      { quantity_id: 'purgeur', unit: null, modalities: ['sec', 'crache_air'] },
      { quantity_id: 'bruit_pompe', unit: null, modalities: ['silencieux', 'claquement', 'cavitation'] },
      { quantity_id: 'fuite_visible', unit: null, modalities: ['absent', 'present'] },
    ],
  };
  const actions = {
    actions: [
      'MES-PRESSION',
      'OBS-PURGEUR',
      'MAN-PURGE',
      'MAN-REMPLISSAGE',
      'REM-CIRCULATEUR',
      'REM-FUSIBLE',
    ].map((action_id) => ({ action_id })),
  };
  writeFileSync(path.join(dir, 'action-quantity-map-v3.json'), JSON.stringify(map));
  writeFileSync(path.join(dir, 'quantities-v3.json'), JSON.stringify(quantities));
  writeFileSync(path.join(dir, 'actions-v2.json'), JSON.stringify(actions));
  return dir;
}

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
      bruit_pompe: 'silencieux_arret',
      amperage_circulateur: 0,
      fuite_visible: 'absent',
      debit_l_min_l_per_min: 3,
      delta_t_eau_K: 0.5,
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
  const taxonomy = loadTaxonomy(writeTaxonomy());
  const k = loadKnowledge();

  it('reads every format and skips schemas; AM truth comes from the expert path', () => {
    const { cases, skipped } = loadCases(dir);
    expect(cases.map((c) => `${c.format}:${c.id}`)).toEqual(['am:ham-9003', 'v2:hb2-9001', 'v3:hb2-9002']);
    expect(cases.map((c) => trueCausesOf(k, c))).toEqual([
      ['circulator_power_fault'],
      ['low_water_pressure', 'water_circuit_leak'],
      ['air_in_water_circuit'],
    ]);
    expect(cases[2]!.init.context).toEqual({ emitter: 'underfloor' });
    expect(skipped).toEqual([{ file: path.join('am', 'schema.json'), reason: 'a schema, not a case' }]);
  });

  it('answers from readings through the taxonomy, and "unknown" where the case has none', () => {
    const { cases } = loadCases(dir);
    const v2 = cases.find((c) => c.format === 'v2')!;
    const tech = new SimulatedTechnician(v2, taxonomy);
    const s = createSession(k, v2.init);
    const action = (id: string) => s.model.actions.find((a) => a.id === id)!;
    // "0,6 bar" in the text of MES-PRESSION, whose quantity the taxonomy gives in bar.
    expect(tech.answer(action('read_water_pressure'))).toBe(0.6);
    expect(tech.answer(action('top_up_water_pressure'))).toBe(true);
    expect(tech.answer(action('inspect_air_vent'))).toEqual({ unknown: true });
    expect(nextAction(s)).not.toBeNull();
  });

  it('lets one reading answer every action that measures its quantity, and nothing else', () => {
    const { cases } = loadCases(dir);
    const am = cases.find((c) => c.format === 'am')!;
    const tech = new SimulatedTechnician(am, taxonomy);
    const s = createSession(k, am.init);
    const action = (id: string) => s.model.actions.find((a) => a.id === id)!;
    // Their "no visible leak" answers both of our leak looks.
    expect(tech.answer(action('inspect_water_leaks'))).toBe('none');
    expect(tech.answer(action('inspect_refrigerant_joints'))).toBe('none');
    // A key made of the quantity id and its unit; a modality followed by more words.
    expect(tech.answer(action('read_water_delta_t'))).toBe(0.5);
    expect(tech.answer(action('listen_circulator'))).toBe('normal');
    // A key that is not the taxonomy's (debit_l_min followed by a made-up suffix) is not read.
    expect(tech.answer(action('measure_water_flow'))).toEqual({ unknown: true });
    // The evolution step "remplacement_fusible" carries all words of REM-FUSIBLE.
    expect(tech.answer(action('replace_circulator_fuse'))).toBe(true);
    expect(tech.answer(action('measure_circulator_current'))).toBe(0.6);
  });

  it('reads component states the taxonomy gives no modalities for through general words only', () => {
    const amDir = mkdtempSync(path.join(tmpdir(), 'session-states-'));
    const states = (id: string, ground: Record<string, unknown>) => ({
      id,
      titre: 'Unité à l arrêt',
      equipement: { marque: 'Acme', modele: 'AW-12', famille: 'pac_air_eau', age_ans: 4 },
      installation: { emetteur: 'radiateurs_bt' },
      plainte_initiale: 'La PAC ne démarre plus.',
      etat_operatoire: 'arret_force',
      ground_state: ground,
      evolution: [],
      verite: { cause: 'carte', solution: 'carte', verification: '', pieges: [] },
      chemin_expert: ['LECTURE-CODE'],
      escalade_attendue: null,
      provenance: { source: 'test', reformule: true, valide_par: null },
      split: 'dev',
    });
    const faulty = {
      code_defaut: 'X7',
      etat_fusible: 'grille',
      cablage_apparent: 'desserre_sur_connecteur',
      tension_commande_vanne_v: 0,
    };
    const healthy = { code_defaut: 'aucun', etat_fusible: 'ok', cablage_apparent: 'bizarre' };
    writeFileSync(path.join(amDir, 'ham-9101.json'), JSON.stringify(states('ham-9101', faulty)));
    writeFileSync(path.join(amDir, 'ham-9102.json'), JSON.stringify(states('ham-9102', healthy)));
    const [first, second] = loadCases(amDir).cases;
    const ask = (c: typeof first) => {
      const tech = new SimulatedTechnician(c!, taxonomy);
      const s = createSession(k, c!.init);
      return (id: string) => tech.answer(s.model.actions.find((a) => a.id === id)!);
    };
    const a = ask(first);
    // Only whether a code is shown passes, never what it says.
    expect(a('read_fault_display')).toBe('fault_shown');
    expect(a('check_circulator_fuse')).toBe('blown');
    expect(a('check_board_wiring')).toBe('loose_or_missing');
    expect(a('test_diverter_actuator')).toBe('no_command');
    const b = ask(second);
    expect(b('read_fault_display')).toBe('none');
    expect(b('check_circulator_fuse')).toBe('intact');
    // A word that is neither a healthy nor a faulty state is not read.
    expect(b('check_board_wiring')).toEqual({ unknown: true });
    expect(b('test_diverter_actuator')).toEqual({ unknown: true });
  });

  it('runs the cases and reports the metrics per case and per format', () => {
    const { cases } = loadCases(dir);
    const report = evaluateCases(k, taxonomy, cases);
    expect(report.cases).toBe(3);
    expect(Object.keys(report.by_format).sort()).toEqual(['am', 'v2', 'v3']);
    expect(report.per_case.filter((r) => r.conv5).length).toBeGreaterThanOrEqual(2);
    expect(report.wrong_part_rate).toBe(0);
    expect(report.premature_closure_rate).toBe(0);
    for (const key of [
      'conv3',
      'conv5',
      'top1',
      'mean_actions',
      'wrong_part_rate',
      'premature_closure_rate',
      'answered_rate',
    ]) {
      expect(report).toHaveProperty(key);
    }
  });

  it('counts a hand-on that names a wrong suspect as a premature closure, and conv@5 concluded apart', () => {
    const { cases } = loadCases(dir);
    // Every session hands on at its first unknown, naming whatever leads.
    const settings = structuredClone(k.settings);
    settings.selection.unanswered_streak = 1;
    settings.conclusion.suspect_at = 0.01;
    const report = evaluateCases({ ...k, settings }, taxonomy, cases);
    const named = report.per_case.filter((r) => r.status === 'escalated' && r.cause !== null);
    expect(named.length).toBeGreaterThan(0);
    for (const r of report.per_case) {
      expect(r.premature).toBe(r.cause !== null && !r.true_causes.includes(r.cause));
      expect(r.conv5_concluded).toBe(r.conv5 && r.status === 'concluded');
    }
    expect(report.premature_closure_rate).toBe(
      Math.round((1000 * report.per_case.filter((r) => r.premature).length) / report.cases) / 1000,
    );
    // The same sessions against a truth none of them names: every named hand-on is premature.
    // (an AM case's truth is read from its expert path: without one it has none)
    const elsewhere = cases.map((c) =>
      c.format === 'am' ? { ...c, expertPath: [] } : { ...c, trueCauses: ['refrigerant_leak'] },
    );
    const wrong = evaluateCases({ ...k, settings }, taxonomy, elsewhere).per_case;
    const handedOn = wrong.filter((r) => r.status === 'escalated' && r.cause !== null);
    expect(handedOn.length).toBeGreaterThan(0);
    for (const r of handedOn) expect(r.premature).toBe(true);
  });

  it('scores the same sessions through the service layer as a client receives them', async () => {
    const { cases } = loadCases(dir);
    const engine = evaluateCases(k, taxonomy, cases);
    const reader = new BundleReader(await buildFixtureBundle());
    try {
      const { report, refused } = await evaluateThroughService(reader, k, taxonomy, cases);
      expect(refused).toEqual([]);
      // None of these units is in the fixture corpus: the service adds no manual entry, and the public
      // payload carries the engine's session unchanged.
      expect(report.per_case).toEqual(engine.per_case);
      await expect(evaluateThroughService(reader, k, taxonomy, cases, { threshold: 0.7 })).rejects.toThrow(
        /not a request field/,
      );
    } finally {
      reader.close();
    }
  }, 60_000);

  it('chooses the tunables without the held-out format and scores every case once out of sample', () => {
    const { cases } = loadCases(dir);
    const lofo = leaveOneFormatOut(k, taxonomy, cases);
    expect(lofo.grid_points).toBe(GRID.length);
    expect(lofo.folds.map((f) => f.held_out).sort()).toEqual(['am', 'v2', 'v3']);
    expect(lofo.pooled.cases).toBe(3);
    for (const f of lofo.folds) {
      expect(f.test.cases).toBe(1);
      expect(f.train.cases).toBe(2);
      expect(GRID).toContainEqual(f.chosen);
    }
  });
});
