import type { RegistryResponse } from '@heatsource/sdk';
import { Flags } from '@oclif/core';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatRegistry } from '../src/cli/format-catalog.js';

export default class Registry extends ClientCommand {
  static override summary = 'What the corpus covers: brands, models, manuals and codes.';
  static override description =
    'Lists every brand with its aliases and its models by range, then the totals and the bundle version. ' +
    'With --json it prints one page of the REST answer (--limit brands from --cursor).' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> registry',
    '<%= config.bin %> registry --json --limit 20',
    '<%= config.bin %> registry --url https://hs.example.com',
  ];
  static override flags = {
    limit: Flags.integer({ description: 'brands per page (with --json)', min: 1, max: 200, default: 50 }),
    cursor: Flags.string({ description: 'the next page (with --json), from next_cursor' }),
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Registry);
    await this.withClient(flags, async (client) => {
      if (flags.json) {
        this.printJson(
          await client.getRegistry({ limit: flags.limit, ...(flags.cursor ? { cursor: flags.cursor } : {}) }),
        );
        return EXIT.ok;
      }
      const pages: RegistryResponse[] = [];
      let cursor = flags.cursor;
      for (let n = 0; n < 100; n++) {
        const page = await client.getRegistry({ limit: 200, ...(cursor ? { cursor } : {}) });
        pages.push(page);
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      this.print(formatRegistry(pages, this.style));
      return EXIT.ok;
    });
  }
}
