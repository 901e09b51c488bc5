import { Args } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { formatSummary } from '../../src/cli/format-session.js';
import { SessionCommand, sessionSourceFlags } from '../../src/cli/session-command.js';

export default class SessionSummaryCommand extends SessionCommand {
  static override summary =
    'The report of a session: steps and answers, outcome, and every manual page cited.';
  static override description = 'Without an id, offline, reports the session changed last.';
  static override examples = [
    '<%= config.bin %> session summary ds_3Qm…',
    '<%= config.bin %> session summary ds_3Qm… --json',
  ];
  static override args = { id: Args.string({ description: 'session id' }) };
  static override flags = { ...jsonFlag, ...sessionSourceFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionSummaryCommand);
    await this.withSessions(flags, async (client) => {
      const summary = await client.summary(await this.sessionId(client, args.id));
      if (flags.json) this.printJson(summary);
      else this.print(formatSummary(summary, this.style));
      return EXIT.ok;
    });
  }
}
