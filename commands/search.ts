import { Args, Flags } from '@oclif/core';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { CliError, EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatSearch } from '../src/cli/format-catalog.js';
import { notCoveredLine } from '../src/cli/format-diagnostic.js';

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export default class Search extends ClientCommand {
  static override summary = 'Search the manuals in free text.';
  static override description =
    'Finds the passages of the manuals that match the words, in any manual language, best first; each with ' +
    'the page where the text stands. Narrow with --brand, --model (exact name or alias) and --language; ' +
    'nothing matching is status 3.' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> search "low water flow"',
    '<%= config.bin %> search "flow switch" --brand Demotherm --model DT-AW080-M --limit 3',
    '<%= config.bin %> search "débit" --language fr --json',
  ];
  static override args = {
    query: Args.string({ description: 'words or a question', required: true }),
  };
  static override flags = {
    brand: Flags.string({ char: 'b', description: 'only manuals of this brand' }),
    model: Flags.string({ char: 'm', description: 'only manuals covering this model' }),
    language: Flags.string({ char: 'l', description: 'only manuals in this language (ISO 639-1)' }),
    limit: Flags.integer({ char: 'n', description: 'results per page', min: 1, max: 50, default: 10 }),
    cursor: Flags.string({ description: 'the next page, from the previous answer' }),
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Search);
    if (!args.query.trim()) {
      throw new CliError(
        `no words to search for: give a word or a question, e.g. ${this.config.bin} search "low water flow"`,
        EXIT.usage,
      );
    }
    await this.withClient(flags, async (client) => {
      const r = await client.search({
        q: args.query,
        limit: flags.limit,
        ...(flags.brand ? { brand: flags.brand } : {}),
        ...(flags.model ? { model: flags.model } : {}),
        ...(flags.language ? { language: flags.language } : {}),
        ...(flags.cursor ? { cursor: flags.cursor } : {}),
      });
      if (flags.json) {
        this.printJson(r);
        return r.results.length > 0 ? EXIT.ok : EXIT.notFound;
      }
      if (r.results.length === 0) {
        // A brand or model the corpus does not hold is the reason, not the words: said on stderr in one
        // line, as `lookup` says it, with the brands there are.
        // A server older than the field sends none: nothing is then said about the filters.
        const unmatched = r.unmatched_filters ?? [];
        if (flags.brand && unmatched.includes('brand')) {
          const { close, known } = await this.brandChoices(client, flags.brand);
          throw new CliError(
            notCoveredLine({ kind: 'brand', typed: flags.brand }, close, known),
            EXIT.notFound,
          );
        }
        if (flags.model && unmatched.includes('model')) {
          const scope = flags.brand ? ` of ${flags.brand}` : '';
          throw new CliError(
            `no manual${scope} in the corpus covers model “${flags.model}”; \`${this.config.bin} registry\` lists the models`,
            EXIT.notFound,
          );
        }
        this.print(`No passage matches “${args.query}”.`);
        return EXIT.notFound;
      }
      const next = r.next_cursor
        ? [
            this.config.bin,
            'search',
            shellQuote(args.query),
            ...(flags.brand ? ['--brand', shellQuote(flags.brand)] : []),
            ...(flags.model ? ['--model', shellQuote(flags.model)] : []),
            ...(flags.language ? ['--language', flags.language] : []),
            ...(flags.limit !== 10 ? ['--limit', String(flags.limit)] : []),
            '--cursor',
            r.next_cursor,
          ].join(' ')
        : null;
      this.print(formatSearch(r, this.style, next));
      return EXIT.ok;
    });
  }
}
