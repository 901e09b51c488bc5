import { z } from 'zod';
import { Citation, ErrorCodeField, wellFormed } from './common.js';

/** Guided troubleshooting sessions: the requests and responses of /v2/diagnostic-sessions and its tools. */

export const SessionEquipmentKind = z.enum(['air_water', 'air_air']).meta({ id: 'SessionEquipmentKind' });
export type SessionEquipmentKind = z.infer<typeof SessionEquipmentKind>;

export const SessionStatus = z
  .enum(['active', 'concluded', 'escalated', 'closed'])
  .meta({ id: 'SessionStatus' });
export type SessionStatus = z.infer<typeof SessionStatus>;

export const SessionActionKind = z
  .enum(['observe', 'measure', 'check', 'repair', 'escalate'])
  .meta({ id: 'SessionActionKind' });
export type SessionActionKind = z.infer<typeof SessionActionKind>;

export const EscalationTarget = z
  .enum(['manufacturer_service', 'warranty', 'design_office', 'electrician'])
  .meta({ id: 'EscalationTarget' });
export type EscalationTarget = z.infer<typeof EscalationTarget>;

export const SessionContext = z
  .object({
    emitter: z
      .enum(['underfloor', 'radiators_low_temp', 'radiators_high_temp', 'fan_coils', 'mixed'])
      .optional(),
    mode: z.enum(['heating', 'cooling', 'dhw']).optional(),
  })
  .strict()
  .meta({ id: 'SessionContext', description: 'Installation context that sets the nominal ranges' });
export type SessionContext = z.infer<typeof SessionContext>;

export const AnswerValue = z.union([z.boolean(), z.number(), z.string()]);
export type AnswerValue = z.infer<typeof AnswerValue>;

export const UnknownAnswer = z
  .object({ unknown: z.literal(true) })
  .strict()
  .meta({
    id: 'UnknownAnswer',
    description: "Can't observe or measure: not evidence; the action is not asked again",
  });
export type UnknownAnswer = z.infer<typeof UnknownAnswer>;

export const ResponseValue = z.union([AnswerValue, UnknownAnswer]);
export type ResponseValue = z.infer<typeof ResponseValue>;

export const ExpectedResponse = z
  .object({
    type: z.enum(['boolean', 'number', 'choice', 'text']),
    unit: z.string().optional(),
    nominal_range: z.tuple([z.number(), z.number()]).optional(),
    range_source: z
      .object({
        kind: z.enum(['manual', 'knowledge']),
        citation: Citation.optional(),
        excerpt: z.string().optional().describe("The manual's sentence that states the range"),
        stated: z
          .tuple([z.number().nullable(), z.number().nullable()])
          .optional()
          .describe('The ends the manual states; null where it states none (a threshold)'),
      })
      .optional()
      .describe("Whether the nominal range is the manual's own (for this model, cited) or a general figure"),
    plausible_range: z
      .tuple([z.number(), z.number()])
      .optional()
      .describe('Readings outside this range are refused as typing or unit errors'),
    choices: z.array(z.object({ id: z.string(), label: z.string() })).optional(),
  })
  .meta({ id: 'ExpectedResponse' });
export type ExpectedResponse = z.infer<typeof ExpectedResponse>;

export const ManualQuote = z
  .object({
    excerpt: z.string().describe("The manual's words, as printed on the cited page"),
    citation: Citation,
  })
  .meta({ id: 'ManualQuote', description: 'A text quoted from a manual and the page that holds it' });
export type ManualQuote = z.infer<typeof ManualQuote>;

export const ManualPart = z
  .object({
    name: z.string(),
    reference: z.string().nullable(),
    citation: Citation.nullable().describe('The page printing the reference; null when none was found'),
  })
  .meta({ id: 'ManualPart', description: 'The part the manual names for a replacement' });
export type ManualPart = z.infer<typeof ManualPart>;

const StepSource = z
  .enum(['manual', 'knowledge'])
  .describe(
    "`manual`: the prompt is the manual's own step; `knowledge`: general advice, not quoted from a manual (the manual's related words are in `quotes`)",
  );

export const NextAction = z
  .object({
    id: z.string(),
    kind: SessionActionKind,
    label: z.string(),
    prompt: z.string(),
    expected: ExpectedResponse,
    minutes: z.number().int().min(0),
    safety: z.string().nullable().describe("The warnings for the step, the manual's own included"),
    source: StepSource,
    citations: z.array(Citation),
    quotes: z
      .array(ManualQuote)
      .describe('What each cited page holds for this step: every citation has its quote'),
    part: ManualPart.optional(),
  })
  .meta({ id: 'NextAction' });
export type NextAction = z.infer<typeof NextAction>;

export const SessionHypothesis = z
  .object({
    id: z.string(),
    label: z.string(),
    probability: z.number().min(0).max(1),
    source: z.enum(['manual', 'knowledge', 'residual']),
    citations: z.array(Citation),
    quotes: z.array(ManualQuote).describe("The manual's words behind each citation"),
  })
  .meta({ id: 'SessionHypothesis' });
export type SessionHypothesis = z.infer<typeof SessionHypothesis>;

export const StatedReading = z
  .object({
    quantity: z.string(),
    label: z.string().describe('What the reading is of'),
    outcome: z.string().describe('A band (low, normal, high, zero), a choice id, or true/false'),
    outcome_label: z.string(),
    phrase: z.string().describe('The words of the description it was read from (normalised)'),
    superseded: z.boolean().describe('A reading taken on site has replaced it'),
  })
  .meta({ id: 'StatedReading' });
export type StatedReading = z.infer<typeof StatedReading>;

export const SessionEquipment = z
  .object({
    brand: z.string(),
    model: z.string(),
    error_code: z.string().optional(),
    symptom: z.string().optional(),
    equipment: SessionEquipmentKind,
    context: SessionContext.optional(),
  })
  .meta({ id: 'SessionEquipment' });
export type SessionEquipment = z.infer<typeof SessionEquipment>;

export const SessionHistoryEntry = z
  .object({
    turn: z.number().int().min(1),
    action_id: z.string(),
    kind: SessionActionKind,
    prompt: z.string(),
    value: ResponseValue.describe('The answer; a number in the unit the step asked for (converted)'),
    given: z
      .string()
      .optional()
      .describe('The reading as given, when it named another unit than the step\'s ("20 psi")'),
    expected: ExpectedResponse.describe(
      'What the step asked for: the unit of a number, the labels of choices',
    ),
    top_hypothesis: z.object({ id: z.string(), probability: z.number() }),
    citations: z.array(Citation),
    quotes: z.array(ManualQuote),
  })
  .meta({ id: 'SessionHistoryEntry' });
export type SessionHistoryEntry = z.infer<typeof SessionHistoryEntry>;

export const SessionOutcome = z
  .object({
    kind: z.enum(['cause_found', 'escalation', 'closed']),
    reason: z.enum([
      'dominant_hypothesis',
      'repair_resolved',
      'evidence_settled',
      'cause_requires_escalation',
      'under_warranty',
      'residual_dominates',
      'budget_spent',
      'no_discriminating_action',
      'readings_unavailable',
      'closed_by_user',
    ]),
    cause: z.object({ id: z.string(), label: z.string(), probability: z.number() }).nullable(),
    action: z
      .object({
        id: z.string(),
        kind: SessionActionKind,
        label: z.string(),
        prompt: z.string(),
        source: StepSource,
        part: ManualPart.optional().describe('The part the manual names, with its reference and page'),
        safety: z.string().nullable(),
      })
      .nullable()
      .describe('The remedy to carry out or the escalation to make'),
    escalation: EscalationTarget.nullable(),
    repair_plan: z
      .array(
        z.object({
          id: z.string(),
          label: z.string(),
          part_swap: z
            .boolean()
            .describe('Replaces a part: to be done only once a check has confirmed that part'),
          reading_first: z
            .object({ id: z.string(), label: z.string() })
            .nullable()
            .describe(
              'The reading to take before this repair, which brings it back into range (a top-up waits for the gauge); null when it has been read',
            ),
          condition: z
            .string()
            .nullable()
            .describe(
              'What must come first, in words of the session language ("only once a check confirms the part"); null when nothing need',
            ),
        }),
      )
      .describe('Remaining repairs by probability over cost, when no cause was found'),
    citations: z.array(Citation),
    quotes: z.array(ManualQuote).describe("The manual's words behind each citation"),
  })
  .meta({ id: 'SessionOutcome' });
export type SessionOutcome = z.infer<typeof SessionOutcome>;

export const ManualCoverage = z
  .object({
    status: z
      .enum(['entry', 'no_entry', 'no_model', 'no_brand'])
      .describe(
        "`entry`: the model's manual documents the code; `no_entry`: its manuals do not (or no code was given); `no_model`: no manual of this model is known; `no_brand`: no manual of this brand is known",
      ),
    message: z.string().nullable().describe('What the technician is told first, once; null for `entry`'),
  })
  .meta({ id: 'ManualCoverage', description: 'What the corpus holds for this unit' });
export type ManualCoverage = z.infer<typeof ManualCoverage>;

/**
 * The language of a session's own words: cause and step labels, prompts, the conditions of the repairs
 * left, the coverage message. What is quoted from a manual stays as printed.
 */
export const SessionLanguage = z.enum(['en', 'fr']).meta({ id: 'SessionLanguage' });
export type SessionLanguage = z.infer<typeof SessionLanguage>;

export const Session = z
  .object({
    id: z.string(),
    status: SessionStatus,
    language: SessionLanguage,
    equipment: SessionEquipment,
    hypotheses: z.array(SessionHypothesis).describe('Most probable first'),
    stated_readings: z
      .array(StatedReading)
      .describe(
        'Readings the description states: weaker evidence than a reading taken on site, except a number with its unit and what the caller tells (how the pressure behaved), which weigh as answers',
      ),
    next_action: NextAction.nullable().describe('Null once the session has concluded, escalated or closed'),
    history: z.array(SessionHistoryEntry),
    outcome: SessionOutcome.optional(),
    turns: z.object({ used: z.number().int().min(0), budget: z.number().int().min(1) }),
    manual_coverage: ManualCoverage,
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;

export const CreateSessionRequest = z
  .object({
    brand: z
      .string()
      .min(1)
      .refine(...wellFormed),
    model: z
      .string()
      .min(1)
      .refine(...wellFormed),
    equipment: SessionEquipmentKind.optional().describe(
      'Derived from the model when the corpus knows it; required otherwise',
    ),
    error_code: ErrorCodeField.optional(),
    symptom: z
      .string()
      .min(1)
      .max(4000)
      .refine(...wellFormed)
      .optional(),
    context: SessionContext.optional(),
    language: SessionLanguage.optional().describe(
      "The session's words (labels, prompts): en (the default) or fr; quotes from a manual stay as printed",
    ),
    readings: z
      .array(
        z
          .object({
            quantity: z.string().min(1),
            value: AnswerValue.describe(
              'A number in the quantity\'s unit, or a string with its unit ("20 psi", "45 °F", "1.2 m³/h"), converted',
            ),
          })
          .strict(),
      )
      .max(50)
      .optional()
      .describe('Readings already taken, by quantity id; not counted as turns'),
    budget: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe('Maximum number of actions before escalating'),
  })
  .strict()
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const SessionResponseRequest = z
  .object({
    action_id: z.string().min(1).describe('The pending next_action.id'),
    value: ResponseValue,
  })
  .strict()
  .meta({ id: 'SessionResponseRequest' });
export type SessionResponseRequest = z.infer<typeof SessionResponseRequest>;

export const SessionSummary = z
  .object({
    session_id: z.string(),
    status: SessionStatus,
    language: SessionLanguage,
    equipment: SessionEquipment,
    stated_readings: z.array(StatedReading),
    path: z.array(SessionHistoryEntry),
    outcome: SessionOutcome.nullable(),
    citations: z.array(Citation).describe('Every page cited anywhere in the session'),
    quotes: z.array(ManualQuote).describe('What each of those pages holds for the session'),
    manual_coverage: ManualCoverage,
  })
  .meta({ id: 'SessionSummary' });
export type SessionSummary = z.infer<typeof SessionSummary>;
