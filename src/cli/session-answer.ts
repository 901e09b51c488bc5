import type { AnswerValue, ExpectedResponse } from '../contract/sessions.js';
import { splitReading, toStepUnit } from '../engine/sessions/units.js';
import { foldTyped, promptWords } from './prompt-words.js';

/** What a line typed at the troubleshooting prompt asks for. */
export type TypedInput =
  | { kind: 'answer'; value: AnswerValue }
  | { kind: 'unknown' }
  | { kind: 'undo' }
  | { kind: 'quit' }
  | { kind: 'close' }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string };

/** Commands shown in the prompt's help line, in the order the technician needs them. */
export const PROMPT_HELP = '? = cannot check · undo · close · quit · help';

const fold = foldTyped;

/** A number as typed on a small keyboard: a decimal comma, a sign, and a unit after it are accepted. */
export function parseNumber(text: string): number | null {
  const m = /^\s*([-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+))(?:\s*[^\d\s.,].*)?$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]!.replace(',', '.'));
  return Number.isFinite(n) ? n : null;
}

/**
 * The typed value of an answer for what the action expects: yes/no words for a boolean, a number
 * (unit after it allowed), a choice by its number in the list, its id or the start of its label.
 */
export function valueFor(
  text: string,
  expected: ExpectedResponse,
): { value: AnswerValue } | { error: string } {
  const t = fold(text);
  switch (expected.type) {
    case 'boolean':
      if (promptWords().yes.has(t)) return { value: true };
      if (promptWords().no.has(t)) return { value: false };
      return { error: 'answer yes or no' };
    case 'number': {
      const unit = expected.unit ? ` ${expected.unit}` : '';
      const typed = splitReading(text);
      if (typed === null)
        return { error: `answer with a number${expected.unit ? ` in ${expected.unit}` : ''}` };
      // A unit after the number is read and converted ("20 psi" for a step in bar); an unknown one is refused.
      let n = typed.number;
      let given: string | null = null;
      if (typed.unit && expected.unit) {
        try {
          ({ value: n, given } = toStepUnit(text.trim(), expected.unit));
        } catch (err) {
          return { error: (err as Error).message };
        }
      }
      const plausible = expected.plausible_range;
      const shown = given ? `${given} (${n}${unit})` : `${n}${unit}`;
      if (plausible && (n < plausible[0] || n > plausible[1]))
        return { error: `${shown} is not a plausible reading: ${plausible[0]} to ${plausible[1]}${unit}` };
      // Sent as typed when converted, so that the session records the reading as given beside its value.
      return { value: given ? text.trim() : n };
    }
    case 'choice': {
      const choices = expected.choices ?? [];
      const index = /^\d+$/.test(t) ? Number(t) : Number.NaN;
      if (index >= 1 && index <= choices.length) return { value: choices[index - 1]!.id };
      const byId = choices.find((c) => fold(c.id) === t);
      if (byId) return { value: byId.id };
      const byLabel = choices.filter((c) => t.length > 0 && fold(c.label).startsWith(t));
      if (byLabel.length === 1) return { value: byLabel[0]!.id };
      return { error: `answer with a number from 1 to ${choices.length}` };
    }
    case 'text':
      return text.trim() ? { value: text.trim() } : { error: 'type what you found' };
  }
}

/** Reads one line typed at the prompt: a command, "can't check", or an answer to the pending action. */
export function parseTyped(text: string, expected: ExpectedResponse | null): TypedInput {
  const t = fold(text);
  const words = promptWords();
  if (words.unknown.has(t)) return { kind: 'unknown' };
  if (words.undo.has(t)) return { kind: 'undo' };
  if (words.quit.has(t)) return { kind: 'quit' };
  if (words.close.has(t)) return { kind: 'close' };
  if (words.help.has(t)) return { kind: 'help' };
  if (!expected) return { kind: 'invalid', message: 'no action is pending: undo, close or quit' };
  if (!t) return { kind: 'invalid', message: `type an answer (${PROMPT_HELP})` };
  const v = valueFor(text, expected);
  return 'value' in v ? { kind: 'answer', value: v.value } : { kind: 'invalid', message: v.error };
}
