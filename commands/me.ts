import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatMe } from '../src/cli/format-catalog.js';

export default class Me extends ClientCommand {
  static override summary = 'Who you are to the server: account, key, quota and rate limit.';
  static override description =
    'Against a server: the account, the key’s prefix and mode, the billable answers used this month and ' +
    'the rate limit. Offline: the bundle answering, as a local account that is never billed.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> me',
    '<%= config.bin %> me --url https://hs.example.com --json',
  ];
  static override flags = { ...jsonFlag, ...sourceFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Me);
    await this.withClient(flags, async (client) => {
      const r = await client.me();
      if (flags.json) this.printJson(r);
      else this.print(formatMe(r, this.style, client.target));
      return EXIT.ok;
    });
  }
}
