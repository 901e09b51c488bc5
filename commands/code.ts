import { HeatsourceError } from '@heatsource/sdk';
import { argsOrFlags, BRAND_VALUE, CODE_VALUE, VALUE_ARGS, VALUE_FLAGS } from '../src/cli/arg-or-flag.js';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatErrorCode } from '../src/cli/format-catalog.js';

export default class Code extends ClientCommand {
  static override summary = 'Every manual of a brand that documents an error code.';
  static override description =
    'Lists each manual of the brand documenting the code: its meaning there, the models the manual covers, ' +
    'the manual’s words, causes, steps and the page. Use it to compare models; `lookup` answers for one model.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> code Demotherm E9',
    '<%= config.bin %> code "Demo Therm" e9 --json',
    '<%= config.bin %> code -b Demotherm -c E9',
  ];
  // Brand and code as arguments, or with the flags `lookup` and `troubleshoot` take (`-b`, `-c`).
  static override args = { brand: VALUE_ARGS.brand, code: VALUE_ARGS.code };
  static override flags = {
    brand: VALUE_FLAGS.brand,
    code: VALUE_FLAGS.code,
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args: given, flags } = await this.parse(Code);
    const args = argsOrFlags([BRAND_VALUE, CODE_VALUE], [given.brand, given.code], flags);
    await this.withClient(flags, async (client) => {
      try {
        const r = await client.getErrorCode({ brand: args.brand, code: args.code });
        if (flags.json) this.printJson(r);
        else this.print(formatErrorCode(r, this.style));
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
