import { Flags } from '@oclif/core';
import type { AnswerValue, CreateSessionRequest, NextAction, SessionContext } from '../contract/sessions.js';
import { ClientCommand, type SourceFlags, sourceFlags } from './client-command.js';
import { CliError, EXIT, type ExitCode } from './exit-codes.js';
import { foldTyped, promptWords } from './prompt-words.js';
import { parseNumber, parseTyped, valueFor } from './session-answer.js';
import { openSessions, type SessionAnswer, type SessionClient } from './session-client.js';
import { resolveTarget } from './target.js';

/** Source flags of the session commands: those of every client command, plus the offline state file. */
export const sessionSourceFlags = {
  ...sourceFlags,
  state: Flags.string({
    description:
      'offline: the state that keeps sessions between runs, a SQLite file or a postgres:// URL (default ~/.heatsource/state.sqlite)',
    helpGroup: 'SOURCE',
  }),
};

/** What names the unit and the complaint when a session starts. */
export const unitFlags = {
  brand: Flags.string({ char: 'b', description: 'manufacturer, as printed or commonly called' }),
  model: Flags.string({ char: 'm', description: 'model from the nameplate' }),
  code: Flags.string({ char: 'c', description: 'error code as shown on the display' }),
  symptom: Flags.string({ description: 'what is wrong, in a few words' }),
  equipment: Flags.string({
    char: 'e',
    description: 'kind of heat pump; by default, what the corpus says of the model',
    options: ['air_water', 'air_air'],
  }),
  emitter: Flags.string({
    description: 'heat emitters, which set the nominal water temperatures',
    options: ['underfloor', 'radiators_low_temp', 'radiators_high_temp', 'fan_coils', 'mixed'],
  }),
  mode: Flags.string({
    description: 'operating mode when the fault shows',
    options: ['heating', 'cooling', 'dhw'],
  }),
  budget: Flags.integer({ description: 'at most this many steps before escalating', min: 1, max: 50 }),
  language: Flags.string({
    description: "language of the session's labels and prompts (quotes stay as the manual prints them)",
    options: ['en', 'fr'],
  }),
};

export function contextOf(flags: { emitter?: string; mode?: string }): SessionContext | undefined {
  const context: SessionContext = {};
  if (flags.emitter) context.emitter = flags.emitter as SessionContext['emitter'];
  if (flags.mode) context.mode = flags.mode as SessionContext['mode'];
  return Object.keys(context).length > 0 ? context : undefined;
}

/**
 * A value typed without knowing what it answers: a number first (so "1" in `--reading pressure=1` stays a
 * reading, not the prompt's "1" for yes), then the prompt's yes/no words, else the text itself.
 */
export function looseValue(text: string): AnswerValue {
  const t = text.trim().toLowerCase();
  const n = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)$/.test(t) ? parseNumber(t) : null;
  if (n !== null) return n;
  const folded = foldTyped(text);
  if (promptWords().yes.has(folded)) return true;
  if (promptWords().no.has(folded)) return false;
  return text.trim();
}

/**
 * The answer a command line gives: "?" or --unknown for can't check, else the text read as the pending
 * step expects it. An answer to another step than the pending one is sent as typed, for the session to
 * refuse (409).
 */
export function commandLineAnswer(
  text: string | undefined,
  options: { unknown: boolean; action?: string },
  pending: NextAction | null,
): SessionAnswer {
  const actionId = options.action ?? pending?.id ?? 'none';
  if (options.unknown || text === undefined || parseTyped(text, null).kind === 'unknown') {
    return { action_id: actionId, unknown: true };
  }
  if (pending && pending.id === actionId) {
    const v = valueFor(text, pending.expected);
    if ('error' in v) throw new CliError(`${v.error} for "${pending.label}"`, EXIT.usage);
    return { action_id: actionId, value: v.value };
  }
  return { action_id: actionId, value: looseValue(text) };
}

/** `quantity=value` readings from the command line. */
export function readingsOf(list: string[] | undefined): CreateSessionRequest['readings'] {
  if (!list || list.length === 0) return undefined;
  return list.map((r) => {
    const at = r.indexOf('=');
    if (at <= 0 || at === r.length - 1)
      throw new CliError(`--reading takes quantity=value, not "${r}"`, EXIT.usage);
    return { quantity: r.slice(0, at).trim(), value: looseValue(r.slice(at + 1)) };
  });
}

/** A command over guided sessions: opens them offline (with a state file) or on a server, reports failures. */
export abstract class SessionCommand extends ClientCommand {
  protected async withSessions(
    flags: SourceFlags & { json?: boolean; state?: string },
    body: (client: SessionClient) => Promise<ExitCode>,
  ): Promise<void> {
    let code: ExitCode = EXIT.ok;
    let client: SessionClient | undefined;
    try {
      this.target = resolveTarget(flags);
      client = await openSessions(this.target, {
        ...(flags.state ? { state: flags.state } : {}),
        timeoutMs: flags.timeout * 1000,
      });
      code = await body(client);
    } catch (err) {
      code = this.report(err, flags.json ?? false);
    } finally {
      await client?.dispose();
    }
    if (code !== EXIT.ok) this.exit(code);
  }

  /** The session named on the command line, or offline the one used last. */
  protected async sessionId(client: SessionClient, given: string | undefined): Promise<string> {
    if (given) return given;
    const latest = await client.latest();
    if (!latest) throw new CliError('name the session: heatsource session show <id>', EXIT.usage);
    return latest;
  }
}
