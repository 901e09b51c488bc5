import type { Citation } from '../../contract/common.js';
import type {
  ActionKind,
  Emitter,
  EquipmentKind,
  EscalationTarget,
  Labels,
  OperatingMode,
} from './knowledge-schema.js';

/**
 * Where a text quoted from a manual stands: the page whose text holds it. `undefined` on a step or a
 * cause means the entry's own citation holds it (facts built by hand); `null` means no page of the
 * manual was found to hold it, so it is never shown under a page.
 */
export type QuotedAt = Citation | null | undefined;

/** One entry of a manual's error-code table for the session's code and model, as the bundle holds it. */
export interface ManualFact {
  code: string;
  title: string;
  causes: string[];
  /**
   * Each cause as printed on the page that holds it, index for index: a table cell keeps its lines,
   * each of which stands on the page (absent: the entry's citation holds them all, as written).
   */
  causeQuotes?: (Quote | null)[];
  steps: { order: number; text: string; safety: string | null; citation?: Citation | null }[];
  citation: Citation;
  /** The entry's row as printed (what its citation holds), when known. */
  excerpt?: string;
  /** The part the manual names for the fault, with the page printing its reference. */
  part?: ManualPart | null;
}

export interface ManualPart {
  name: string;
  reference: string | null;
  /** The page that prints the name and reference; null when no page was found to. */
  citation: Citation | null;
}

/** A text taken from a manual and the page that holds it verbatim. */
export interface Quote {
  text: string;
  citation: Citation;
}

export interface SessionContext {
  emitter?: Emitter;
  mode?: OperatingMode;
}

/** A reading the technician already has when the session starts (not counted as a turn). */
export interface InitialReading {
  quantity: string;
  value: AnswerValue;
}

export interface SessionInit {
  equipment: EquipmentKind;
  brand: string;
  model: string;
  code?: string;
  symptom?: string;
  context?: SessionContext;
  manualFacts?: ManualFact[];
  readings?: InitialReading[];
  /** Maximum number of actions asked before the session escalates. */
  budget?: number;
  /** Probability at which a hypothesis dominates (and the higher one for part replacements). */
  threshold?: number;
  replacementThreshold?: number;
  /** Default: a digest of the inputs, so that equal inputs give equal sessions. */
  id?: string;
  /** What the corpus lacks for this unit: no manual of the brand, of the model, or no entry for the code. */
  noManual?: 'brand' | 'model' | 'code';
  /** The language of the session's own words (default English). */
  language?: 'en' | 'fr';
}

export type AnswerValue = boolean | number | string;
/** `given`: the reading as typed when it named another unit than the step's ("20 psi"); `value` is converted. */
export type Answer = { value: AnswerValue; given?: string } | { unknown: true };

export interface Response {
  action_id: string;
  value: AnswerValue | { unknown: true };
}

export type HypothesisSource = 'knowledge' | 'manual' | 'residual';

export interface ModelHypothesis {
  id: string;
  label: Labels;
  source: HypothesisSource;
  prior: number;
  /** The action that removes the cause or hands it on; null for the residual and manual-only causes. */
  remedy: string | null;
  citations: Citation[];
  /** The manual's words behind the citations (absent in sessions stored before quotes). */
  quotes?: Quote[];
  /** A symptom other causes also produce: concluded only once told from them (absent: no). */
  symptomLevel?: boolean;
  /** Quantities a symptom-level cause acts on through the symptom itself (absent: none marked). */
  throughSymptom?: string[];
}

/** Where a nominal range comes from: the manual's entry for the code (cited), or our general knowledge. */
export type RangeSource =
  | {
      kind: 'manual';
      citation: Citation;
      /** The manual's sentence, and the ends it states (a threshold states one). */
      text: string;
      stated: [number | null, number | null];
    }
  | { kind: 'knowledge' };

export interface ExpectedNumber {
  type: 'number';
  unit: string;
  nominal_range: [number, number];
  /** Absent in sessions stored before ranges were sourced: then the knowledge's. */
  range_source?: RangeSource;
  /** Readings outside are refused (absent in sessions stored before the check existed). */
  plausible_range?: [number, number];
  margin: number;
  zero: number | null;
  sided: 'both' | 'upper' | 'lower';
  absolute: boolean;
}

export interface ExpectedChoice {
  type: 'choice';
  choices: { id: string; label: Labels }[];
}

export interface ExpectedBoolean {
  type: 'boolean';
}

export type Expected = ExpectedNumber | ExpectedChoice | ExpectedBoolean;

/**
 * Outcome probabilities of an action for each hypothesis. Hypotheses absent from `rows` follow the
 * baseline; rows are stored sparsely so that a session carries its own model at a small size.
 */
export interface OutcomeTable {
  outcomes: string[];
  baseline: number[];
  rows: Record<string, number[]>;
}

export interface ModelAction {
  id: string;
  kind: ActionKind;
  label: Labels;
  prompt: Labels;
  source: 'knowledge' | 'manual';
  quantity: string | null;
  quantityLabel: Labels | null;
  expected: Expected;
  table: OutcomeTable | null;
  minutes: number;
  invasiveness: number;
  risk: number;
  cost: number;
  replacement: boolean;
  warrantyRelevant: boolean;
  escalation: EscalationTarget | null;
  /** Reliability of the reading: among actions on one quantity, the most reliable answer stands. */
  reliability: number;
  /** Hypotheses a repair targets, with the probability it clears each. */
  fixes: Record<string, number>;
  safety: Labels | null;
  /** The manual's own warnings for the steps this action stands for, as printed. */
  manualSafety?: string[];
  citations: Citation[];
  /** The manual's words behind the citations (absent in sessions stored before quotes). */
  quotes?: Quote[];
  /** The part the manual names for this replacement, with its reference and page. */
  part?: ManualPart;
  /** The instrument the check needs that the installation does not carry (absent: none). */
  instrument?: string;
  /** The quantity a repair brings back into its range (topping up: the water pressure). */
  restores?: string;
  /** The quantities whose reading finds the defect a repair mends; the repair waits for one of them. */
  locatedBy?: string[];
}

export interface ModelSettings {
  threshold: number;
  replacementThreshold: number;
  /**
   * A clear leader below the threshold concludes once no check left could take it under this bar.
   * Sessions stored before the setting existed lack it and never settle early.
   */
  settledThreshold: number;
  /** Weight of a reading stated in the description (absent in sessions stored before it existed). */
  statedReliability?: number;
  residualEscalateAt: number;
  budget: number;
  minAnswers: number;
  minGainBits: number;
  /**
   * Readings of at most `quickMinutes` come before any repair when their expected information,
   * discounted by the chance the technician can answer, reaches `quickMinGain` bits (absent in
   * sessions stored before the rule existed: then 0 minutes, no quick readings).
   */
  quickMinutes?: number;
  /** Readings of at most this many minutes come before repairs whatever the technician could read. */
  glanceMinutes?: number;
  /**
   * Past a lead of `lead`, a check is asked only when it tells `minGainBits` about the lead, and a
   * repair is tried as a test only when it clears the fault with `testRepairMinFix` or more.
   */
  whenLed?: { lead: number; minGainBits: number; testRepairMinFix: number };
  quickMinGain?: number;
  ruleOutRatio: number;
  /**
   * After this many unanswered steps in a row the technician is taken to lack the means to read what
   * is asked: no further check is asked (absent in sessions stored before the rule existed: never).
   */
  unansweredStreak?: number;
  /** A session handing the job on names its leader from this share (absent: it names none). */
  suspectAt?: number;
  /** The check a conclusion waits for against a rival the evidence has not told apart (absent: none). */
  separation?: {
    likelihoodRatio: number;
    minRival: number;
    minDistance: number;
    /** No suspect named on handing on while a close rival was never told apart (absent: always named). */
    confirmSuspect?: boolean;
    /** A conclusion waits for the same, or the job is handed on (absent: it does not). */
    confirmConclusion?: boolean;
  };
  escalationCost: number;
  /** Added to the cost of a check needing an instrument when choosing what to ask (absent: 0). */
  instrumentPenalty?: number;
  /**
   * Among checks within this share of the best information per minute, the best needing no instrument
   * is asked (absent: no tie-break).
   */
  instrumentTieMargin?: number;
  /**
   * The leader's own repair (no part swap) is tried once no other cause explains the answers at
   * `separation.likelihoodRatio` of the leader's likelihood (absent: it waits for the repair order).
   */
  leaderRepairFirst?: boolean;
  /**
   * A dominant leader told apart from every rival, whose part a check could still rule out, is handed
   * on as the suspect when the last check came back unknown (absent: the ruling checks are asked on).
   */
  handOnSeparated?: boolean;
  /**
   * Repairs swapping no part are weighed as tests by their expected cost to resolution against every
   * check's, and one that cleared the fault settles at `settledThreshold` (absent: off).
   */
  repairAsTest?: boolean;
  /** A repair answered with a value does not end a streak of unread checks (absent: it does). */
  streakThroughRepairs?: boolean;
  /** A repair restoring a quantity waits for a reading of it (absent: it does not). */
  restoreNeedsReading?: boolean;
  /** The reading a session opened on a code holds from the start (absent in older sessions). */
  codeReading?: { quantity: string; outcome: string };
}

export interface SessionModel {
  knowledgeVersion: string;
  hypotheses: ModelHypothesis[];
  actions: ModelAction[];
  settings: ModelSettings;
  /** Symptoms recognised in the description and the manual's meaning of the code. */
  symptoms: string[];
  /** Causes the description names. */
  named: string[];
  /**
   * Readings the description states, as soft evidence on the action that reads each quantity; a value
   * taken on site for the quantity replaces it. Sessions stored before statements existed lack it.
   */
  stated?: StatedEvidence[];
  /** Citations of the manual entries for the code. */
  citations: Citation[];
  /** The entries' rows as printed, on those pages (absent in sessions stored before quotes). */
  quotes?: Quote[];
  /** No manual of the brand or model is known: the session runs on general knowledge alone. */
  noManual?: 'brand' | 'model' | 'code';
}

export interface StatedEvidence {
  quantity: string;
  outcome: string;
  phrase: string;
  action_id: string;
  /**
   * The statement is the answer itself: a quantity told rather than read (`told` in the knowledge), or a
   * number stated with its unit. Its question is not asked again.
   */
  told?: true;
  /** A number stated with its unit, in the step's unit: weighed by its bands as an answer would be. */
  value?: number;
}

export type SessionStatus = 'active' | 'concluded' | 'escalated' | 'closed';

export interface HistoryItem {
  turn: number;
  action_id: string;
  answer: Answer;
}

export type OutcomeReason =
  | 'dominant_hypothesis'
  | 'repair_resolved'
  | 'evidence_settled'
  | 'cause_requires_escalation'
  | 'under_warranty'
  | 'residual_dominates'
  | 'budget_spent'
  | 'no_discriminating_action'
  | 'readings_unavailable'
  | 'closed_by_user';

export interface Outcome {
  kind: 'cause_found' | 'escalation' | 'closed';
  reason: OutcomeReason;
  cause_id: string | null;
  probability: number | null;
  /** The repair to carry out or the escalation to make. */
  action_id: string | null;
  escalation: EscalationTarget | null;
  /** Remaining repairs ordered by probability over cost, for an escalation or a closed session. */
  repair_plan: string[];
}

export interface SessionState {
  format: 'heatsource.session/1';
  id: string;
  status: SessionStatus;
  /** The language of the session's own words; absent: English (and in sessions stored before it). */
  language?: 'en' | 'fr';
  equipment: {
    kind: EquipmentKind;
    brand: string;
    model: string;
    code: string | null;
    symptom: string | null;
    context: SessionContext;
  };
  model: SessionModel;
  initial_readings: { action_id: string; quantity: string; value: AnswerValue; given?: string }[];
  history: HistoryItem[];
  posterior: Record<string, number>;
  next_action_id: string | null;
  outcome: Outcome | null;
  /** The status a closed session had before it was closed. */
  closed_from: Exclude<SessionStatus, 'closed'> | null;
}
