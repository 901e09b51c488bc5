import { Args } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { formatSession } from '../../src/cli/format-session.js';
import { SessionCommand, sessionSourceFlags } from '../../src/cli/session-command.js';

export default class SessionShow extends SessionCommand {
  static override summary = 'Show a guided troubleshooting session: hypotheses, next step or outcome.';
  static override description = 'Without an id, offline, shows the session changed last.';
  static override examples = [
    '<%= config.bin %> session show ds_3Qm…',
    '<%= config.bin %> session show ds_3Qm… --json',
  ];
  static override args = { id: Args.string({ description: 'session id' }) };
  static override flags = { ...jsonFlag, ...sessionSourceFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionShow);
    await this.withSessions(flags, async (client) => {
      const session = await client.get(await this.sessionId(client, args.id));
      if (flags.json) this.printJson(session);
      else this.print(formatSession(session, this.style));
      return EXIT.ok;
    });
  }
}
