import { Args, Flags } from '@oclif/core';
import { bundleInfo } from '../../src/bundle/inspect.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { formatBundleInfo } from '../../src/cli/bundle-format.js';
import { EXIT_HELP } from '../../src/cli/exit-codes.js';

export default class BundleInfo extends HeatsourceCommand {
  static override summary =
    'Show what a bundle holds: documents, pages, chunks, error codes and models per brand.';
  static override description = EXIT_HELP;
  static override examples = [
    '<%= config.bin %> bundle info corpus.bundle',
    '<%= config.bin %> bundle info corpus.bundle --json',
  ];
  static override args = { file: Args.string({ description: 'bundle file', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(BundleInfo);
    const reader = new BundleReader(args.file);
    try {
      const info = bundleInfo(reader);
      this.log(flags.json ? JSON.stringify(info, null, 2) : formatBundleInfo(info));
    } finally {
      reader.close();
    }
  }
}
