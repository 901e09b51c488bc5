import { z } from 'zod';
import { wellFormed } from './common.js';
import { ResponseValue } from './sessions.js';

/** Inputs of the session operations that name a session: its id from the path, plus the body. */

const SessionId = z
  .string()
  .min(1)
  .max(100)
  .refine(...wellFormed)
  .describe('The session id returned when it was started');

export const SessionRef = z.strictObject({ session_id: SessionId }).meta({ id: 'SessionRef' });
export type SessionRef = z.infer<typeof SessionRef>;

/**
 * An answer to the pending action: `{action_id, value}`, or `{action_id, unknown: true}` when the
 * technician cannot observe or measure it (`value: {"unknown": true}` is accepted as well).
 */
export const SessionRespondRequest = z
  .strictObject({
    session_id: SessionId,
    action_id: z.string().min(1).max(200).describe('The pending next_action.id'),
    value: ResponseValue.optional().describe(
      'A boolean, a number (in the unit the action asks for, or a string with its unit such as "20 psi", converted; an unknown unit is refused naming it) or a choice id, as next_action.expected says',
    ),
    unknown: z.literal(true).optional().describe("Can't observe or measure: not evidence"),
  })
  .refine((r) => (r.value === undefined) !== (r.unknown === undefined), {
    message: 'give either `value` or `unknown: true`',
    path: ['value'],
  })
  .meta({ id: 'SessionRespondRequest' });
export type SessionRespondRequest = z.infer<typeof SessionRespondRequest>;
