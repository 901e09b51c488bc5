import { Command, Flags } from '@oclif/core';
import { ensureDemoBundle } from '../pipeline/ingest/demo.js';
import { bundleInfo } from '../src/bundle/inspect.js';
import { BundleReader } from '../src/bundle/reader.js';
import { formatBundleInfo } from '../src/cli/bundle-format.js';
import { ingestProgress } from '../src/cli/ingest-progress.js';

export default class Demo extends Command {
  static override summary = 'Build the embedded demo bundle when missing or stale, then show what it holds.';
  static override description =
    'Generates the demo manuals of a fictional manufacturer (data/demo) to PDF, ingests them into data/demo.bundle ' +
    'when the sources, the extractor or the bundle format changed, and prints the bundle summary.';
  static override examples = ['<%= config.bin %> demo', '<%= config.bin %> demo --rebuild'];
  static override flags = {
    rebuild: Flags.boolean({
      description: 'rebuild the demo bundle even when it is current',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Demo);
    const demo = await ensureDemoBundle({ onEvent: ingestProgress(process.stderr), force: flags.rebuild });
    this.logToStderr(
      demo.rebuilt ? `demo bundle built: ${demo.bundle}` : `demo bundle is current: ${demo.bundle}`,
    );
    const reader = new BundleReader(demo.bundle);
    try {
      this.log(formatBundleInfo(bundleInfo(reader)));
    } finally {
      reader.close();
    }
  }
}
