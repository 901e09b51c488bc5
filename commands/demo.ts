import { Flags } from '@oclif/core';
import { ensureDemoBundle } from '../pipeline/ingest/demo.js';
import { ingestProgress } from '../pipeline/ingest/progress-view.js';
import { bundleInfo } from '../src/bundle/inspect.js';
import { BundleReader } from '../src/bundle/reader.js';
import { HeatsourceCommand } from '../src/cli/base-command.js';
import { formatBundleInfo } from '../src/cli/bundle-format.js';
import { CliError, EXIT } from '../src/cli/exit-codes.js';
import { ServeConfigError, startServer } from '../src/serve/server.js';
import { defaultStatePath } from '../src/state/open.js';

/** Who holds the local account in the demo's console; the link printed at start sets its password. */
const LOCAL_HOLDER_EMAIL = 'owner@localhost';

export default class Demo extends HeatsourceCommand {
  static override summary = 'Build the embedded demo bundle when missing or stale, then show it or serve it.';
  static override description =
    'Generates the demo manuals of a fictional manufacturer (data/demo) to PDF, ingests them into data/demo.bundle ' +
    'when the sources, the extractor or the bundle format changed, then prints the bundle summary, or with --serve ' +
    'serves it on 127.0.0.1 (what `npm start` runs) and prints the web console address with a one-time ' +
    'invitation link for the local account.';
  static override examples = [
    '<%= config.bin %> demo',
    '<%= config.bin %> demo --serve --port 8080',
    '<%= config.bin %> demo --rebuild',
  ];
  static override flags = {
    rebuild: Flags.boolean({
      description: 'rebuild the demo bundle even when it is current',
      default: false,
    }),
    serve: Flags.boolean({ description: 'serve the demo bundle after building it', default: false }),
    port: Flags.integer({
      char: 'p',
      description: 'port for --serve',
      env: 'PORT',
      default: 8080,
      min: 0,
      max: 65535,
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Demo);
    const demo = await ensureDemoBundle({ onEvent: ingestProgress(process.stderr), force: flags.rebuild });
    this.logToStderr(
      demo.rebuilt ? `demo bundle built: ${demo.bundle}` : `demo bundle is current: ${demo.bundle}`,
    );
    if (!flags.serve) {
      const reader = new BundleReader(demo.bundle);
      try {
        this.log(formatBundleInfo(bundleInfo(reader)));
      } finally {
        reader.close();
      }
      return;
    }
    try {
      await startServer(
        {
          bundle: demo.bundle,
          state: defaultStatePath(),
          host: '127.0.0.1',
          port: flags.port,
          auth: true,
          // The demo serves what `serve` serves (the console and the field app beside the API), and
          // invites the local holder.
          surfaces: { invite: LOCAL_HOLDER_EMAIL },
        },
        (line) => process.stderr.write(`${line}\n`),
      );
    } catch (err) {
      if (err instanceof ServeConfigError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
  }
}
