import { Args, Flags } from '@oclif/core';
import { verifyBundle } from '../../src/bundle/inspect.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { formatVerifyReport } from '../../src/cli/bundle-format.js';
import { EXIT, EXIT_HELP } from '../../src/cli/exit-codes.js';

export default class BundleVerify extends HeatsourceCommand {
  static override summary =
    'Check a bundle: cited pages exist and hold their codes, snapshots are complete, indexes load.';
  static override description =
    'A check with nothing to check (snapshots of a bundle built with --no-snapshots) is reported as not ' +
    `applicable, never as passed. Exits ${EXIT.partial} when any check fails.\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> bundle verify corpus.bundle',
    '<%= config.bin %> bundle verify corpus.bundle --json',
  ];
  static override args = { file: Args.string({ description: 'bundle file', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(BundleVerify);
    const reader = new BundleReader(args.file);
    let ok: boolean;
    try {
      const report = verifyBundle(reader);
      ok = report.ok;
      this.log(flags.json ? JSON.stringify(report, null, 2) : formatVerifyReport(report));
    } finally {
      reader.close();
    }
    if (!ok) this.exit(EXIT.partial);
  }
}
