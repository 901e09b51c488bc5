import { Args, Flags } from '@oclif/core';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatResolve } from '../src/cli/format-catalog.js';

export default class Resolve extends ClientCommand {
  static override summary = 'Resolve a model name strictly: exact name or alias only.';
  static override description =
    'Says which model a nameplate name is, with its model id, ignoring case, spaces and hyphens but never ' +
    'guessing: a range name lists the models of the range, an unknown name its close names. Without ' +
    '--brand the name is looked up under every brand; a name that several brands use lists their models ' +
    'and asks for --brand. --json prints the REST answer.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> resolve DT-AW080-M --brand Demotherm',
    '<%= config.bin %> resolve dtaw080m',
    '<%= config.bin %> resolve Aquafield --brand Demotherm --json',
  ];
  static override args = {
    model: Args.string({ description: 'model name from the nameplate', required: true }),
  };
  static override flags = {
    brand: Flags.string({ char: 'b', description: 'manufacturer (default: try every brand)' }),
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Resolve);
    await this.withClient(flags, async (client) => {
      // One request either way: without a brand the service looks the name up under every brand itself.
      const r = await client.resolveModel({
        model: args.model,
        ...(flags.brand ? { brand: flags.brand } : {}),
      });
      if (flags.json) this.printJson(r);
      else {
        const hints =
          flags.brand && r.reason === 'unknown_brand' ? await this.brandSuggestions(client, flags.brand) : [];
        this.print(formatResolve(r, this.style, hints));
      }
      return r.status === 'resolved' ? EXIT.ok : EXIT.notFound;
    });
  }
}
