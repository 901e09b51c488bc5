import { z } from 'zod';
import { Citation, ErrorCodeField, ProcedureCitation, text, wellFormed } from './common.js';
import { ModelMatch } from './documents.js';
import { NextAction, SessionHypothesis, SessionOutcome, SessionStatus } from './sessions.js';

export const Language = z
  .string()
  .regex(/^[a-z]{2}$/, 'must be an ISO 639-1 code such as "en"')
  .describe('preferred manual language when several manuals document the code');

export const DiagnosticRequest = z
  .strictObject({
    brand: text(100).describe('manufacturer as printed or commonly called (aliases are resolved)'),
    model: text(100)
      .nullish()
      .describe('model from the nameplate; without it a code shared by several models stays ambiguous'),
    error_code: ErrorCodeField,
    language: Language.optional(),
  })
  .meta({ id: 'DiagnosticRequest' });
export type DiagnosticRequest = z.infer<typeof DiagnosticRequest>;

export const DiagnosticState = z
  .enum(['answer', 'ambiguous', 'unknown_code', 'out_of_coverage'])
  .meta({ id: 'DiagnosticState' });
export type DiagnosticState = z.infer<typeof DiagnosticState>;

export const Confidence = z
  .object({
    band: z.enum(['high', 'medium', 'low']),
    score: z.number().min(0).max(1),
  })
  .meta({ id: 'Confidence' });
export type Confidence = z.infer<typeof Confidence>;

export const AnswerOrigin = z
  .enum(['reader', 'code_index', 'maintainer'])
  .describe(
    "where the answer's reading comes from: `reader`, a row of a code table as the manual's tables were read; " +
      '`code_index`, the row or line a code opens on its page, verbatim, used only where the table reader found ' +
      'nothing for the code (its confidence is `low`); `maintainer`, a code the corpus maintainer listed for ' +
      'the manual, checked at ingest to stand on its page. Null when there is no answer',
  )
  .meta({ id: 'AnswerOrigin' });
export type AnswerOrigin = z.infer<typeof AnswerOrigin>;

export const Excerpt = z
  .object({
    text: z.string().describe('verbatim text of the manual, as it stands on `page`'),
    document_id: z.string(),
    page: z.number().int().min(1),
  })
  .meta({ id: 'Excerpt' });
export type Excerpt = z.infer<typeof Excerpt>;

export const Step = z
  .object({
    order: z.number().int().min(1),
    text: z.string(),
    safety: z
      .string()
      .nullable()
      .describe("the manual's warning for this step (isolate power, ...), or null"),
  })
  .meta({ id: 'Step' });
export type Step = z.infer<typeof Step>;

export const Part = z.object({ name: z.string(), reference: z.string().nullable() }).meta({ id: 'Part' });
export type Part = z.infer<typeof Part>;

/** Another reading of the request: a manual documenting the code for other models, or a second meaning. */
export const Alternative = z
  .object({
    brand: z.string(),
    models: z.array(z.string()).describe('models the manual lists'),
    error_code: z.string().describe('the code as printed'),
    title: z.string().describe("the code's meaning as printed"),
    document_id: z.string(),
    citation: Citation,
  })
  .meta({ id: 'Alternative' });
export type Alternative = z.infer<typeof Alternative>;

export const FollowUpQuestion = z
  .object({
    field: z.enum(['brand', 'model', 'error_code']).describe('the request field the answer fills in'),
    question: z.string(),
    options: z.array(z.string()).describe('known values to choose from; empty when open'),
  })
  .meta({ id: 'FollowUpQuestion' });
export type FollowUpQuestion = z.infer<typeof FollowUpQuestion>;

export const DiagnosticResponse = z
  .object({
    state: DiagnosticState,
    confidence: Confidence,
    brand: z.string().nullable().describe('canonical brand, when the corpus has it'),
    model: ModelMatch.nullable(),
    error_code: z.string().describe('the code as printed in the manual when found, else as normalised'),
    title: z.string().nullable().describe("the code's meaning as printed"),
    excerpt: Excerpt.nullable().describe('only for `answer`'),
    origin: AnswerOrigin.nullable(),
    causes: z.array(z.string()),
    steps: z.array(Step),
    part: Part.nullable(),
    citation: Citation.nullable(),
    procedure: ProcedureCitation.nullable().describe(
      "the code's detailed procedure, when the manual has one",
    ),
    alternatives: z.array(Alternative),
    follow_up_questions: z.array(FollowUpQuestion),
    billable: z.boolean().describe('whether this response counts against the quota'),
  })
  .meta({ id: 'DiagnosticResponse' });
export type DiagnosticResponse = z.infer<typeof DiagnosticResponse>;

export const TurnResponseValue = z
  .union([z.boolean(), z.number(), z.string(), z.null()])
  .describe("null when the technician can't observe or measure it (not evidence)");

/** One turn of a guided conversation; the first turn names the equipment, later ones carry the conversation id. */
export const DiagnosticTurnRequest = z
  .strictObject({
    conversation_id: text(100).nullish().describe('omit on the first turn'),
    brand: text(100).optional(),
    model: text(100).optional(),
    error_code: ErrorCodeField.optional(),
    message: z
      .string()
      .max(4000)
      .refine(...wellFormed)
      .optional()
      .describe('first turn: free-text description of the symptom'),
    response: z
      .strictObject({ action_id: text(100), value: TurnResponseValue })
      .optional()
      .describe('later turns: the answer to the next_action of the previous turn'),
  })
  .refine((v) => v.conversation_id || v.brand, {
    message: 'the first turn needs `brand` (later turns carry `conversation_id`)',
    path: ['brand'],
  })
  .meta({ id: 'DiagnosticTurnRequest' });
export type DiagnosticTurnRequest = z.infer<typeof DiagnosticTurnRequest>;

/**
 * Where a guided conversation stands after a turn: the action to carry out next (or the outcome), the
 * hypotheses with their probabilities, and the manual pages behind them. The conversation is a
 * diagnostic session: `conversation_id` also reads at /v2/diagnostic-sessions/{id}.
 */
export const DiagnosticTurnResponse = z
  .object({
    conversation_id: z.string().describe('send it with every later turn'),
    turn: z.number().int().min(1).describe('1 on the first turn, then one more per recorded answer'),
    status: SessionStatus,
    message: z.string().describe('what to tell the technician: the next action, or the outcome'),
    next_action: NextAction.nullable().describe('answer it in the next turn; null once finished'),
    hypotheses: z.array(SessionHypothesis).describe('most probable first'),
    outcome: SessionOutcome.nullable(),
    citations: z.array(Citation).describe('manual pages behind the next action or the outcome'),
    billable: z.boolean().describe('true on the turn that opened the conversation'),
  })
  .meta({ id: 'DiagnosticTurnResponse' });
export type DiagnosticTurnResponse = z.infer<typeof DiagnosticTurnResponse>;
