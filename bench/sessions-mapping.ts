/**
 * Mapping between our troubleshooting vocabulary (data/knowledge) and the vocabulary of the peer
 * benchmark's cases (hvac-bench: taxonomy cause ids, action ids, quantity ids, and the French words its
 * case files use for readings). It is keyed by vocabulary only: no entry names a case.
 */
import type { EquipmentKind } from '../src/engine/sessions/knowledge-schema.js';

/** Their cause ids (taxonomy v2/v3) -> the causes of ours that they cover. */
export const CAUSE_MAP: Record<string, string[]> = {
  air_circuit: ['air_in_water_circuit'],
  pression_basse: ['low_water_pressure'],
  filtre_colmate: ['strainer_clogged', 'air_filter_clogged', 'outdoor_coil_blocked'],
  pompe_grippee: ['circulator_failed'],
  flowswitch_hs: ['flow_switch_faulty'],
  vanne_fermee: ['isolation_valve_closed', 'diverter_valve_stuck', 'diverter_actuator_fault'],
  bypass_ferme: ['bypass_misadjusted'],
  sous_dimension: ['undersized_installation'],
  defaut_debit: [
    'air_in_water_circuit',
    'strainer_clogged',
    'circulator_failed',
    'isolation_valve_closed',
    'bypass_misadjusted',
    'plate_exchanger_fouled',
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

/**
 * Free-text causes (the AM format): phrases of their French vocabulary. Each rule lists groups that
 * must all occur (a group occurs when any of its phrases does); the rule matching earliest in the
 * text wins, since the text names its subject first.
 */
export const CAUSE_TEXT_RULES: { causes: string[]; all: string[][] }[] = [
  { causes: ['air_in_water_circuit'], all: [['air dans', 'presence d air', 'bulles d air']] },
  {
    causes: ['low_water_pressure'],
    all: [['pression insuffisante', 'manque d eau', 'pression basse', 'pression trop basse']],
  },
  { causes: ['expansion_vessel_flat'], all: [['vase d expansion']] },
  {
    causes: ['strainer_clogged'],
    all: [['filtre a tamis', 'tamis', 'filtre colmate', 'filtre encrasse', 'filtre bouche']],
  },
  {
    causes: ['circulator_power_fault'],
    all: [
      ['fusible', 'relais', 'alimentation'],
      ['circulateur', 'pompe'],
    ],
  },
  {
    causes: ['circulator_failed'],
    all: [
      ['circulateur', 'pompe'],
      ['grippe', 'defectueu', 'hs', 'bloque', 'use'],
    ],
  },
  { causes: ['isolation_valve_closed'], all: [['vanne d isolement', 'vannes d isolement', 'vanne fermee']] },
  {
    causes: ['diverter_actuator_fault'],
    all: [
      ['moteur de vanne', 'moteur de la vanne', 'actuateur', 'servomoteur'],
      ['hs', 'defaill', 'defectueu', 'grille'],
    ],
  },
  { causes: ['diverter_valve_stuck'], all: [['vanne 3 voies', 'vanne trois voies', 'vanne d inversion']] },
  { causes: ['bypass_misadjusted'], all: [['bypass', 'by pass', 'soupape differentielle']] },
  {
    causes: ['flow_switch_faulty'],
    all: [['controleur de debit', 'flow switch', 'flowswitch', 'detecteur de debit']],
  },
  { causes: ['plate_exchanger_fouled'], all: [['echangeur a plaques']] },
  {
    causes: ['undersized_installation'],
    all: [['sous dimensionn', 'deperditions', 'puissance insuffisante']],
  },
  { causes: ['heating_curve_misset'], all: [['courbe de chauffe', 'loi d eau']] },
  {
    causes: ['emitter_valves_closed'],
    all: [['robinets thermostatiques', 'vannes radiateurs', 'vannes des radiateurs']],
  },
  {
    causes: ['sensor_wiring_fault'],
    all: [
      [
        'fil de la sonde',
        'fil de sonde',
        'cable de sonde',
        'cable de la sonde',
        'connecteur de sonde',
        'connecteur de la sonde',
      ],
    ],
  },
  { causes: ['temperature_sensor_fault'], all: [['sonde', 'thermistance', 'capteur de temperature']] },
  {
    causes: ['board_config_locked'],
    all: [['configuration', 'deverrouillage', 'verrouillage', 'outil constructeur', 'parametrage']],
  },
  { causes: ['control_board_fault'], all: [['carte'], ['hs', 'defectueu', 'defaill', 'grillee', 'morte']] },
  {
    causes: ['communication_link_fault'],
    all: [['cable de liaison', 'liaison inter', 'bus de communication', 'cable de communication']],
  },
  {
    causes: ['power_supply_fault'],
    all: [
      [
        'alimentation electrique',
        'tension d alimentation',
        'disjoncteur du tableau',
        'protection du tableau',
      ],
    ],
  },
  {
    causes: ['refrigerant_undercharge'],
    all: [
      ['manque de fluide', 'fuite de fluide', 'charge insuffisante', 'fuite frigorifique', 'manque de gaz'],
    ],
  },
  { causes: ['expansion_valve_fault'], all: [['detendeur']] },
  { causes: ['reversing_valve_fault'], all: [['vanne 4 voies', 'vanne quatre voies']] },
  { causes: ['compressor_fault', 'compressor_insulation_fault'], all: [['compresseur']] },
  { causes: ['defrost_fault'], all: [['degivrage']] },
  {
    causes: ['outdoor_coil_blocked'],
    all: [['echangeur exterieur', 'batterie exterieure', 'batterie encrassee']],
  },
  {
    causes: ['outdoor_fan_fault'],
    all: [['ventilateur exterieur', 'moteur de ventilateur', 'moto ventilateur']],
  },
  { causes: ['condensate_blocked'], all: [['condensats']] },
  { causes: ['dhw_heater_failed'], all: [['resistance'], ['hs', 'grillee', 'percee', 'coupee', 'brulee']] },
  { causes: ['dhw_heater_scaled'], all: [['resistance'], ['entartr', 'calcaire', 'tartre']] },
  {
    causes: ['air_filter_clogged'],
    all: [['filtre a air', 'filtres a air', 'filtres encrasses', 'filtres de l unite interieure']],
  },
  { causes: ['transient_fault'], all: [['defaut transitoire', 'defaut passager']] },
];

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
  measure_water_flow: ['MES-DEBIT'],
  inspect_strainer_sight: ['OBS-FILTRE'],
  remove_strainer: ['DEM-FILTRE', 'MAN-NETTOYAGE-FILTRE'],
  check_isolation_valves: ['OBS-VANNE'],
  check_diverter_valve: ['OBS-VANNE'],
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
  measure_sensor_resistance: ['MES-RESISTANCE-SONDE'],
  check_sensor_wiring: ['MES-CONTINUITE'],
  inspect_sensor_connector: ['OBS-CAPTEUR'],
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
  clean_strainer: ['MAN-NETTOYAGE-FILTRE'],
  adjust_bypass: ['MAN-REGLAGE-BYPASS'],
  free_diverter_valve: ['MAN-FORCAGE-VENTILO'],
  reset_unit: ['MAN-RESET'],
  replace_circulator_fuse: ['REM-FUSIBLE'],
  repair_sensor_wiring: ['REPARATION-FIL-SONDE', 'REPARATION-CONNECTIQUE'],
  repair_link_cable: ['REPARATION-CABLE'],
  reseat_defrost_sensor: ['REPOSITIONNEMENT-SONDE-DEGIV'],
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

/**
 * Our action -> how the AM format names it in `evolution[].si_action` (snake_case French). Each pattern
 * lists word prefixes that must all occur; a prefix starting with `!` must not.
 */
export const AM_ACTION_PATTERNS: Record<string, string[][]> = {
  read_water_pressure: [['mesure', 'pression', '!hp']],
  inspect_air_vent: [['purgeur']],
  listen_circulator: [
    ['bruit', 'pompe'],
    ['bruit', 'circulateur'],
    ['ecoute', 'circulateur'],
  ],
  read_water_delta_t: [
    ['delta', 't'],
    ['temp', 'depart'],
    ['temperature', 'depart'],
  ],
  measure_water_flow: [['debit', '!controleur']],
  inspect_strainer_sight: [['observ', 'filtre']],
  remove_strainer: [
    ['filtre', 'demont'],
    ['filtre', 'depose'],
    ['filtre', 'inspection'],
    ['nettoyage', 'filtre'],
  ],
  check_isolation_valves: [['vanne', 'isolement']],
  check_diverter_valve: [
    ['observation', 'vanne'],
    ['position', 'vanne'],
    ['verif', 'vanne', '3'],
  ],
  test_diverter_actuator: [['moteur', 'vanne']],
  operate_diverter_by_hand: [
    ['actionnement', 'manuel'],
    ['manoeuvre', 'vanne'],
  ],
  check_bypass: [['bypass', '!regl']],
  check_emitter_valves: [
    ['vannes', 'radiateurs'],
    ['robinets', 'thermostatiques'],
  ],
  check_heating_curve: [['courbe']],
  measure_room_shortfall: [
    ['temp', 'ambiante'],
    ['temperature', 'ambiante'],
  ],
  estimate_heat_loss: [['deperdition']],
  check_expansion_vessel: [['vase']],
  inspect_water_leaks: [['fuite', 'eau']],
  check_circulator_fuse: [['fusible', '!remplac']],
  measure_circulator_current: [
    ['amperage', 'circulateur'],
    ['intensite', 'circulateur'],
  ],
  measure_circulator_winding: [
    ['continuite', 'circulateur'],
    ['bobinage', 'circulateur'],
  ],
  remove_circulator: [
    ['demont', 'circulateur'],
    ['depose', 'circulateur'],
  ],
  test_flow_switch: [['flow'], ['controleur', 'debit']],
  compare_sensor_reading: [['compar', 'sonde']],
  measure_sensor_resistance: [
    ['resistance', 'sonde'],
    ['continuite', 'sonde'],
  ],
  check_sensor_wiring: [
    ['continuite', 'sonde'],
    ['cable', 'sonde'],
  ],
  inspect_sensor_connector: [
    ['connecteur', 'sonde'],
    ['inspection', 'sonde'],
    ['observation', 'capteur'],
  ],
  read_controller_status: [['lecture', 'code'], ['historique']],
  check_board_wiring: [['cablage', 'carte']],
  test_board_outputs: [
    ['sorties', 'carte'],
    ['test', 'carte'],
  ],
  measure_supply_voltage: [
    ['tension', 'alimentation'],
    ['mesure', 'tension'],
  ],
  identify_tripping_device: [['dispositif', 'declench']],
  check_breaker_rating: [
    ['disjoncteur', 'tableau'],
    ['verif', 'disjoncteur'],
  ],
  measure_link_continuity: [
    ['resistance', 'liaison'],
    ['continuite', 'liaison'],
  ],
  inspect_link_cable: [
    ['inspection', 'cable'],
    ['observation', 'cable'],
  ],
  measure_refrigerant_pressures: [
    ['hp', 'bp'],
    ['pression', 'hp'],
  ],
  measure_superheat_subcooling: [['surchauffe'], ['sous', 'refroid']],
  inspect_frost: [['givre']],
  inspect_outdoor_coil: [['echangeur', 'exterieur'], ['batterie']],
  check_outdoor_fan: [['ventilateur', 'exterieur']],
  listen_outdoor_unit: [
    ['bruit', 'compresseur'],
    ['bruit', 'exterieure'],
  ],
  test_expansion_valve: [
    ['bobine', 'eev'],
    ['controle', 'detendeur'],
    ['test', 'detendeur'],
  ],
  inspect_refrigerant_joints: [['traces', 'huile']],
  leak_test: [['recherche', 'fuite']],
  force_defrost: [
    ['degivrage', 'forc'],
    ['forcage', 'degiv'],
  ],
  measure_compressor_insulation: [['isolement', 'compresseur']],
  measure_compressor_windings: [
    ['continuite', 'compresseur'],
    ['enroulement', 'compresseur'],
  ],
  measure_compressor_current: [
    ['amperage', 'compresseur'],
    ['intensite', 'compresseur'],
  ],
  inspect_condensate_drain: [['condensat', '!deboucher', '!desengorg']],
  measure_dhw_shortfall: [
    ['temp', 'ecs'],
    ['temperature', 'ecs'],
  ],
  measure_immersion_current: [
    ['amperage', 'resistance'],
    ['intensite', 'resistance'],
  ],
  check_immersion_thermostat: [['thermostat', 'securite']],
  remove_immersion_heater: [
    ['demont', 'resistance'],
    ['depose', 'resistance'],
  ],
  inspect_air_filters: [['filtre', 'air', '!nettoy']],
  purge_water_circuit: [['purge', '!purgeur']],
  top_up_water_pressure: [['remplissage'], ['appoint', 'eau']],
  recharge_expansion_vessel: [
    ['vase', 'regonfl'],
    ['remplac', 'vase'],
  ],
  clean_strainer: [
    ['nettoyage', 'filtre'],
    ['nettoyer', 'filtre'],
  ],
  adjust_bypass: [['regl', 'bypass']],
  free_diverter_valve: [
    ['debloc', 'vanne'],
    ['forcage', 'vanne'],
    ['forcer', 'vanne'],
  ],
  adjust_heating_curve: [
    ['ajust', 'courbe'],
    ['relev', 'courbe'],
  ],
  reset_unit: [['reset'], ['redemarrage'], ['reinitialis']],
  replace_circulator_fuse: [['remplac', 'fusible']],
  repair_sensor_wiring: [
    ['repar', 'sonde'],
    ['repar', 'fil'],
  ],
  repair_link_cable: [
    ['repar', 'cable'],
    ['remplac', 'cable'],
  ],
  clean_outdoor_coil: [
    ['nettoy', 'echangeur'],
    ['nettoy', 'batterie'],
  ],
  reseat_defrost_sensor: [['sonde', 'degivrage']],
  clear_condensate_drain: [['desengorg'], ['deboucher']],
  clean_air_filters: [['nettoy', 'filtre', 'air']],
  descale_immersion_heater: [
    ['detartr', 'resistance'],
    ['detartr', 'ballon'],
  ],
  descale_plate_exchanger: [['detartr', 'echangeur']],
  replace_circulator: [['remplac', 'circulateur']],
  replace_flow_switch: [
    ['remplac', 'flow'],
    ['remplac', 'controleur'],
  ],
  replace_diverter_valve: [['remplac', 'vanne', '!radiat']],
  replace_diverter_actuator: [['remplac', 'moteur', 'vanne']],
  replace_temperature_sensor: [['remplac', 'sonde']],
  replace_control_board: [['remplac', 'carte']],
  replace_expansion_valve: [['remplac', 'detendeur']],
  replace_compressor: [['remplac', 'compresseur']],
  replace_outdoor_fan_motor: [['remplac', 'ventilateur']],
  repair_refrigerant_leak: [
    ['repar', 'fuite'],
    ['recharge', 'fluide'],
  ],
  replace_immersion_heater: [['remplac', 'resistance']],
};

/** Words marking an AM evolution step that verifies a repair rather than making one. */
export const AM_VERIFICATION_WORDS = ['test', 'cycle', 'verification', 'controle'];
export const AM_REPAIR_WORDS = [
  'remplac',
  'repar',
  'detartr',
  'purge',
  'nettoy',
  'regl',
  'deboucher',
  'desengorg',
];

/** A reading converted to our outcome: a choice id, or a numeric band to stand for a number. */
export type Outcome = string;

export interface QuantitySource {
  /** Their quantity ids, AM ground-state keys, or AM result keys, in order of preference. */
  keys: string[];
  /** Normalised phrases of their modalities and French observation texts -> our choice or band. */
  words?: [string[], Outcome][];
  /** A number in their reading -> our choice, for choice quantities. */
  fromNumber?: (n: number) => Outcome | undefined;
  /** Computes the reading from several keys of a state (e.g. a shortfall from setpoint and value). */
  derive?: (get: (key: string) => unknown) => number | string | undefined;
  /**
   * Reads the outcome from any text of the case (its complaint, its observations) when no step of the
   * matching actions holds it: for readings a technician knows from the paperwork, like a design study.
   */
  fromText?: (text: string) => Outcome | undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  return undefined;
}

function difference(a: unknown, b: unknown): number | undefined {
  const x = num(a);
  const y = num(b);
  return x !== undefined && y !== undefined ? x - y : undefined;
}

function percentOf(value: unknown, rated: unknown): number | undefined {
  const x = num(value);
  const r = num(rated);
  return x !== undefined && r !== undefined && r > 0 ? (100 * x) / r : undefined;
}

function band(value: number | undefined, lo: number, hi: number): 'low' | 'normal' | 'high' | undefined {
  if (value === undefined) return undefined;
  return value < lo ? 'low' : value > hi ? 'high' : 'normal';
}

const KW = String.raw`(\d+(?:[.,]\d+)?)\s*kw\b`;
/** "8 kW installed for 14 kW required" in the words of a French case: the unit's capacity and the need. */
const SIZED_PATTERNS: { pattern: RegExp; installed: 1 | 2 }[] = [
  // "PAC 8 kW posée sur 14 kW requis", "puissance installée 8 kW pour 14 kW nécessaires"
  {
    pattern: new RegExp(
      `${KW}[^.;]{0,40}?\\b(?:pour|sur|contre|face a)\\b[^.;]{0,20}?${KW}\\s*(?:requis|necessaire|calcul|de besoin|de deperdition)`,
      'i',
    ),
    installed: 1,
  },
  // "besoin de 14 kW pour une PAC de 8 kW", "déperditions 14 kW pour 8 kW installés"
  {
    pattern: new RegExp(
      `(?:besoin|deperditions?|requis)[^.;]{0,20}?${KW}[^.;]{0,30}?\\b(?:pour|sur|contre)\\b[^.;]{0,30}?${KW}`,
      'i',
    ),
    installed: 2,
  },
];

function installedAgainstRequired(text: string): { installed: number; required: number } | undefined {
  const plain = text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  for (const { pattern, installed } of SIZED_PATTERNS) {
    const m = pattern.exec(plain);
    if (!m) continue;
    const a = Number(m[1]!.replace(',', '.'));
    const b = Number(m[2]!.replace(',', '.'));
    return installed === 1 ? { installed: a, required: b } : { installed: b, required: a };
  }
  return undefined;
}

/** Their actions that only verify the work before them: a later one that resolves credits that work. */
export const STEP_VERIFICATION_PREFIXES = ['MAN-RESET', 'MES-', 'OBS-', 'TEST-', 'VERIF-', 'LECTURE-'];

/** Our quantity -> where a case holds it and how its words read. Nominal ranges are those of their taxonomy. */
export const QUANTITY_MAP: Record<string, QuantitySource> = {
  water_pressure: { keys: ['pression_circuit_bar', 'pression_bar', 'pression_eau_bar'] },
  pressure_trend: {
    keys: ['pression_tendance'],
    words: [
      [['chute', 'baisse', 'perd'], 'drops_over_days'],
      [['varie', 'oscill', 'fluctu'], 'swings_with_temperature'],
      [['stable'], 'stable'],
    ],
  },
  water_delta_t: {
    keys: ['delta_t_eau', 'delta_t_eau_k', 'delta_t_eau_K'],
    words: [
      [['tres faible', 'faible', 'nul', 'low', 'bas'], 'low'],
      [['normal', 'conforme', 'nominal'], 'normal'],
      [['eleve', 'high', 'fort'], 'high'],
    ],
    derive: (get) =>
      difference(
        get('t_depart_chauffage_apres_vanne') ?? get('t_depart_chauffage') ?? get('t_depart'),
        get('t_retour_chauffage') ?? get('t_retour'),
      ),
  },
  water_flow: {
    keys: ['debit_l_min', 'debit_chauffage_l_min'],
    words: [
      [['nul', 'zero', 'aucun debit', 'rien ne circule'], 'zero'],
      [['insuffisant', 'faible', 'low', 'bas'], 'low'],
      [['normal', 'conforme', 'nominal', 'reprend', 'remonte'], 'normal'],
    ],
  },
  purger_state: {
    keys: ['purgeur'],
    words: [
      [['sec', 'pas d air', 'peu d air', 'rien', 'eau seulement'], 'no_air'],
      [['crache', 'air'], 'releases_air'],
    ],
  },
  circulator_noise: {
    keys: ['bruit_pompe'],
    words: [
      [['silencieux normal', 'normal', 'ronron'], 'normal'],
      [['cavitation', 'gargouill', 'bruit d air'], 'gurgling'],
      [['claquement', 'raclement', 'frott', 'grinc', 'bloque', 'rotor'], 'grinding'],
      [['silencieux', 'arret', 'ne tourne'], 'silent'],
    ],
  },
  circulator_current: { keys: ['amperage_circulateur'] },
  circulator_fuse: {
    keys: ['etat_fusible'],
    words: [
      [['grill', 'fondu', 'hs', 'coupe', 'ouvert'], 'blown'],
      [['ok', 'bon', 'intact', 'conforme'], 'intact'],
    ],
  },
  circulator_winding: {
    keys: ['continuite_circulateur', 'diagnostic'],
    words: [
      [['bobinage ok', 'ok', 'conforme'], 'within_spec'],
      [['court circuit', 'masse'], 'short'],
      [['ouvert', 'coupe'], 'open'],
    ],
  },
  circulator_rotor: {
    keys: ['etat_circulateur', 'arbre'],
    words: [
      [['grippe', 'bloque', 'use', 'fatigue'], 'seized_or_worn'],
      [['libre', 'conforme', 'sain', 'ok'], 'turns_freely'],
    ],
  },
  strainer_state: {
    keys: ['etat_filtre'],
    words: [
      [['bouche', 'colmate', 'boue', 'tres encrasse', 'tres sale', 'obstrue'], 'clogged'],
      [['encrasse', 'sale', 'depot'], 'partly_fouled'],
      [['propre', 'conforme', 'ok', 'normal'], 'clean'],
    ],
  },
  isolation_valves: {
    keys: ['vannes_isolement', 'vanne_position'],
    words: [
      [['fermee', 'ferme'], 'one_closed'],
      [['ouverte', 'ouvert'], 'all_open'],
    ],
  },
  diverter_valve: {
    keys: ['vanne_position', 'position_vanne_3_voies'],
    words: [
      [['ecs', 'sanitaire'], 'stuck_dhw'],
      [['bloquee chauffage', 'position chauffage'], 'stuck_heating'],
      [['alternance', 'suit', 'bascule'], 'follows_demand'],
    ],
  },
  diverter_manual_operation: {
    keys: ['actionnement_manuel_vanne', 'actionnement_manuel'],
    words: [
      [['ne bouge pas', 'grippe', 'bloque', 'dur'], 'seized'],
      [['bouge', 'libre'], 'moves_freely'],
    ],
  },
  diverter_actuator: {
    keys: ['diagnostic'],
    words: [
      [['moteur commande ok', 'grippage mecanique', 'vanne bloquee'], 'powered_valve_stuck'],
      [['moteur hs', 'moteur ne tourne', 'bobinage moteur'], 'powered_motor_dead'],
      [['pas de tension', 'absence de tension', 'pas de commande'], 'no_command'],
    ],
    derive: (get) => {
      const continuity = String(get('continuite_moteur_vanne') ?? '');
      const voltage = num(get('tension_commande_vanne_v'));
      const position = String(get('vanne_position') ?? '');
      if (voltage !== undefined && voltage < 20) return 'no_command';
      if (/ok/.test(continuity) && voltage !== undefined && /bloqu|inchang/.test(position))
        return 'powered_valve_stuck';
      return undefined;
    },
  },
  bypass_state: {
    keys: ['bypass_ouvert', 'bypass'],
    words: [
      [['non', 'ferme', 'reste ferme'], 'closed'],
      [['oui', 'ouvert', 's ouvre'], 'open_or_adequate'],
    ],
  },
  emitter_valves: {
    keys: ['vannes_radiateurs_ouverture'],
    words: [
      [['ouvert'], 'mostly_open'],
      [['ferme'], 'many_closed'],
    ],
  },
  heating_curve: {
    keys: ['courbe_chauffe_reglage'],
    words: [
      [['maximum', 'max'], 'at_maximum'],
      [['trop basse', 'basse', 'faible'], 'too_low'],
      [['correct', 'adapte', 'ok'], 'appropriate'],
    ],
  },
  room_shortfall: {
    keys: ['ecart_consigne_ambiance'],
    derive: (get) => difference(get('consigne_ambiance'), get('t_ambiante_interieure') ?? get('t_ambiante')),
  },
  heat_loss_vs_capacity: {
    keys: ['ecart'],
    words: [
      [['sous dimensionne', 'insuffisant'], 'short'],
      [['suffisant', 'couvre', 'adapte'], 'adequate'],
    ],
    derive: (get) => {
      const need = num(get('puissance_necessaire_kw'));
      const have = num(get('puissance_installee_kw'));
      if (need === undefined || have === undefined) return undefined;
      return need > have * 1.05 ? 'short' : 'adequate';
    },
    fromText: (text) => {
      const sized = installedAgainstRequired(text);
      if (!sized) return undefined;
      return sized.required > sized.installed * 1.05 ? 'short' : 'adequate';
    },
  },
  expansion_vessel_precharge: {
    keys: ['precharge_vase', 'vase'],
    words: [
      [['basse', 'nulle', 'degonfle', 'faible', 'perce'], 'low'],
      [['ok', 'conforme'], 'ok'],
    ],
  },
  visible_water_leak: {
    keys: ['fuite_eau'],
    words: [
      [['pas de fuite', 'aucune fuite', 'sans fuite', 'absent'], 'none'],
      [['fuite', 'present'], 'present'],
    ],
  },
  flow_switch_signal: {
    keys: ['flowswitch', 'controleur_debit'],
    words: [
      [['reste ouvert', 'ne ferme', 'hs', 'defaill'], 'stays_open'],
      [['conforme', 'ok', 'ferme avec'], 'follows_flow'],
    ],
  },
  sensor_deviation: {
    keys: ['delta_sonde_k', 'ecart_sonde_k'],
    derive: (get) => difference(get('temperature_affichee_depart'), get('temperature_eau_locale')),
  },
  sensor_resistance: {
    keys: ['resistance_sonde', 'continuite_sonde'],
    words: [
      [['circuit ouvert', 'ouvert', 'ol', 'coupure', 'infini', 'sectionne'], 'open_circuit'],
      [['court circuit', 'court'], 'short_circuit'],
      [['hors courbe', 'derive', 'ecart'], 'off_curve'],
      [['conforme', 'ok', 'normal'], 'matches_curve'],
    ],
  },
  sensor_wiring: {
    keys: ['continuite_sonde', 'etat_cable_sonde', 'continuite_sonde_ohm'],
    words: [
      [['coupure', 'coupe', 'ouvert', 'ol', 'sectionne'], 'open'],
      [['court circuit', 'ecrase'], 'short'],
      [['continu', 'ok', 'conforme'], 'continuous'],
    ],
  },
  sensor_connector: {
    keys: ['capteur_etat', 'connecteur'],
    words: [
      [['sectionne', 'defaut', 'endommag', 'oxyd', 'desserr', 'coupe', 'ecrase', 'arrache'], 'damaged'],
      [['ok', 'intact', 'conforme'], 'intact'],
    ],
  },
  controller_lock: {
    keys: ['type_verrouillage', 'libelle_code', 'etat_ui'],
    words: [
      [['verrouill', 'deverrouill', 'usine', 'outil constructeur', 'vitosoft', 'sav agree'], 'service_lock'],
    ],
  },
  board_wiring: {
    keys: ['cablage_apparent'],
    words: [
      [['conforme', 'ok'], 'conforming'],
      [['desserr', 'absent', 'debranch', 'oubli', 'inverse'], 'loose_or_missing'],
    ],
  },
  board_outputs: { keys: ['sorties_carte'] },
  supply_voltage: { keys: ['tension_alimentation_v', 'tension_v'] },
  tripping_device: {
    keys: ['dispositif_declenche'],
    words: [
      [['differentiel', 'ddr', 'rcd'], 'rcd'],
      [['disjoncteur', 'magneto'], 'mcb'],
      [['aucun'], 'none'],
    ],
  },
  breaker_rating: {
    keys: ['diagnostic'],
    words: [
      [['protection tableau conforme', 'conforme'], 'matches'],
      [['inadapt', 'sous calibre', 'mauvais'], 'wrong'],
    ],
  },
  link_continuity: {
    keys: ['continuite_liaison', 'resistance_liaison_ohm'],
    words: [
      [['circuit ouvert', 'ouvert', 'ol', 'coupure'], 'open'],
      [['court', 'masse'], 'short_or_earth'],
      [['continu', 'ok'], 'continuous'],
    ],
    fromNumber: (n) => (n < 50 ? 'continuous' : undefined),
  },
  link_cable_condition: {
    keys: ['etat_cable_liaison'],
    words: [
      [['ronge', 'endommag', 'coupe', 'sectionn', 'ecrase'], 'damaged'],
      [['intact', 'ok'], 'intact'],
    ],
  },
  refrigerant_pressures: {
    keys: ['pressions_frigo'],
    words: [
      [['converg'], 'converging'],
      [['hp elevee', 'hp haute', 'hp trop'], 'hp_high'],
      [['toutes deux basses', 'pressions basses'], 'both_low'],
      [['nominal', 'dans la plage', 'normal', 'conforme'], 'within_range'],
    ],
    derive: (get) => {
      const hp = band(num(get('hp_bar')), 8, 25);
      const lp = band(num(get('bp_bar')), 3, 10);
      if (!hp || !lp) return undefined;
      if (hp === 'normal' && lp === 'normal') return 'within_range';
      if (hp === 'low' && lp === 'low') return 'both_low';
      if (hp === 'high') return 'hp_high';
      if (lp === 'low') return 'lp_low';
      if (hp === 'low' && lp === 'high') return 'converging';
      return undefined;
    },
  },
  superheat_subcooling: {
    keys: ['surchauffe_sous_refroidissement'],
    derive: (get) => {
      const sh = band(num(get('surchauffe_k')), 4, 8);
      const sc = band(num(get('sous_refroidissement_k')), 3, 6);
      if (!sh || !sc) return undefined;
      if (sh === 'normal' && sc === 'normal') return 'both_normal';
      if (sh === 'high' && sc === 'low') return 'sh_high_sc_low';
      if (sh === 'low' && sc === 'low') return 'sh_low_sc_low';
      if (sh === 'high' && sc === 'high') return 'sh_high_sc_high';
      if (sh === 'low' && sc === 'high') return 'sh_low_sc_high';
      return undefined;
    },
  },
  frost_pattern: {
    keys: ['givre'],
    words: [
      [['absent', 'aucun', 'pas de givre'], 'none_or_light'],
      [['uniforme', 'generalise', 'epais', 'bloc de glace'], 'heavy_uniform'],
      [['localise', 'partiel', 'aspiration'], 'patchy'],
    ],
  },
  outdoor_coil_condition: {
    keys: ['etat_echangeur_exterieur'],
    words: [
      [['encrass', 'obstru', 'sale', 'feuilles'], 'fouled'],
      [['propre', 'degage'], 'clean'],
    ],
  },
  outdoor_fan: {
    keys: ['ventilateur_exterieur'],
    words: [
      [['arret', 'ne tourne'], 'stopped'],
      [['lent', 'voile', 'bruyant'], 'slow_or_noisy'],
      [['normal', 'ok'], 'normal'],
    ],
  },
  outdoor_unit_noise: {
    keys: ['bruit_ue', 'bruit_compresseur'],
    words: [
      [['siffl'], 'whistling'],
      [['cogn', 'claquement compresseur'], 'knocking'],
      [['ronfl'], 'humming_no_start'],
      [['ventilateur', 'claqu'], 'rattling'],
      [['silencieux', 'normal'], 'normal'],
    ],
  },
  expansion_valve_test: {
    keys: ['commande_eev_mode_service', 'etat_detendeur', 'diagnostic'],
    words: [
      [['sans effet', 'bloque', 'grippage', 'defaillant'], 'stuck'],
      [['bobine hs', 'bobine coupee'], 'coil_open'],
      [['repond', 'ok'], 'moves'],
    ],
  },
  refrigerant_oil_traces: {
    keys: ['traces_huile'],
    words: [
      [['pas de fuite', 'aucune', 'absent'], 'none'],
      [['huile', 'trace'], 'present'],
    ],
  },
  leak_detection: {
    keys: ['localisation_fuite', 'fuite_detectee'],
    words: [
      [['aucune', 'pas de fuite', 'absent'], 'no_leak'],
      [['fuite', 'present'], 'leak_found'],
    ],
  },
  forced_defrost: {
    keys: ['degivrage_force'],
    words: [
      [['ne demarre', 'pas de degivrage'], 'does_not_start'],
      [['glace reste', 'reste'], 'ice_remains'],
      [['degage', 'ok'], 'clears_ice'],
    ],
  },
  compressor_insulation: { keys: ['isolement_compresseur_mohm'] },
  compressor_windings: {
    keys: ['continuite_compresseur', 'diagnostic'],
    words: [
      [['continuite bobinage ok', 'equilibr', 'ok', 'conforme'], 'balanced'],
      [['masse'], 'short_to_earth'],
      [['coupe', 'ouvert'], 'open'],
      [['desequilibr'], 'unbalanced'],
    ],
  },
  compressor_current: {
    keys: ['amperage_compresseur_pct'],
    derive: (get) => percentOf(get('amperage_compresseur'), get('amperage_compresseur_nominal_ref')),
  },
  condensate_drain: {
    keys: ['condensats'],
    words: [
      [['bouch', 'obstru', 'plein', 'deborde'], 'blocked'],
      [['normal', 'ok', 'ecoul'], 'flowing'],
    ],
  },
  dhw_shortfall: {
    keys: ['ecart_consigne_ecs'],
    derive: (get) => difference(get('consigne_ecs'), get('t_ecs_ballon')),
  },
  immersion_current: {
    keys: ['amperage_resistance_pct'],
    derive: (get) => percentOf(get('amperage_resistance_ecs'), get('amperage_resistance_nominal_ref')),
  },
  immersion_safety_trips: {
    keys: ['coupures_thermostat_securite'],
    words: [
      [['frequent', 'repet'], 'frequent'],
      [['aucun'], 'none'],
    ],
  },
  immersion_element: {
    keys: ['etat_resistance'],
    words: [
      [['entartr', 'calcaire'], 'heavily_scaled'],
      [['perce', 'brule', 'hs'], 'burnt_or_pierced'],
      [['propre'], 'clean'],
    ],
  },
  air_filter_state: {
    keys: ['etat_filtres_air'],
    words: [
      [['encrass', 'sale', 'colmat', 'bouch'], 'dirty'],
      [['propre'], 'clean'],
    ],
  },
};

/** Phrases of a narrative or installation note that say whether the unit is under warranty. */
export const WARRANTY_WORDS: { yes: string[]; no: string[] } = {
  no: ['hors garantie', 'garantie expiree', 'garantie echue', 'plus sous garantie', 'expiree'],
  yes: ['sous garantie', 'garantie constructeur', 'etiquette garantie', 'en garantie'],
};
