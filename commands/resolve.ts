import type { ResolveModelResponse } from '@heatsource/sdk';
import { Args, Flags } from '@oclif/core';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatResolve } from '../src/cli/format-catalog.js';

export default class Resolve extends ClientCommand {
  static override summary = 'Resolve a model name strictly: exact name or alias only.';
  static override description =
    'Says which model a nameplate name is, with its model id, ignoring case, spaces and hyphens but never ' +
    'guessing: a range name lists the models of the range, an unknown name its close names. Without ' +
    '--brand every brand of the corpus is tried; --json then prints an array of the REST answers that ' +
    'resolved (or, when none did, of those with candidates).' +
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
      if (flags.brand) {
        const r = await client.resolveModel({ brand: flags.brand, model: args.model });
        if (flags.json) this.printJson(r);
        else {
          const hints = r.reason === 'unknown_brand' ? await this.brandSuggestions(client, flags.brand) : [];
          this.print(formatResolve(r, this.style, hints));
        }
        return r.status === 'resolved' ? EXIT.ok : EXIT.notFound;
      }
      const answers: ResolveModelResponse[] = [];
      for (const brand of await this.knownBrands(client)) {
        answers.push(await client.resolveModel({ brand: brand.name, model: args.model }));
      }
      const resolved = answers.filter((r) => r.status === 'resolved');
      const shown = resolved.length > 0 ? resolved : answers.filter((r) => r.candidates.length > 0);
      if (flags.json) this.printJson(shown);
      else if (shown.length === 0) this.print(`No model “${args.model}” in the corpus, under any brand.`);
      else this.print(shown.map((r) => formatResolve(r, this.style)).join('\n\n'));
      return resolved.length > 0 ? EXIT.ok : EXIT.notFound;
    });
  }
}
