import { Args } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { formatSession } from '../../src/cli/format-session.js';
import { SessionCommand, sessionSourceFlags } from '../../src/cli/session-command.js';

export default class SessionClose extends SessionCommand {
  static override summary = 'Close a guided troubleshooting session; it then takes no more answers.';
  static override examples = ['<%= config.bin %> session close ds_3Qm…'];
  static override args = { id: Args.string({ description: 'session id', required: true }) };
  static override flags = { ...jsonFlag, ...sessionSourceFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionClose);
    await this.withSessions(flags, async (client) => {
      const session = await client.close(args.id);
      if (flags.json) this.printJson(session);
      else this.print(formatSession(session, this.style));
      return EXIT.ok;
    });
  }
}
