import { HeatsourceError } from '@heatsource/sdk';
import { argsOrFlags, BRAND_VALUE, MODEL_VALUE, VALUE_ARGS, VALUE_FLAGS } from '../src/cli/arg-or-flag.js';
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
    '<%= config.bin %> product -b Demotherm -m DT-AW080-M',
  ];
  // Brand and model as arguments, or with the flags `lookup` and `troubleshoot` take (`-b`, `-m`).
  static override args = { brand: VALUE_ARGS.brand, model: VALUE_ARGS.model };
  static override flags = {
    brand: VALUE_FLAGS.brand,
    model: VALUE_FLAGS.model,
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args: given, flags } = await this.parse(Product);
    const args = argsOrFlags([BRAND_VALUE, MODEL_VALUE], [given.brand, given.model], flags);
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
