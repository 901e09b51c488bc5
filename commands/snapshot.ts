import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HeatsourceError } from '@heatsource/sdk';
import { Args, Flags } from '@oclif/core';
import { ClientCommand, sourceFlags } from '../src/cli/client-command.js';
import { CliError, EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { openWithViewer } from '../src/cli/open-file.js';

export default class Snapshot extends ClientCommand {
  static override summary = 'Save the image of a manual page (the page a citation points to).';
  static override description =
    'Writes the page as WebP (or PNG with --format png) to --out, by default DOCUMENT-pPAGE.webp in the ' +
    'current folder (with --open, in a temporary folder); `--out -` writes the bytes to stdout. --open shows it with the desktop viewer ' +
    '(xdg-open, or open on macOS) when there is one. Every citation prints the command that fetches its page.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> snapshot demotherm-aquafield-monobloc-service-en 7',
    '<%= config.bin %> snapshot demotherm-aquafield-monobloc-service-en 7 --out page7.webp --open',
    '<%= config.bin %> snapshot demotherm-aquafield-monobloc-service-en 7 --format png --width 800 --out - > p7.png',
  ];
  static override args = {
    document: Args.string({ description: 'document id, as citations give it', required: true }),
    // The bound only keeps a mistyped number from reaching the service as an unsafe integer; a page past
    // the document's end is answered not found, with the page count.
    page: Args.integer({ description: 'page number (from 1)', required: true, min: 1, max: 1_000_000 }),
  };
  static override flags = {
    out: Flags.string({ char: 'o', description: 'file to write, or - for stdout' }),
    open: Flags.boolean({ description: 'open the image with the desktop viewer' }),
    format: Flags.string({ description: 'image format', options: ['webp', 'png'], default: 'webp' }),
    width: Flags.integer({
      char: 'w',
      description: 'narrow to this width in pixels (100 to 2000)',
      min: 100,
      max: 2000,
    }),
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Snapshot);
    await this.withClient(flags, async (client) => {
      if (flags.open && flags.out === '-')
        throw new CliError('--open needs a file: name one with --out', EXIT.usage);
      let image: Awaited<ReturnType<typeof client.getPdfSnapshot>>;
      try {
        image = await client.getPdfSnapshot({
          document_id: args.document,
          page: args.page,
          format: flags.format as 'webp' | 'png',
          ...(flags.width ? { width: flags.width } : {}),
        });
      } catch (err) {
        if (err instanceof HeatsourceError && err.code === 'document_not_found') {
          throw new CliError(
            `${err.detail}; document ids are listed by \`heatsource product BRAND MODEL\``,
            EXIT.notFound,
          );
        }
        throw err;
      }
      if (flags.out === '-') {
        process.stdout.write(image.data);
        return EXIT.ok;
      }
      const ext = image.contentType === 'image/png' ? 'png' : 'webp';
      const name = `${args.document}-p${args.page}.${ext}`;
      // Only to look at it (--open without --out): a temporary folder, not the current one (often a checkout).
      const viewing = path.join(os.tmpdir(), 'heatsource-snapshots');
      if (!flags.out && flags.open) fs.mkdirSync(viewing, { recursive: true });
      const file = flags.out
        ? path.resolve(flags.out)
        : flags.open
          ? path.join(viewing, name)
          : path.resolve(name);
      const folder = path.dirname(file);
      if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
        throw new CliError(`cannot write ${file}: the folder ${folder} does not exist`, EXIT.usage);
      }
      fs.writeFileSync(file, image.data);
      this.print(
        `${file} (${image.contentType}, ${Math.max(1, Math.round(image.data.byteLength / 1024))} KB)`,
      );
      if (flags.open) {
        const viewer = openWithViewer(file);
        if (!viewer)
          process.stderr.write(
            'heatsource: no desktop viewer found (xdg-open or open); the file is written\n',
          );
      }
      return EXIT.ok;
    });
  }
}
