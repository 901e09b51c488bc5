import { HeatsourceError } from '@heatsource/sdk';
import { ERROR_CODE_MAX } from '../contract/common.js';
import type { CreateSessionRequest, Session, SessionContext } from '../contract/sessions.js';
import { say } from '../text/session-words.js';
import {
  clearingRepair,
  equipmentLine,
  formatAction,
  formatHypotheses,
  formatOutcome,
  formatStated,
  recordedText,
  valueText,
} from './format-session.js';
import type { LineInput } from './line-input.js';
import { PROMPT_HELP, parseTyped } from './session-answer.js';
import type { SessionAnswer, SessionClient } from './session-client.js';
import type { Style } from './style.js';
import { Lines } from './text-layout.js';

export interface TroubleshootStart {
  brand?: string;
  model?: string;
  code?: string;
  symptom?: string;
  equipment?: CreateSessionRequest['equipment'];
  context?: SessionContext;
  budget?: number;
  language?: CreateSessionRequest['language'];
}

export interface TroubleshootOptions {
  client: SessionClient;
  input: LineInput;
  /** Writes one block of text (a newline is added). */
  print: (text: string) => void;
  style: Style;
  /** Resume this session instead of starting one. */
  sessionId?: string;
  start: TroubleshootStart;
  /** The command that resumes a session left open, given its id. */
  resumeCommand: (id: string) => string;
}

export type TroubleshootEnd = 'finished' | 'closed' | 'left_open' | 'not_started';

const HELP = [
  'Type the answer the step asks for:',
  '  yes / no, a number (a unit after it is fine), or the number of a choice',
  '  ?        you cannot check or measure it (not counted as evidence)',
  '  undo     take back the last answer',
  '  close    close the session with what is known',
  '  quit     leave; the session stays open to resume later',
];

/** Codes after which the session is read again and the step asked again. */
const RETRY_CODES = new Set(['action_mismatch', 'session_conflict', 'session_finished']);

async function askRequired(input: LineInput, prompt: string): Promise<string | null> {
  for (;;) {
    const line = await input.ask(prompt);
    if (line === null) return null;
    if (line.trim()) return line.trim();
  }
}

/**
 * A line typed at an optional prompt, or undefined for none: an empty line, or "?" (the answer for "cannot
 * check" at every step, which a technician types here too when there is nothing to tell).
 */
function given(line: string): string | undefined {
  const t = line.trim();
  return t === '' || t === '?' ? undefined : t;
}

/**
 * Whether a line typed at the code prompt is a description rather than a code: three words or more
 * ("E9", "H 01" and "P1 blinking" are codes), or longer than a code may be.
 */
function readsAsDescription(line: string): boolean {
  return line.split(/\s+/).length >= 3 || line.length > ERROR_CODE_MAX;
}

/** The request that starts the session: what the flags gave, the rest asked at the prompt. */
async function startRequest(o: TroubleshootOptions): Promise<CreateSessionRequest | null> {
  const s = o.start;
  const brand = s.brand ?? (await askRequired(o.input, 'Brand: '));
  if (brand === null) return null;
  const model = s.model ?? (await askRequired(o.input, 'Model (from the nameplate): '));
  if (model === null) return null;
  let code = s.code;
  let symptom = s.symptom;
  if (code === undefined && symptom === undefined) {
    const c = await o.input.ask('Error code on the display (Enter if none): ');
    if (c === null) return null;
    code = given(c);
    if (code !== undefined && readsAsDescription(code)) {
      // A complaint typed at the code prompt is what is wrong, not a code: it is kept, and the code
      // asked once more, instead of a validation error that loses what was typed.
      symptom = code;
      o.print(`Taken as what is wrong: "${symptom}".`);
      const again = await o.input.ask('Error code on the display, if any (Enter if none): ');
      if (again === null) return null;
      code = given(again);
      if (code !== undefined && readsAsDescription(code)) {
        symptom = `${symptom}. ${code}`;
        code = undefined;
      }
    } else {
      const d = await o.input.ask(
        code ? 'What else do you see? (Enter to skip): ' : 'What is wrong, in a few words: ',
      );
      if (d === null) return null;
      symptom = given(d);
    }
  }
  const request: CreateSessionRequest = { brand, model };
  if (s.equipment) request.equipment = s.equipment;
  if (code) request.error_code = code;
  if (symptom) request.symptom = symptom;
  if (s.context && Object.keys(s.context).length > 0) request.context = s.context;
  if (s.budget !== undefined) request.budget = s.budget;
  if (s.language !== undefined) request.language = s.language;
  return request;
}

/** The kind of heat pump, asked in the words a technician uses on site. */
async function askKind(input: LineInput): Promise<CreateSessionRequest['equipment'] | null> {
  for (;;) {
    const line = await input.ask(
      'Does the unit heat water (for radiators, floor heating or hot water: answer 1) or blow warm or cool air into the rooms (answer 2)? ',
    );
    if (line === null) return null;
    const t = line.trim().toLowerCase();
    if (['1', 'water', 'air/water', 'air_water'].includes(t)) return 'air_water';
    if (['2', 'air', 'air/air', 'air_air'].includes(t)) return 'air_air';
  }
}

function probabilities(s: Session): Map<string, number> {
  return new Map(s.hypotheses.map((h) => [h.id, h.probability]));
}

/**
 * The interactive loop of `heatsource troubleshoot`: shows the pending step with what to answer, the
 * leading hypotheses (with how each moved since the last answer) and the manual pages behind them,
 * takes typed answers, "?" for can't check, undo, close and quit, until the session concludes or
 * escalates. Works the same offline and against a server; lines may come from a terminal or a pipe.
 */
export async function troubleshoot(o: TroubleshootOptions): Promise<TroubleshootEnd> {
  const { client, style } = o;
  let session: Session;
  if (o.sessionId) session = await client.get(o.sessionId);
  else {
    const request = await startRequest(o);
    if (request === null) {
      o.print('Nothing to troubleshoot: brand and model are needed.');
      return 'not_started';
    }
    let told = false;
    try {
      session = await client.start(request);
    } catch (err) {
      const needsKind =
        err instanceof HeatsourceError &&
        err.code === 'validation_failed' &&
        err.errors.some((e) => e.field === 'equipment');
      if (!needsKind) throw err;
      // No manual of the unit is known: say so once, and ask the one thing the session needs.
      o.print(
        style.yellow(
          `No manual of the ${request.brand} ${request.model} is known: the steps will be general guidance, with no manual page behind them.`,
        ),
      );
      const kind = await askKind(o.input);
      if (kind === null) {
        o.print('Nothing to troubleshoot: the kind of heat pump is needed.');
        return 'not_started';
      }
      session = await client.start({ ...request, equipment: kind });
      told = true;
    }
    if (!told && session.manual_coverage?.message) o.print(style.yellow(session.manual_coverage.message));
  }
  const header = new Lines(style)
    .add('')
    .para(style.bold(`Troubleshooting · ${equipmentLine(session.equipment)}`))
    .para(style.dim(`Session ${session.id} (${client.where})`))
    .para(style.dim(`Answers: ${PROMPT_HELP}`));
  const lang = session.language ?? 'en';
  const stated = formatStated(session.stated_readings, style, lang).lines;
  if (stated.length > 0) header.add('', ...stated);
  o.print(header.toString());

  let previous: Map<string, number> | undefined;
  let show = true;
  for (;;) {
    if (show) {
      const view = new Lines(style).add(
        '',
        ...formatHypotheses(session.hypotheses, style, { previous }, lang).lines,
        '',
      );
      if (session.next_action)
        view.add(...formatAction(session.next_action, style, session.turns, lang).lines);
      else if (session.outcome)
        view.add(...formatOutcome(session.outcome, style, clearingRepair(session.history), lang).lines);
      o.print(view.toString());
    }
    show = true;

    if (session.status === 'closed') {
      o.print(endLines(style, `Session ${session.id} is closed. Report:`, summaryCommand(session.id)));
      return 'closed';
    }
    const action = session.next_action;
    const line = await o.input.ask(action ? '> ' : '\nEnter to finish, or undo: ');
    if (line === null && !action) return finish(o, session);
    const typed = line === null ? ({ kind: 'quit' } as const) : parseTyped(line, action?.expected ?? null);
    if (!action && (typed.kind === 'invalid' || typed.kind === 'unknown' || typed.kind === 'answer')) {
      return finish(o, session);
    }

    try {
      switch (typed.kind) {
        case 'help':
          o.print(HELP.join('\n'));
          show = false;
          continue;
        case 'invalid':
          o.print(style.yellow(typed.message));
          show = false;
          continue;
        case 'quit':
          if (!action) return finish(o, session);
          o.print(
            endLines(style, `Session ${session.id} stays open. Resume with:`, o.resumeCommand(session.id)),
          );
          return 'left_open';
        case 'close': {
          session = await client.close(session.id);
          continue;
        }
        case 'undo': {
          const before = session;
          session = await client.undo(session.id);
          const undone = before.history[before.history.length - 1];
          o.print(
            style.dim(
              `Took back: ${undone ? `${undone.prompt} → ${valueText(undone.value, undone, lang)}` : 'the last answer'}`,
            ),
          );
          previous = probabilities(before);
          continue;
        }
        case 'unknown':
        case 'answer': {
          if (!action) return finish(o, session);
          const answer: SessionAnswer =
            typed.kind === 'unknown'
              ? { action_id: action.id, unknown: true }
              : { action_id: action.id, value: typed.value };
          const before = session;
          session = await client.respond(session.id, answer);
          const recorded = recordedText(
            session,
            action.id,
            typed.kind === 'unknown' ? { unknown: true } : { value: typed.value },
            action,
            lang,
          );
          o.print(style.dim(say(lang, 'recorded', { text: recorded })));
          previous = probabilities(before);
          continue;
        }
      }
    } catch (err) {
      if (!(err instanceof HeatsourceError) || err.status >= 500 || err.status === 401 || err.status === 404)
        throw err;
      o.print(style.yellow(`${err.detail || err.title} (${err.code})`));
      if (RETRY_CODES.has(err.code)) session = await client.get(session.id);
      else show = false;
    }
  }
}

function finish(o: TroubleshootOptions, session: Session): TroubleshootEnd {
  o.print(
    endLines(o.style, `Session ${session.id} is ${session.status}. Report:`, summaryCommand(session.id)),
  );
  return 'finished';
}

function summaryCommand(id: string): string {
  return `heatsource session summary ${id}`;
}

/** A closing sentence, wrapped, then the command it names on a line of its own, never broken. */
function endLines(style: Style, sentence: string, command: string): string {
  return new Lines(style)
    .add('')
    .para(sentence)
    .command(command, '  ', (t) => t)
    .toString();
}
