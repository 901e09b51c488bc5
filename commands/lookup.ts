import { Args, Flags } from '@oclif/core';
import { argOrFlag, CODE_VALUE } from '../src/cli/arg-or-flag.js';
import { ClientCommand, jsonFlag, sourceFlags } from '../src/cli/client-command.js';
import { CliError, EXIT, EXIT_HELP } from '../src/cli/exit-codes.js';
import { formatDiagnostic, formatStrict, notCoveredLine } from '../src/cli/format-diagnostic.js';
import { closestNames } from '../src/cli/suggest.js';

export default class Lookup extends ClientCommand {
  static override summary = 'What an error code means for a unit, from its manual, with the page.';
  static override description =
    'Answers with the meaning of the code as printed, the manual’s own words, the causes, the numbered ' +
    'steps with their safety notes, and the citation (manual title and page). Without --model a code shared ' +
    'by several models stays ambiguous and the models are listed. --strict answers only from an approved ' +
    'manual of the exact model (REST v2).' +
    `\n\n${EXIT_HELP}`;
  static override examples = [
    '<%= config.bin %> lookup --brand Demotherm --model DT-AW080-M --code E9',
    '<%= config.bin %> lookup -b Demotherm -m DT-AW080-M E9',
    '<%= config.bin %> lookup -b Demotherm -m DT-AW080-M -c E9 --strict',
    '<%= config.bin %> lookup --brand Demotherm --code E9 --json | jq .follow_up_questions',
    '<%= config.bin %> lookup --brand Demotherm --model DT-AW080-M --code E9 --url https://hs.example.com --key ak_live_…',
  ];
  // The code may also come last, as technicians type it after the unit (`lookup -b X -m Y E9`).
  static override args = {
    code: Args.string({ description: 'error code as shown on the display (or give it with --code)' }),
  };
  static override flags = {
    brand: Flags.string({
      char: 'b',
      description: 'manufacturer, as printed or commonly called',
      required: true,
    }),
    model: Flags.string({ char: 'm', description: 'model from the nameplate' }),
    code: Flags.string({
      char: 'c',
      description: 'error code as shown on the display (or as the last argument)',
    }),
    strict: Flags.boolean({ description: 'answer only from an approved manual of the exact model' }),
    language: Flags.string({ char: 'l', description: 'preferred manual language (ISO 639-1, e.g. en)' }),
    ...jsonFlag,
    ...sourceFlags,
  };

  async run(): Promise<void> {
    const { args, flags: given } = await this.parse(Lookup);
    const code = argOrFlag(CODE_VALUE, args.code, given.code, CODE_VALUE.same);
    const flags = { ...given, code };
    await this.withClient(flags, async (client) => {
      const language = flags.language ? { language: flags.language } : {};
      if (flags.strict) {
        if (!flags.model)
          throw new CliError('--strict needs --model (the exact model from the nameplate)', EXIT.usage);
        const r = await client.diagnoseStrict({
          brand: flags.brand,
          model: flags.model,
          error_code: flags.code,
          ...language,
        });
        if (flags.json) this.printJson(r);
        else if (r.reason === 'unknown_brand') {
          const { close, known } = await this.brandChoices(client, flags.brand);
          throw new CliError(
            notCoveredLine({ kind: 'brand', typed: flags.brand }, close, known),
            EXIT.notFound,
          );
        } else this.print(formatStrict(r, this.style, { brand: flags.brand, model: flags.model }));
        return r.status === 'exact_source' ? EXIT.ok : EXIT.notFound;
      }
      const r = await client.diagnose({
        brand: flags.brand,
        ...(flags.model ? { model: flags.model } : {}),
        error_code: flags.code,
        ...language,
      });
      if (flags.json) this.printJson(r);
      else if (r.state === 'out_of_coverage' && (!r.brand || flags.model)) {
        // Not an answer but a failure: one line on stderr naming the value at fault, with what exists.
        if (!r.brand) {
          const { close, known } = await this.brandChoices(client, flags.brand);
          throw new CliError(
            notCoveredLine({ kind: 'brand', typed: flags.brand }, close, known),
            EXIT.notFound,
          );
        }
        const models = r.follow_up_questions.find((q) => q.field === 'model')?.options ?? [];
        const typed = flags.model ?? '';
        const close = closestNames(
          typed,
          models.map((name) => ({ name, aliases: [] })),
        );
        throw new CliError(
          notCoveredLine({ kind: 'model', typed, brand: r.brand }, close, models),
          EXIT.notFound,
        );
      } else this.print(formatDiagnostic(r, this.style));
      return r.state === 'answer' ? EXIT.ok : EXIT.notFound;
    });
  }
}
