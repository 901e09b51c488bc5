/**
 * Mapping between our troubleshooting vocabulary (data/knowledge) and the peer benchmark's public
 * taxonomy (hvac-bench/taxonomy: cause ids, action ids, quantity ids and their modalities). It is keyed
 * by those ids only: no entry names a case, and no rule reads the words of a case's texts.
 */
import type { EquipmentKind } from '../src/engine/sessions/knowledge-schema.js';
import { normaliseText } from '../src/engine/sessions/text-match.js';

/** Their cause ids (taxonomy v2/v3) -> the causes of ours that they cover. */
export const CAUSE_MAP: Record<string, string[]> = {
  air_circuit: ['air_in_water_circuit'],
  // Their low pressure is the circuit's state whatever lowered it; their tree has no leak of its own,
  // so a circuit that keeps losing water is theirs too (a flat vessel is told apart by its own check).
  pression_basse: ['low_water_pressure', 'water_circuit_leak'],
  filtre_colmate: ['strainer_clogged', 'air_filter_clogged', 'outdoor_coil_blocked'],
  pompe_grippee: ['circulator_failed'],
  flowswitch_hs: ['flow_switch_faulty'],
  vanne_fermee: ['isolation_valve_closed', 'diverter_valve_stuck', 'diverter_actuator_fault'],
  bypass_ferme: ['bypass_misadjusted'],
  sous_dimension: ['undersized_installation', 'water_circuit_undersized'],
  defaut_debit: [
    'air_in_water_circuit',
    'strainer_clogged',
    'circulator_failed',
    'isolation_valve_closed',
    'bypass_misadjusted',
    'plate_exchanger_fouled',
    'water_circuit_undersized',
  ],
  sonde_hs: ['temperature_sensor_fault', 'sensor_wiring_fault'],
  carte_hs: ['control_board_fault', 'board_config_locked'],
  compresseur_hs: ['compressor_fault', 'compressor_insulation_fault'],
  charge_insuffisante: ['refrigerant_undercharge'],
  degivrage_anormal: ['defrost_fault'],
  condensats_bouches: ['condensate_blocked'],
  defaut_transitoire: ['transient_fault'],
  cause_inconnue: [],
};

export const EQUIPMENT_MAP: Record<string, EquipmentKind> = {
  pac_air_eau: 'air_water',
  pac_geothermie: 'air_water',
  ballon_thermodynamique: 'air_water',
  chaudiere: 'air_water',
  chaudiere_gaz: 'air_water',
  chaudiere_fioul: 'air_water',
  poele_granules: 'air_water',
  pac_air_air: 'air_air',
  clim_split: 'air_air',
  clim_vrv: 'air_air',
  clim_crac: 'air_air',
  crac_precision: 'air_air',
  autre: 'air_water',
};

/** Equipment families that are not heat pumps of our two kinds: reported apart. */
export const OUT_OF_FAMILY = new Set([
  'chaudiere',
  'chaudiere_gaz',
  'chaudiere_fioul',
  'poele_granules',
  'crac_precision',
  'clim_crac',
  'autre',
]);

export const EMITTER_MAP: Record<
  string,
  'underfloor' | 'radiators_low_temp' | 'radiators_high_temp' | 'fan_coils' | 'mixed'
> = {
  plancher_chauffant: 'underfloor',
  radiateurs_bt: 'radiators_low_temp',
  radiateurs: 'radiators_low_temp',
  radiateurs_ht: 'radiators_high_temp',
  ventilo_convecteur: 'fan_coils',
  ventilo_convecteurs: 'fan_coils',
  mixte: 'mixed',
};

/** Our action -> their action ids (taxonomy actions-v2) whose readings or results stand for it. */
export const ACTION_MAP: Record<string, string[]> = {
  read_water_pressure: ['MES-PRESSION'],
  inspect_air_vent: ['OBS-PURGEUR'],
  listen_circulator: ['OBS-BRUIT-POMPE'],
  read_water_delta_t: ['MES-DT-EAU', 'MES-TEMP-DEPART-RETOUR'],
  read_flow_temperature: ['MES-TEMP-DEPART-RETOUR', 'MES-TEMP-AMBIANTE'],
  measure_water_flow: ['MES-DEBIT'],
  inspect_strainer_sight: ['OBS-FILTRE'],
  remove_strainer: ['DEM-FILTRE', 'MAN-NETTOYAGE-FILTRE'],
  check_isolation_valves: ['OBS-VANNE'],
  check_diverter_valve: ['OBS-VANNE', 'DEM-VANNE'],
  test_diverter_actuator: ['TEST-MOTEUR-VANNE'],
  operate_diverter_by_hand: [],
  check_bypass: ['OBS-BYPASS'],
  check_emitter_valves: ['VERIF-VANNES-RADIATEURS'],
  check_heating_curve: ['VERIF-COURBE-CHAUFFE'],
  measure_room_shortfall: ['MES-TEMP-AMBIANTE'],
  estimate_heat_loss: ['CALCUL-DEPERDITIONS'],
  check_expansion_vessel: ['CONTROLE-VASE'],
  inspect_water_leaks: ['OBS-FUITE'],
  check_circulator_fuse: ['CONTROLE-FUSIBLE'],
  measure_circulator_current: ['MES-AMPERAGE'],
  measure_circulator_winding: ['MES-CONTINUITE-CIRCULATEUR'],
  remove_circulator: ['DEM-CIRCULATEUR'],
  test_flow_switch: ['DEM-FLOWSWITCH'],
  compare_sensor_reading: ['MES-SONDE'],
  // Taking a sensor off to test it is measuring its resistance on the bench.
  measure_sensor_resistance: ['MES-RESISTANCE-SONDE', 'DEM-SONDE'],
  check_sensor_wiring: ['MES-CONTINUITE'],
  inspect_sensor_connector: ['OBS-CAPTEUR'],
  read_fault_display: ['OBS-LED-DEFAUT', 'LECTURE-CODE'],
  read_controller_status: ['OBS-LED-DEFAUT', 'LECTURE-CODE'],
  check_board_wiring: ['VERIF-CABLAGE-CARTE'],
  test_board_outputs: ['DEM-CARTE'],
  measure_supply_voltage: ['MES-TENSION'],
  check_breaker_rating: ['VERIF-DISJONCTEUR-TABLEAU'],
  measure_link_continuity: ['MES-CONTINUITE-LIAISON'],
  inspect_link_cable: ['OBS-CABLE-LIAISON'],
  measure_refrigerant_pressures: ['MES-HP-BP', 'MES-PRESSION-HP'],
  measure_superheat_subcooling: ['MES-SURCHAUFFE-SOUS-REF'],
  inspect_frost: ['OBS-GELEE'],
  listen_outdoor_unit: ['OBS-BRUIT-COMPRESSEUR'],
  test_expansion_valve: ['TEST-BOBINE-EEV', 'DEM-DETENDEUR'],
  inspect_refrigerant_joints: ['OBS-FUITE'],
  leak_test: ['RECHERCHE-FUITE-ACTIVE'],
  force_defrost: ['MAN-FORCAGE-DEGIV'],
  measure_compressor_insulation: ['MES-ISOLEMENT-COMPRESSEUR'],
  measure_compressor_windings: ['MES-CONTINUITE-COMPRESSEUR'],
  measure_compressor_current: ['MES-AMPERAGE'],
  inspect_condensate_drain: ['OBS-CONDENSATS'],
  measure_dhw_shortfall: ['MES-TEMP-ECS'],
  measure_immersion_current: ['MES-AMPERAGE-RESISTANCE'],
  check_immersion_thermostat: ['VERIF-THERMOSTAT-SECURITE'],
  remove_immersion_heater: ['DEM-RESISTANCE-APPOINT'],
  inspect_air_filters: ['OBS-FILTRE', 'MAN-NETTOYAGE-FILTRE'],
  purge_water_circuit: ['MAN-PURGE'],
  top_up_water_pressure: ['MAN-REMPLISSAGE'],
  recharge_expansion_vessel: ['REM-VASE'],
  clean_strainer: ['MAN-NETTOYAGE-FILTRE', 'REM-FILTRE'],
  adjust_bypass: ['MAN-REGLAGE-BYPASS'],
  free_diverter_valve: ['MAN-FORCAGE-VENTILO'],
  reset_unit: ['MAN-RESET'],
  replace_circulator_fuse: ['REM-FUSIBLE'],
  repair_sensor_wiring: ['REPARATION-FIL-SONDE', 'REPARATION-CONNECTIQUE'],
  repair_link_cable: ['REPARATION-CABLE'],
  reseat_defrost_sensor: ['REPOSITIONNEMENT-SONDE-DEGIV'],
  run_defrost_cycle: ['MAN-FORCAGE-DEGIV'],
  clear_condensate_drain: ['MAN-DESENGORGEMENT'],
  clean_air_filters: ['MAN-NETTOYAGE-FILTRE'],
  descale_immersion_heater: ['DETARTRAGE-RESISTANCE-BALLON'],
  descale_plate_exchanger: ['DETARTRAGE-ECHANGEUR'],
  replace_circulator: ['REM-CIRCULATEUR'],
  replace_flow_switch: ['REM-FLOWSWITCH'],
  replace_diverter_valve: ['REM-VANNE'],
  replace_temperature_sensor: ['REM-SONDE'],
  replace_control_board: ['REM-CARTE'],
  replace_expansion_valve: ['REM-DETENDEUR'],
  replace_compressor: ['REM-COMPRESSEUR'],
  replace_outdoor_fan_motor: ['REM-VENTILO'],
  replace_indoor_fan_motor: ['REM-VENTILO'],
  repair_refrigerant_leak: ['INT-REPARATION-FUITE', 'INT-CHARGE'],
  replace_immersion_heater: ['REM-RESISTANCE'],
  escalate_manufacturer_service: ['ESC-SAV'],
  escalate_warranty: ['ESC-GARANTIE'],
  escalate_design_office: ['ESC-BUREAU-ETUDES'],
  escalate_electrician: ['ESC-ELECTRICIEN'],
};

/** How one of their quantities stands against its nominal range (their taxonomy's, by condition). */
export type Band = 'low' | 'normal' | 'high';

/** What the technician reads for one of their quantities: a number or one of its modalities. */
export type Reading = number | string;

export interface ReadContext {
  get: (theirQuantity: string) => Reading | undefined;
  /** The band of a number of theirs against their nominal range; undefined without a range. */
  band: (theirQuantity: string, value: number) => Band | undefined;
}

/**
 * Where one of our quantities stands in their vocabulary: the quantities of theirs that measure it, and
 * how their reading translates into ours. A number passes unchanged (same unit); their modalities map
 * to our outcome ids; a number of theirs that we observe as a choice goes through their nominal range.
 */
export interface QuantitySource {
  theirs: string[];
  /** Their modality -> our outcome (number quantities: their band words -> our bands). */
  modalities?: Record<string, string>;
  /** Our outcome from their readings, when it takes more than one modality table. */
  derive?: (ctx: ReadContext) => string | number | undefined;
}

function num(v: Reading | undefined): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function difference(a: Reading | undefined, b: Reading | undefined): number | undefined {
  const x = num(a);
  const y = num(b);
  return x !== undefined && y !== undefined ? x - y : undefined;
}

/** Their band words for a number's reading, read by the simulator as bands of our nominal range. */
const NUMBER_BANDS: Record<string, string> = {
  low: 'low',
  normal: 'normal',
  high: 'high',
  zero: 'zero',
  in_range: 'normal',
};

/** Conductor continuity in ohms: a general electrical fact, not a fact of any unit. */
function continuity(ohms: number | undefined): 'continuous' | 'open' | undefined {
  if (ohms === undefined) return undefined;
  if (ohms < 10) return 'continuous';
  if (ohms > 1e6) return 'open';
  return undefined;
}

/** Their words for "no code": a displayed code of theirs is a string, and only its presence passes. */
const NO_CODE = new Set(['', 'aucun', 'aucune', 'none', 'sans', 'no']);

function displayedFault(v: Reading | undefined): 'fault_shown' | 'none' | undefined {
  if (typeof v !== 'string') return undefined;
  const words = v.trim().toLowerCase().replace(/[_-]+/g, ' ');
  return NO_CODE.has(words) ? 'none' : 'fault_shown';
}

/**
 * A component's state written as a word, for their quantities whose modalities the taxonomy does not
 * list: general words for "as it should be" and "at fault" (French and English), the first word of a
 * snake-case value deciding. Anything else is not read.
 */
const HEALTHY_WORDS = new Set([
  'ok',
  'normal',
  'normale',
  'conforme',
  'bon',
  'bonne',
  'intact',
  'intacte',
  'sain',
  'good',
]);
const FAULT_WORDS = new Set([
  'hs',
  'defaut',
  'defectueux',
  'defectueuse',
  'endommage',
  'endommagee',
  'abime',
  'abimee',
  'grille',
  'fondu',
  'coupe',
  'coupee',
  'sectionne',
  'sectionnee',
  'desserre',
  'desserree',
  'oxyde',
  'oxydee',
  'faulty',
  'damaged',
  'blown',
]);

function firstWord(v: Reading | undefined): string | undefined {
  if (typeof v !== 'string') return undefined;
  return normaliseText(v.replace(/[_-]+/g, ' ')).split(' ')[0];
}

function wholeValue(v: Reading | undefined): string | undefined {
  return typeof v === 'string' ? normaliseText(v.replace(/[_-]+/g, ' ')) : undefined;
}

/** One of our outcomes and the first words of theirs that stand for it. */
interface WordRule {
  ours: string;
  /** The general healthy words (HEALTHY_WORDS) stand for it too. */
  healthy?: boolean;
  words?: string[];
  /** Words that start with one of these. */
  stems?: string[];
}

/** A state read from the first word of their value, by the first rule (in order) the word fits. */
function byFirstWord(theirs: string, rules: WordRule[]): QuantitySource {
  return {
    theirs: [theirs],
    derive: ({ get }) => {
      const w = firstWord(get(theirs));
      if (w === undefined) return undefined;
      const rule = rules.find(
        (r) =>
          (r.healthy === true && HEALTHY_WORDS.has(w)) ||
          r.words?.includes(w) === true ||
          r.stems?.some((stem) => w.startsWith(stem)) === true,
      );
      return rule?.ours;
    },
  };
}

function stateOf(v: Reading | undefined): 'ok' | 'fault' | undefined {
  const w = firstWord(v);
  if (w === undefined) return undefined;
  if (HEALTHY_WORDS.has(w)) return 'ok';
  if (FAULT_WORDS.has(w)) return 'fault';
  return undefined;
}

/** Our outcome for a state word: the healthy one or the faulty one. */
function pick(state: 'ok' | 'fault' | undefined, healthy: string, faulty: string): string | undefined {
  return state === 'ok' ? healthy : state === 'fault' ? faulty : undefined;
}

/** A state word or an ohm reading, as the continuity of a conductor or a coil. */
function continuityOf(v: Reading | undefined): 'continuous' | 'open' | undefined {
  if (typeof v === 'number') return continuity(num(v));
  const st = stateOf(v);
  return st === 'ok' ? 'continuous' : st === 'fault' ? 'open' : undefined;
}

/** Our quantity -> their quantities (taxonomy quantities-v3 and the action-quantity map). */
export const QUANTITY_MAP: Record<string, QuantitySource> = {
  water_pressure: { theirs: ['pression_circuit_bar'], modalities: NUMBER_BANDS },
  water_delta_t: {
    theirs: ['delta_t_eau', 't_depart', 't_retour', 't_depart_chauffage', 't_retour_chauffage'],
    modalities: NUMBER_BANDS,
    derive: ({ get }) =>
      get('delta_t_eau') ??
      difference(get('t_depart_chauffage') ?? get('t_depart'), get('t_retour_chauffage') ?? get('t_retour')),
  },
  water_flow: { theirs: ['debit_l_min'], modalities: NUMBER_BANDS },
  flow_temperature: { theirs: ['t_depart_chauffage', 't_depart'], modalities: NUMBER_BANDS },
  purger_state: { theirs: ['purgeur'], modalities: { sec: 'no_air', crache_air: 'releases_air' } },
  circulator_noise: {
    theirs: ['bruit_pompe'],
    modalities: { silencieux: 'normal', claquement: 'grinding', cavitation: 'gurgling' },
  },
  circulator_current: { theirs: ['amperage_circulateur'], modalities: NUMBER_BANDS },
  circulator_winding: {
    theirs: ['resistance_bobinage_circulateur_ohm'],
    derive: ({ get }) => {
      const c = continuity(num(get('resistance_bobinage_circulateur_ohm')));
      return c === 'continuous' ? undefined : c;
    },
  },
  isolation_valves: { theirs: ['vanne_position'], modalities: { ouverte: 'all_open', fermee: 'one_closed' } },
  bypass_state: { theirs: ['bypass_ouvert'], modalities: { oui: 'open_or_adequate', non: 'closed' } },
  heat_loss_vs_capacity: {
    theirs: ['puissance_necessaire_kw', 'puissance_installee_kw'],
    derive: ({ get }) => {
      const need = num(get('puissance_necessaire_kw'));
      const have = num(get('puissance_installee_kw'));
      if (need === undefined || have === undefined) return undefined;
      return need > have * 1.05 ? 'short' : 'adequate';
    },
  },
  // A visible leak in their vocabulary is water or refrigerant: only its absence answers either of ours.
  visible_water_leak: { theirs: ['fuite_visible'], modalities: { absent: 'none' } },
  refrigerant_oil_traces: { theirs: ['fuite_visible'], modalities: { absent: 'none' } },
  // Their fault light has one modality ("code"); their code reading is the code itself, of which
  // only whether one is shown passes (no code is ever read for its meaning).
  fault_display: {
    theirs: ['led_defaut', 'code_defaut'],
    derive: ({ get }) => (get('led_defaut') === 'code' ? 'fault_shown' : displayedFault(get('code_defaut'))),
  },
  sensor_deviation: { theirs: ['delta_sonde_k'], modalities: NUMBER_BANDS },
  // Within their nominal range a sensor cable is continuous; far beyond it, open.
  sensor_wiring: {
    theirs: ['continuite_sonde_ohm'],
    derive: ({ get, band }) => {
      const ohms = num(get('continuite_sonde_ohm'));
      if (ohms !== undefined && band('continuite_sonde_ohm', ohms) === 'normal') return 'continuous';
      return continuity(ohms) ?? continuityOf(get('continuite_sonde_ohm'));
    },
  },
  sensor_resistance: {
    theirs: ['resistance_sonde_ohm', 'resistance_ohm'],
    // Their range only bounds a plausible sensor: outside it is a short or an open circuit; inside it
    // says nothing about the curve.
    derive: ({ get, band }) => {
      for (const q of ['resistance_sonde_ohm', 'resistance_ohm']) {
        const v = num(get(q));
        if (v === undefined) continue;
        const b = band(q, v);
        if (b === 'low') return 'short_circuit';
        if (b === 'high') return 'open_circuit';
        if (v > 1e6) return 'open_circuit';
      }
      return undefined;
    },
  },
  sensor_connector: { theirs: ['capteur_etat'], modalities: { ok: 'intact', defaut_connectique: 'damaged' } },
  link_continuity: {
    theirs: ['resistance_liaison_ohm'],
    derive: ({ get }) => continuity(num(get('resistance_liaison_ohm'))),
  },
  refrigerant_pressures: {
    theirs: ['hp_bar', 'bp_bar', 'delta_hp_bp'],
    derive: ({ get, band }) => {
      const hpv = num(get('hp_bar'));
      const lpv = num(get('bp_bar'));
      const hp = hpv === undefined ? undefined : band('hp_bar', hpv);
      const lp = lpv === undefined ? undefined : band('bp_bar', lpv);
      const spread = num(get('delta_hp_bp'));
      if (spread !== undefined && band('delta_hp_bp', spread) === 'low') return 'converging';
      if (!hp || !lp) return undefined;
      if (hp === 'normal' && lp === 'normal') return 'within_range';
      if (hp === 'low' && lp === 'low') return 'both_low';
      if (hp === 'high') return 'hp_high';
      if (lp === 'low') return 'lp_low';
      return undefined;
    },
  },
  superheat_subcooling: {
    theirs: ['surchauffe_k', 'sous_refroidissement_k'],
    derive: ({ get, band }) => {
      const shv = num(get('surchauffe_k'));
      const scv = num(get('sous_refroidissement_k'));
      if (shv === undefined || scv === undefined) return undefined;
      const sh = band('surchauffe_k', shv);
      const sc = band('sous_refroidissement_k', scv);
      if (sh === 'normal' && sc === 'normal') return 'both_normal';
      if (sh === 'high' && sc === 'low') return 'sh_high_sc_low';
      if (sh === 'low' && sc === 'low') return 'sh_low_sc_low';
      if (sh === 'high' && sc === 'high') return 'sh_high_sc_high';
      if (sh === 'low' && sc === 'high') return 'sh_low_sc_high';
      return undefined;
    },
  },
  frost_pattern: {
    theirs: ['givre'],
    modalities: { absent: 'none_or_light', localise: 'patchy', generalise: 'heavy_uniform' },
  },
  condensate_drain: { theirs: ['condensats'], modalities: { normal: 'flowing', bouche: 'blocked' } },
  compressor_insulation: { theirs: ['isolement_compresseur_mohm'], modalities: NUMBER_BANDS },
  // Theirs is in amperes, ours a share of the rated current: only the band against their range passes.
  compressor_current: {
    theirs: ['amperage_compresseur'],
    modalities: NUMBER_BANDS,
    derive: ({ get, band }) => {
      const v = num(get('amperage_compresseur'));
      return v === undefined ? undefined : band('amperage_compresseur', v);
    },
  },
  circulator_fuse: {
    theirs: ['etat_fusible'],
    derive: ({ get }) => pick(stateOf(get('etat_fusible')), 'intact', 'blown'),
  },
  link_cable_condition: {
    theirs: ['etat_cable_liaison'],
    derive: ({ get }) => pick(stateOf(get('etat_cable_liaison')), 'intact', 'damaged'),
  },
  board_wiring: {
    theirs: ['cablage_apparent'],
    derive: ({ get }) => pick(stateOf(get('cablage_apparent')), 'conforming', 'loose_or_missing'),
  },
  // A valve motor: no control voltage is a missing command; voltage on an open winding, a dead motor.
  // Voltage on a sound winding does not tell a moving valve from a stuck one.
  diverter_actuator: {
    theirs: ['tension_commande_vanne_v', 'continuite_moteur_vanne'],
    derive: ({ get }) => {
      const volts = num(get('tension_commande_vanne_v'));
      if (volts !== undefined && volts < 20) return 'no_command';
      if (volts !== undefined && continuityOf(get('continuite_moteur_vanne')) === 'open')
        return 'powered_motor_dead';
      return undefined;
    },
  },
  // One winding's resistance shows an open winding; balance needs all three.
  compressor_windings: {
    theirs: ['resistance_enroulement_compresseur_ohm'],
    derive: ({ get }) =>
      continuityOf(get('resistance_enroulement_compresseur_ohm')) === 'open' ? 'open' : undefined,
  },
  expansion_valve_test: {
    theirs: ['resistance_bobine_eev_ohm', 'commande_eev_mode_service'],
    derive: ({ get }) => {
      if (continuityOf(get('resistance_bobine_eev_ohm')) === 'open') return 'coil_open';
      return pick(stateOf(get('commande_eev_mode_service')), 'moves', 'stuck');
    },
  },
  immersion_safety_trips: {
    theirs: ['coupures_thermostat_securite'],
    derive: ({ get }) => {
      const v = get('coupures_thermostat_securite');
      if (typeof v === 'number') return v >= 2 ? 'frequent' : v === 0 ? 'none' : undefined;
      // A yes or a no must be the whole value: "non vérifié" is no answer.
      const whole = wholeValue(v);
      if (whole === 'non' || whole === 'no' || whole === 'aucune' || whole === 'aucun') return 'none';
      if (whole === 'oui' || whole === 'yes') return 'frequent';
      const w = firstWord(v);
      if (w === 'frequentes' || w === 'repetees' || w === 'frequent') return 'frequent';
      return undefined;
    },
  },
  // Theirs in amperes, ours a share of the rated current: only a dead element (no current) passes.
  immersion_current: {
    theirs: ['amperage_resistance_ecs'],
    derive: ({ get }) => {
      const v = num(get('amperage_resistance_ecs'));
      return v !== undefined && v < 0.2 ? 0 : undefined;
    },
  },
  heating_curve: byFirstWord('courbe_chauffe_reglage', [
    { ours: 'appropriate', healthy: true, words: ['adaptee', 'correcte'] },
    { ours: 'too_low', words: ['trop', 'basse', 'faible', 'low'] },
    { ours: 'at_maximum', stems: ['max'] },
  ]),
  emitter_valves: byFirstWord('vannes_radiateurs_ouverture', [
    { ours: 'mostly_open', healthy: true, words: ['open'], stems: ['ouvert'] },
    { ours: 'many_closed', words: ['closed'], stems: ['ferme'] },
  ]),
  strainer_state: byFirstWord('etat_filtre', [
    { ours: 'clean', healthy: true, words: ['propre', 'clean'] },
    { ours: 'clogged', words: ['clogged'], stems: ['colmat', 'bouch'] },
    { ours: 'partly_fouled', stems: ['encrass', 'partiel'] },
  ]),
  // Their compressor noise words are the action's own label: knocking, banging, whistling.
  outdoor_unit_noise: byFirstWord('bruit_compresseur', [
    { ours: 'normal', healthy: true, words: ['silencieux'] },
    { ours: 'knocking', words: ['claquement', 'cognement'] },
    { ours: 'whistling', words: ['sifflement'] },
  ]),
  leak_detection: {
    theirs: ['localisation_fuite'],
    derive: ({ get }) => {
      // Their value names where the leak is; a value that says none, or that is no place (a
      // negation, "not done", "unknown"), is not a leak found.
      const whole = wholeValue(get('localisation_fuite'));
      if (whole === undefined || whole === '') return undefined;
      if (['aucune', 'aucun', 'absent', 'absente', 'none', 'non'].includes(whole)) return 'no_leak';
      const w = firstWord(get('localisation_fuite'));
      if (w === 'non' || w === 'pas' || w === 'inconnu' || w === 'inconnue' || w === 'unknown')
        return undefined;
      return 'leak_found';
    },
  },
  dhw_shortfall: {
    theirs: ['t_ecs_ballon', 'consigne_ecs'],
    derive: ({ get }) => difference(get('consigne_ecs'), get('t_ecs_ballon')),
  },
};
