import { Args, Command, Flags } from '@oclif/core';
import { verifyBundle } from '../../src/bundle/inspect.js';
import { formatVerifyReport } from '../../src/cli/bundle-format.js';
import { openBundleOrExit } from '../../src/cli/open-bundle.js';

export default class BundleVerify extends Command {
  static override summary =
    'Check a bundle: cited pages exist and hold their codes, snapshots are complete, indexes load.';
  static override description = 'Exits non-zero when any check fails.';
  static override examples = [
    '<%= config.bin %> bundle verify corpus.bundle',
    '<%= config.bin %> bundle verify corpus.bundle --json',
  ];
  static override args = { file: Args.string({ description: 'bundle file', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print JSON', default: false }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(BundleVerify);
    const reader = openBundleOrExit(this, args.file);
    let ok: boolean;
    try {
      const report = verifyBundle(reader);
      ok = report.ok;
      this.log(flags.json ? JSON.stringify(report, null, 2) : formatVerifyReport(report));
    } finally {
      reader.close();
    }
    if (!ok) this.exit(1);
  }
}
