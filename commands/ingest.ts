import os from 'node:os';
import { Args, Flags } from '@oclif/core';
import { discoverManuals } from '../pipeline/ingest/discover.js';
import { describe, ingestProgress } from '../pipeline/ingest/progress-view.js';
import { ingest } from '../pipeline/ingest/run.js';
import { HeatsourceCommand } from '../src/cli/base-command.js';
import { CliError, EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';

export default class Ingest extends HeatsourceCommand {
  static override summary = 'Ingest manufacturer manuals (PDF + YAML sidecar) into one bundle file.';
  static override description =
    'Walks the given files and folders for *.pdf with their .yaml sidecars, extracts text, sections, error codes ' +
    'and page snapshots, and writes one immutable bundle. Unchanged manuals are reused from the previous bundle. ' +
    'The previous bundle is replaced only when the new one is complete. When any file fails, the bundle is ' +
    `written with the others (unless --strict) and the command exits ${EXIT.partial}, naming each failed file ` +
    `and every document the new bundle no longer holds.\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> ingest ./manuals --bundle corpus.bundle',
    '<%= config.bin %> ingest a.pdf b.pdf --bundle corpus.bundle --no-snapshots --json',
    '<%= config.bin %> ingest ./manuals --bundle corpus.bundle --strict --jobs 4',
  ];
  static override strict = false;
  static override args = {
    paths: Args.string({ description: 'PDF files or folders to ingest', required: true }),
  };
  static override flags = {
    bundle: Flags.string({ char: 'b', description: 'bundle file to write', required: true }),
    jobs: Flags.integer({
      char: 'j',
      description: 'snapshot worker threads',
      min: 1,
      default: os.availableParallelism(),
    }),
    snapshots: Flags.boolean({ description: 'render page snapshots', default: true, allowNo: true }),
    rebuild: Flags.boolean({
      description: 're-extract every manual instead of reusing unchanged ones from the existing bundle',
      default: false,
    }),
    strict: Flags.boolean({
      description: 'fail (and keep the previous bundle) if any file has a problem',
      default: false,
    }),
    json: Flags.boolean({ description: 'print a JSON summary', default: false }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Ingest);
    // A path that is not there, or names no PDF, is a mistake on the command line (status 2), found before
    // anything is read or written, rather than a file that failed to ingest.
    const { manuals, missing } = discoverManuals(argv as string[]);
    if (missing.length > 0) {
      throw new CliError(`no such file or folder: ${missing.join(', ')}; nothing was ingested`, EXIT.usage);
    }
    if (manuals.length === 0) {
      throw new CliError(`no PDF under ${(argv as string[]).join(', ')}; nothing was ingested`, EXIT.usage);
    }
    const progress = flags.json ? undefined : ingestProgress(process.stderr);
    const report = await ingest(
      {
        paths: argv as string[],
        bundle: flags.bundle,
        jobs: flags.jobs,
        snapshots: flags.snapshots,
        strict: flags.strict,
        reuse: !flags.rebuild,
      },
      progress,
    );
    if (flags.json) {
      this.log(JSON.stringify(report, null, 2));
    } else {
      for (const f of report.files) {
        for (const w of f.warnings) this.logToStderr(`  warning: ${describeFile(f.file)}: ${w}`);
      }
      const t = report.totals;
      this.log(
        report.written
          ? `bundle ${report.bundle}: ${t.ingested} ingested, ${t.reused} reused, ${t.failed} failed${t.kept_previous > 0 ? ` (${t.kept_previous} kept their previous version)` : ''}; ${t.pages} pages, ${t.error_codes} error codes (${report.ms} ms)`
          : `bundle not written: ${report.reason}`,
      );
      // The progress lines have named each failed file already; a bundle not written repeats why.
      if (!report.written)
        for (const f of report.files.filter((x) => x.status === 'failed')) this.logToStderr(describe(f));
      if (report.written && report.dropped.length > 0) {
        this.logToStderr(
          `the new bundle no longer holds ${report.dropped.length} document(s) of the previous one: ${report.dropped.join(', ')}`,
        );
      }
    }
    if (!report.written || report.totals.failed > 0) this.exit(EXIT.partial);
  }
}

function describeFile(file: string): string {
  return file.split('/').pop() ?? file;
}
