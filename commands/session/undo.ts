import { Args } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { formatSession } from '../../src/cli/format-session.js';
import { SessionCommand, sessionSourceFlags } from '../../src/cli/session-command.js';

export default class SessionUndo extends SessionCommand {
  static override summary = 'Take back the last answer of a session.';
  static override examples = ['<%= config.bin %> session undo ds_3Qm…'];
  static override args = { id: Args.string({ description: 'session id', required: true }) };
  static override flags = { ...jsonFlag, ...sessionSourceFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionUndo);
    await this.withSessions(flags, async (client) => {
      const session = await client.undo(args.id);
      if (flags.json) this.printJson(session);
      else this.print(formatSession(session, this.style));
      return EXIT.ok;
    });
  }
}
