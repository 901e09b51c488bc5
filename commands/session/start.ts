import { Flags } from '@oclif/core';
import { jsonFlag } from '../../src/cli/client-command.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { formatSession } from '../../src/cli/format-session.js';
import {
  contextOf,
  readingsOf,
  SessionCommand,
  sessionSourceFlags,
  unitFlags,
} from '../../src/cli/session-command.js';
import type { CreateSessionRequest } from '../../src/contract/sessions.js';
import { say } from '../../src/text/session-words.js';

export default class SessionStart extends SessionCommand {
  static override summary = 'Start a guided troubleshooting session (one billable unit on a server).';
  static override description =
    'Starts a session for a unit and its error code or symptom, and prints the first step to carry out ' +
    'with the answer it expects. Answer with `heatsource session respond`. Offline, sessions are kept in ' +
    '~/.heatsource/state.sqlite (or --state) so that later commands continue them.';
  static override examples = [
    '<%= config.bin %> session start --brand Demotherm --model DT-AW080-M --code E9',
    '<%= config.bin %> session start -b Demotherm -m DT-AW080-M --symptom "radiators lukewarm" --emitter underfloor',
    '<%= config.bin %> session start -b Demotherm -m DT-AW080-M -c E9 --reading water_pressure=0.6 --json',
  ];
  static override flags = {
    ...unitFlags,
    brand: Flags.string({
      char: 'b',
      description: 'manufacturer, as printed or commonly called',
      required: true,
    }),
    model: Flags.string({ char: 'm', description: 'model from the nameplate', required: true }),
    reading: Flags.string({
      description: 'a reading already taken, quantity=value (repeatable)',
      multiple: true,
    }),
    ...jsonFlag,
    ...sessionSourceFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(SessionStart);
    await this.withSessions(flags, async (client) => {
      const request: CreateSessionRequest = {
        brand: flags.brand,
        model: flags.model,
      };
      if (flags.equipment) request.equipment = flags.equipment as CreateSessionRequest['equipment'];
      if (flags.code) request.error_code = flags.code;
      if (flags.symptom) request.symptom = flags.symptom;
      const context = contextOf(flags);
      if (context) request.context = context;
      const readings = readingsOf(flags.reading);
      if (readings) request.readings = readings;
      if (flags.budget !== undefined) request.budget = flags.budget;
      if (flags.language) request.language = flags.language as CreateSessionRequest['language'];
      if (!request.error_code && !request.symptom && !request.readings) {
        throw new CliError('say what is wrong: --code, --symptom or --reading', EXIT.usage);
      }
      const session = await client.start(request);
      if (flags.json) this.printJson(session);
      else {
        this.print(formatSession(session, this.style));
        this.print(this.style.dim(`\n${say(session.language ?? 'en', 'answer_hint', { id: session.id })}`));
      }
      return EXIT.ok;
    });
  }
}
