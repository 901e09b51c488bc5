import { z } from 'zod';
import { Keywords, type Settings, Shift, Strength } from './settings-schema.js';

export { Settings, Shift, Strength } from './settings-schema.js';

/**
 * Schemas of the troubleshooting knowledge in data/knowledge/. The files are written by hand; these
 * schemas check each file on its own, and `checkKnowledgeReferences` checks that the files agree with
 * one another (every effect names a quantity and one of its outcomes, every remedy an action, ...).
 */

export const EquipmentKind = z.enum(['air_water', 'air_air']);
export type EquipmentKind = z.infer<typeof EquipmentKind>;

export const Labels = z.object({ en: z.string().min(1), fr: z.string().min(1) }).strict();
export type Labels = z.infer<typeof Labels>;

// Keyword phrases per language live beside the settings, whose manual words take the same shape.
export { Keywords } from './settings-schema.js';

export const ContextKey = z.enum(['emitter', 'mode']);
export const Emitter = z.enum([
  'underfloor',
  'radiators_low_temp',
  'radiators_high_temp',
  'fan_coils',
  'mixed',
]);
export type Emitter = z.infer<typeof Emitter>;
export const OperatingMode = z.enum(['heating', 'cooling', 'dhw']);
export type OperatingMode = z.infer<typeof OperatingMode>;

const Range = z
  .tuple([z.number(), z.number()])
  .refine(([lo, hi]) => lo < hi, { message: 'a range needs min < max' });

export const NominalRule = z
  .object({
    when: z
      .object({ emitter: z.array(Emitter).optional(), mode: z.array(OperatingMode).optional() })
      .strict()
      .optional(),
    range: Range,
  })
  .strict();
export type NominalRule = z.infer<typeof NominalRule>;

export const NumberBand = z.enum(['zero', 'low', 'normal', 'high']);
export type NumberBand = z.infer<typeof NumberBand>;

const NumberQuantity = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    type: z.literal('number'),
    label: Labels,
    equipment: z.array(EquipmentKind).min(1),
    unit: z.string().min(1),
    /** First rule whose `when` matches the session context wins; the last rule has no `when`. */
    nominal: z.array(NominalRule).min(1),
    /** Half-width of the soft boundary around each end of the nominal range. */
    margin: z.number().positive(),
    /** What an instrument can read at all on a working installation; a reading outside is refused. */
    plausible: z.tuple([z.number(), z.number()]),
    /** Values at or below this fall in the `zero` band (no flow, no current, no voltage). */
    zero: z.number().optional(),
    /** `upper`: only values above the range are abnormal (a deviation); `lower`: only values below. */
    sided: z.enum(['both', 'upper', 'lower']).default('both'),
    /** The sign does not matter (a deviation either way). */
    absolute: z.boolean().default(false),
    /** Probability of each band when the fault lies elsewhere. */
    baseline: z.partialRecord(NumberBand, z.number().positive()).optional(),
  })
  .strict();

const Choice = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/),
  label: Labels,
  baseline: z.number().positive(),
});

const ChoiceQuantity = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    type: z.literal('choice'),
    label: Labels,
    equipment: z.array(EquipmentKind).min(1),
    choices: z.array(Choice.strict()).min(2),
    /**
     * Told by the occupant or the caller rather than read on site (how the pressure behaved over the
     * last days): stated in the description, it is the answer the question would get, not a weaker
     * second-hand reading.
     */
    told: z.boolean().default(false),
  })
  .strict();

const BooleanQuantity = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    type: z.literal('boolean'),
    label: Labels,
    equipment: z.array(EquipmentKind).min(1),
    /** Probability of `true` when the fault lies elsewhere. */
    baseline_true: z.number().gt(0).lt(1),
  })
  .strict();

export const Quantity = z.discriminatedUnion('type', [NumberQuantity, ChoiceQuantity, BooleanQuantity]);
export type Quantity = z.infer<typeof Quantity>;
export type NumberQuantity = z.infer<typeof NumberQuantity>;
export type ChoiceQuantity = z.infer<typeof ChoiceQuantity>;

export const ActionKind = z.enum(['observe', 'measure', 'check', 'repair', 'escalate']);
export type ActionKind = z.infer<typeof ActionKind>;

export const EscalationTarget = z.enum(['manufacturer_service', 'warranty', 'design_office', 'electrician']);
export type EscalationTarget = z.infer<typeof EscalationTarget>;

export const Instrument = z.enum([
  'thermometer',
  'flow_meter',
  'pressure_gauge',
  'multimeter',
  'clamp_meter',
  'insulation_tester',
  'refrigerant_gauges',
  'leak_detector',
]);
export type Instrument = z.infer<typeof Instrument>;

export const Action = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    kind: ActionKind,
    label: Labels,
    /** What the technician is asked to do; for a repair the engine appends the question "did it clear?". */
    prompt: Labels,
    equipment: z.array(EquipmentKind).min(1),
    minutes: z.number().int().min(0),
    /** 1 = look or ask, 2 = instrument on an open unit, 3 = dismantle, 4 = sealed system, 5 = part swap. */
    invasiveness: z.number().int().min(1).max(5),
    /** 0 = none ... 4 = live refrigerant or high-voltage work. */
    risk: z.number().int().min(0).max(4),
    /** The quantity an observe, measure or check action reads. */
    quantity: z.string().optional(),
    /** Share of readings that reflect the quantity (the rest look like the baseline). */
    reliability: z.number().gt(0).max(1).default(1),
    /** For a repair: probability that it clears the fault when each listed cause is the true one. */
    fixes: z.record(z.string(), z.number().gt(0).max(1)).optional(),
    /** For a repair: the number quantity it brings back into range; its prompt states that range. */
    restores: z.string().optional(),
    /**
     * For a repair of a defect someone must first find (the damaged section of a cable): the quantities
     * whose reading finds it. The repair is tried only once one of them has been read.
     */
    located_by: z.array(z.string()).min(1).optional(),
    /** Swaps or opens a part: never proposed while a cheaper check could rule its cause out. */
    replacement: z.boolean().default(false),
    /** A major part: a unit under warranty goes to the manufacturer instead. */
    warranty_relevant: z.boolean().default(false),
    escalation: EscalationTarget.optional(),
    requires: z.array(z.enum(['electrical_clearance', 'refrigerant_certificate'])).default([]),
    /**
     * The instrument the check needs that the installation does not carry (a thermometer, a flow meter,
     * a multimeter...); absent for what a technician sees, hears, asks or reads on the unit itself.
     */
    instrument: Instrument.optional(),
    safety: Labels.optional(),
    /** Phrases that recognise this action in a manual's remedy steps. */
    keywords: Keywords,
  })
  .strict();
export type Action = z.infer<typeof Action>;

export const Cause = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    label: Labels,
    /** Relative frequency among faults of each kind of equipment; a kind not listed does not have it. */
    prior: z.partialRecord(EquipmentKind, z.number().positive()),
    /** Phrases that recognise this cause in a manual's list of causes. */
    keywords: Keywords,
    /** quantity id -> outcome (band or choice) -> strength. */
    effects: z.record(z.string(), z.record(z.string(), Strength)),
    /** The action that removes the cause (a repair) or hands it on (an escalation). */
    remedy: z.string(),
    /**
     * The cause is a symptom other faults also produce (a low pressure: a leak, a vessel that lost its
     * charge): it is concluded only once a check has told it from each cause that explains the same
     * evidence, however the evidence compares, and a repair that restores the symptom does not settle it.
     */
    symptom_level: z.boolean().default(false),
    /**
     * Of a symptom-level cause, the quantities it acts on through the symptom itself (a low pressure's
     * short flow and high ΔT): any cause that leaves the symptom behind shows them too, so a reading of
     * them never tells the symptom from a cause it may be masking.
     */
    through_symptom: z.array(z.string()).default([]),
  })
  .strict();
export type Cause = z.infer<typeof Cause>;

export const Symptom = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_]*$/),
    label: Labels,
    /** Every group must match (each group matches when any of its phrases does). */
    all: z.array(Keywords).min(1),
    /** The symptom does not hold when any of these phrases appears. */
    none: Keywords.optional(),
    shifts: z.record(z.string(), Shift),
  })
  .strict();
export type Symptom = z.infer<typeof Symptom>;

/**
 * A reading the technician states in the description: a phrase naming the quantity (the subject) near
 * a phrase giving its outcome, within one clause ("ΔT very low", "pressures normal", "no air at the vent").
 */
export const Statement = z
  .object({
    quantity: z.string(),
    subject: Keywords,
    /** Outcome id (a band, a choice, "true" or "false") -> the phrases that state it. */
    outcomes: z.record(z.string(), Keywords),
  })
  .strict();
export type Statement = z.infer<typeof Statement>;

export const QuantitiesFile = z.object({ quantities: z.array(Quantity).min(1) }).strict();
export const ActionsFile = z.object({ actions: z.array(Action).min(1) }).strict();
export const CausesFile = z.object({ causes: z.array(Cause).min(1) }).strict();
export const SymptomsFile = z.object({ symptoms: z.array(Symptom) }).strict();
export const StatementsFile = z.object({ statements: z.array(Statement) }).strict();

export interface Knowledge {
  /** Digest of the validated content: a session records the knowledge it was built from. */
  version: string;
  settings: Settings;
  quantities: Quantity[];
  actions: Action[];
  causes: Cause[];
  symptoms: Symptom[];
  statements: Statement[];
}

/** The outcomes a quantity can take: its bands, choices, or true/false. */
export function quantityOutcomes(q: Quantity): string[] {
  if (q.type === 'choice') return q.choices.map((c) => c.id);
  if (q.type === 'boolean') return ['true', 'false'];
  const bands: string[] = [];
  if (q.zero !== undefined) bands.push('zero');
  if (q.sided !== 'upper') bands.push('low');
  bands.push('normal');
  if (q.sided !== 'lower') bands.push('high');
  return bands;
}

/** Every inconsistency between the files, as readable messages (empty when the knowledge is coherent). */
export function checkKnowledgeReferences(k: Knowledge): string[] {
  const problems: string[] = [];
  const unique = (kind: string, ids: string[]) => {
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id)) problems.push(`${kind} ${id} is defined twice`);
      seen.add(id);
    }
  };
  unique(
    'quantity',
    k.quantities.map((q) => q.id),
  );
  unique(
    'action',
    k.actions.map((a) => a.id),
  );
  unique(
    'cause',
    k.causes.map((c) => c.id),
  );
  unique(
    'symptom',
    k.symptoms.map((s) => s.id),
  );

  const quantities = new Map(k.quantities.map((q) => [q.id, q]));
  const actions = new Map(k.actions.map((a) => [a.id, a]));
  const causes = new Map(k.causes.map((c) => [c.id, c]));

  for (const q of k.quantities) {
    if (q.type === 'number') {
      const last = q.nominal[q.nominal.length - 1];
      if (last?.when) problems.push(`quantity ${q.id}: the last nominal rule must have no "when"`);
      for (const rule of q.nominal) {
        if (2 * q.margin >= rule.range[1] - rule.range[0]) {
          problems.push(`quantity ${q.id}: margin too wide for range ${rule.range.join('..')}`);
        }
        if (rule.range[0] < q.plausible[0] || rule.range[1] > q.plausible[1]) {
          problems.push(
            `quantity ${q.id}: nominal range ${rule.range.join('..')} is not within its plausible range`,
          );
        }
      }
      if (q.baseline) {
        const outcomes = quantityOutcomes(q);
        for (const band of Object.keys(q.baseline)) {
          if (!outcomes.includes(band))
            problems.push(`quantity ${q.id}: baseline names unknown band ${band}`);
        }
      }
    }
  }

  for (const a of k.actions) {
    const info = a.kind === 'observe' || a.kind === 'measure' || a.kind === 'check';
    if (info && !a.quantity) problems.push(`action ${a.id}: an ${a.kind} action needs a quantity`);
    if (!info && a.quantity) problems.push(`action ${a.id}: a ${a.kind} action reads no quantity`);
    if (a.quantity) {
      const q = quantities.get(a.quantity);
      if (!q) problems.push(`action ${a.id}: unknown quantity ${a.quantity}`);
      else if (!a.equipment.every((e) => q.equipment.includes(e))) {
        problems.push(`action ${a.id}: quantity ${q.id} does not exist on all of ${a.equipment.join(', ')}`);
      }
    }
    if (a.kind === 'repair' && (!a.fixes || Object.keys(a.fixes).length === 0)) {
      problems.push(`action ${a.id}: a repair must list the causes it fixes`);
    }
    if (a.kind !== 'repair' && a.fixes) problems.push(`action ${a.id}: only a repair fixes causes`);
    if (a.restores !== undefined && quantities.get(a.restores)?.type !== 'number')
      problems.push(`action ${a.id}: restores ${a.restores}, which is not a number quantity`);
    for (const id of a.located_by ?? []) {
      if (a.kind !== 'repair') problems.push(`action ${a.id}: only a repair is located by a reading`);
      else if (!quantities.has(id)) problems.push(`action ${a.id}: located by unknown quantity ${id}`);
    }
    if (a.kind === 'escalate' && !a.escalation) problems.push(`action ${a.id}: an escalation needs a target`);
    for (const id of Object.keys(a.fixes ?? {})) {
      if (!causes.has(id)) problems.push(`action ${a.id}: fixes unknown cause ${id}`);
    }
  }

  for (const c of k.causes) {
    const remedy = actions.get(c.remedy);
    if (!remedy) problems.push(`cause ${c.id}: unknown remedy ${c.remedy}`);
    else if (remedy.kind !== 'repair' && remedy.kind !== 'escalate') {
      problems.push(`cause ${c.id}: remedy ${c.remedy} is neither a repair nor an escalation`);
    } else if (remedy.kind === 'repair' && !remedy.fixes?.[c.id]) {
      problems.push(`cause ${c.id}: remedy ${c.remedy} does not list it in fixes`);
    }
    for (const kind of Object.keys(c.prior) as EquipmentKind[]) {
      if (remedy && !remedy.equipment.includes(kind)) {
        problems.push(`cause ${c.id}: remedy ${c.remedy} is not available on ${kind}`);
      }
    }
    for (const [qid, outcomes] of Object.entries(c.effects)) {
      const q = quantities.get(qid);
      if (!q) {
        problems.push(`cause ${c.id}: effect on unknown quantity ${qid}`);
        continue;
      }
      const allowed = quantityOutcomes(q);
      let total = 0;
      for (const [outcome, strength] of Object.entries(outcomes)) {
        if (!allowed.includes(outcome)) problems.push(`cause ${c.id}: ${qid} has no outcome ${outcome}`);
        total += k.settings.strengths[strength] ?? 0;
      }
      if (total > 0.96) problems.push(`cause ${c.id}: effects on ${qid} add up to more than the whole`);
    }
  }

  for (const st of k.statements) {
    const q = quantities.get(st.quantity);
    if (!q) {
      problems.push(`statement: unknown quantity ${st.quantity}`);
      continue;
    }
    for (const outcome of Object.keys(st.outcomes)) {
      if (!quantityOutcomes(q).includes(outcome))
        problems.push(`statement on ${q.id}: no outcome ${outcome}`);
    }
  }

  const codeReading = k.settings.code_reading;
  if (codeReading) {
    const q = quantities.get(codeReading.quantity);
    if (!q) problems.push(`settings code_reading: unknown quantity ${codeReading.quantity}`);
    else if (!quantityOutcomes(q).includes(codeReading.outcome))
      problems.push(`settings code_reading on ${q.id}: no outcome ${codeReading.outcome}`);
  }

  for (const s of k.symptoms) {
    for (const id of Object.keys(s.shifts)) {
      if (!causes.has(id)) problems.push(`symptom ${s.id}: shifts unknown cause ${id}`);
    }
  }
  return problems;
}
