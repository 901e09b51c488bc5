import { Flags } from '@oclif/core';
import { EXIT } from '../src/cli/exit-codes.js';
import { LineInput } from '../src/cli/line-input.js';
import { contextOf, SessionCommand, sessionSourceFlags, unitFlags } from '../src/cli/session-command.js';
import { troubleshoot } from '../src/cli/troubleshoot.js';
import type { CreateSessionRequest } from '../src/contract/sessions.js';

export default class Troubleshoot extends SessionCommand {
  static override summary = 'Find the fault step by step, with the manual pages behind each step.';
  static override description =
    'Interactive: shows the next step to carry out with the answer it expects (unit and normal range, or ' +
    'choices), the likely causes with their probabilities, and the manual pages behind them. Type the ' +
    'answer; "?" when you cannot check, "undo" to take back the last answer, "close" to close, "quit" to ' +
    'leave the session open. Works offline on a bundle (sessions kept in ~/.heatsource/state.sqlite) or ' +
    'against a server; reads answers from a pipe as well as from the keyboard. Missing brand, model or ' +
    'code are asked for.';
  static override examples = [
    '<%= config.bin %> troubleshoot --brand Demotherm --model DT-AW080-M --code E9',
    '<%= config.bin %> troubleshoot --session ds_3Qm…',
    '<%= config.bin %> troubleshoot -b Demotherm -m DT-AW080-M -c E9 --url https://hs.example.com --key ak_live_…',
  ];
  static override flags = {
    ...unitFlags,
    session: Flags.string({ char: 's', description: 'resume this session instead of starting one' }),
    ...sessionSourceFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Troubleshoot);
    await this.withSessions(flags, async (client) => {
      const input = new LineInput(process.stdin, process.stdout);
      try {
        const context = contextOf(flags);
        const end = await troubleshoot({
          client,
          input,
          print: (text) => this.print(text),
          style: this.style,
          ...(flags.session ? { sessionId: flags.session } : {}),
          start: {
            ...(flags.brand ? { brand: flags.brand } : {}),
            ...(flags.model ? { model: flags.model } : {}),
            ...(flags.code ? { code: flags.code } : {}),
            ...(flags.symptom ? { symptom: flags.symptom } : {}),
            ...(flags.equipment ? { equipment: flags.equipment as CreateSessionRequest['equipment'] } : {}),
            ...(context ? { context } : {}),
            ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
            ...(flags.language ? { language: flags.language as CreateSessionRequest['language'] } : {}),
          },
          resumeCommand: (id) => resumeCommand(id, flags),
        });
        return end === 'not_started' ? EXIT.usage : EXIT.ok;
      } finally {
        input.close();
      }
    });
  }
}

/** The command line that resumes a session on the same source. */
function resumeCommand(id: string, flags: { bundle?: string; url?: string; state?: string }): string {
  const parts = ['heatsource troubleshoot --session', id];
  if (flags.bundle) parts.push('--bundle', flags.bundle);
  if (flags.url) parts.push('--url', flags.url);
  if (flags.state) parts.push('--state', flags.state);
  return parts.join(' ');
}
