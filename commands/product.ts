import { HeatsourceError } from '@heatsource/sdk';
import { Args } from '@oclif/core';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatProduct } from '../src/cli/format-catalog.js';

export default class Product extends ClientCommand {
  static override summary = 'A model and the manuals that cover it.';
  static override description =
    'Finds the model by its exact name, an alias, or one close name (said so), and lists its manuals with ' +
    'their type, language, edition and whether they are approved as exact sources.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> product Demotherm DT-AW080-M',
    '<%= config.bin %> product Demotherm dt-sa25-wi --json',
  ];
  static override args = {
    brand: Args.string({ description: 'manufacturer', required: true }),
    model: Args.string({ description: 'model from the nameplate', required: true }),
  };
  static override flags = { ...jsonFlag, ...sourceFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Product);
    await this.withClient(flags, async (client) => {
      try {
        const r = await client.getProduct({ brand: args.brand, model: args.model });
        if (flags.json) this.printJson(r);
        else this.print(formatProduct(r, this.style));
        return EXIT.ok;
      } catch (err) {
        if (err instanceof HeatsourceError && err.code === 'brand_not_found') {
          return this.brandNotFound(client, err, args.brand);
        }
        throw err;
      }
    });
  }
}
