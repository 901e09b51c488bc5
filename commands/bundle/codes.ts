import { Args, Flags } from '@oclif/core';
import { bundleCodes } from '../../src/bundle/inspect.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { CliError, EXIT, EXIT_HELP } from '../../src/cli/exit-codes.js';

export default class BundleCodes extends HeatsourceCommand {
  static override summary = 'List every error code a bundle answers, with its page and meaning.';
  static override description =
    `For corpus maintainers: check what was read from each manual against the manual itself. ${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> bundle codes corpus.bundle',
    '<%= config.bin %> bundle codes corpus.bundle --document toshiba-hwm-service-en --json',
  ];
  static override args = { file: Args.string({ description: 'bundle file', required: true }) };
  static override flags = {
    document: Flags.string({ description: 'only this document (its id, as `bundle info` lists it)' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(BundleCodes);
    const reader = new BundleReader(args.file);
    try {
      const codes = bundleCodes(reader, flags.document);
      if (!codes) throw new CliError(`no document "${flags.document}" in ${args.file}`, EXIT.notFound);
      if (flags.json) {
        this.printJson({ codes });
        return;
      }
      let current = '';
      for (const c of codes) {
        if (c.document_id !== current) {
          current = c.document_id;
          this.log(`${current === codes[0]!.document_id ? '' : '\n'}${this.style.bold(current)}`);
        }
        const pages = c.pages.length > 1 ? `p${c.pages.join(',')}` : `p${c.page}`;
        this.log(`  ${c.code.padEnd(8)} ${pages.padEnd(7)} ${c.meaning.replace(/\s+/g, ' ')}`);
      }
      if (codes.length === 0) this.log('no error codes');
    } finally {
      reader.close();
    }
  }
}
