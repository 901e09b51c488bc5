import { Args, Flags } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { formatSession, recordedText } from '../../src/cli/format-session.js';
import { commandLineAnswer, SessionCommand, sessionSourceFlags } from '../../src/cli/session-command.js';
import { say } from '../../src/text/session-words.js';

export default class SessionRespond extends SessionCommand {
  static override summary = 'Answer the pending step of a session.';
  static override description =
    'The answer is read as the step expects it: yes/no, a number (a unit after it is fine), or a choice by ' +
    'its number, id or label. "?" (or --unknown) says it cannot be checked, which is not taken as ' +
    'evidence. --action names the step answered (default: the pending one); a session that has moved on ' +
    'refuses an answer to another step.';
  static override examples = [
    '<%= config.bin %> session respond ds_3Qm… 1.4',
    '<%= config.bin %> session respond ds_3Qm… yes --action test_flow_switch',
    '<%= config.bin %> session respond ds_3Qm… --unknown --json',
  ];
  static override args = {
    id: Args.string({ description: 'session id', required: true }),
    answer: Args.string({ description: 'the answer (or use --value / --unknown)' }),
  };
  static override flags = {
    action: Flags.string({ char: 'a', description: 'id of the step answered (default: the pending one)' }),
    value: Flags.string({ char: 'v', description: 'the answer' }),
    unknown: Flags.boolean({ char: 'u', description: 'it cannot be checked or measured' }),
    ...jsonFlag,
    ...sessionSourceFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionRespond);
    const text = flags.value ?? args.answer;
    if (flags.value !== undefined && args.answer !== undefined) {
      this.error('give the answer once: as an argument or with --value', { exit: EXIT.usage });
    }
    if (text === undefined && !flags.unknown) {
      this.error('give an answer, or --unknown when it cannot be checked', { exit: EXIT.usage });
    }
    await this.withSessions(flags, async (client) => {
      const before = await client.get(args.id);
      const pending = before.next_action;
      const answer = commandLineAnswer(text, { unknown: flags.unknown, action: flags.action }, pending);
      const session = await client.respond(args.id, answer);
      if (flags.json) this.printJson(session);
      else {
        const recorded = recordedText(
          session,
          answer.action_id,
          answer.unknown ? { unknown: true } : { value: answer.value! },
          pending ?? undefined,
          session.language,
        );
        this.print(this.style.dim(say(session.language ?? 'en', 'recorded', { text: recorded })));
        const previous = new Map(before.hypotheses.map((h) => [h.id, h.probability]));
        this.print(formatSession(session, this.style, { previous }));
      }
      return EXIT.ok;
    });
  }
}
