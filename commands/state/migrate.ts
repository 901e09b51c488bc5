import { Flags } from '@oclif/core';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { isPostgresUrl } from '../../src/state/location.js';
import { describeState } from '../../src/state/open.js';
import { copySqliteToPostgres, StateTransferError } from '../../src/state/transfer.js';

export default class StateMigrate extends HeatsourceCommand {
  static override summary =
    'Copy a SQLite state into an empty PostgreSQL one, every row, in one transaction.';
  static override description =
    'Moves a single-machine installation to PostgreSQL: accounts, keys (hashes), the usage ledger and its ' +
    'counters, idempotency records and sessions, with their ids. Each table is counted on both sides before ' +
    'the commit; on any failure nothing is written. Stop the servers using the SQLite file first. Exit status: ' +
    '0 copied, 2 usage (a flag is wrong, or the target is refused: not empty, another schema), ' +
    '4 a state could not be read or written.';
  static override examples = [
    '<%= config.bin %> state migrate --from data/state.sqlite --to postgres://heatsource@db.internal/heatsource',
  ];
  static override flags = {
    from: Flags.string({ description: 'the SQLite state file', required: true }),
    to: Flags.string({
      description: 'the PostgreSQL state: postgres://user@host/db[?schema=name]',
      required: true,
    }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(StateMigrate);
    if (!isPostgresUrl(flags.to))
      throw new CliError(`--to must be a postgres:// URL, not "${flags.to}"`, EXIT.usage);
    if (isPostgresUrl(flags.from)) throw new CliError('--from must be a SQLite file, not a URL', EXIT.usage);
    let report: Awaited<ReturnType<typeof copySqliteToPostgres>>;
    try {
      report = await copySqliteToPostgres(flags.from, flags.to);
    } catch (err) {
      // A refusal names what to change on the command line; anything else is the state failing.
      if (err instanceof StateTransferError) throw new CliError(err.message, EXIT.usage);
      throw new CliError(`state migrate failed: ${(err as Error).message}`, EXIT.unavailable);
    }
    if (flags.json) {
      this.printJson(report);
      return;
    }
    for (const table of report.tables) this.print(`${table.table.padEnd(24)} ${table.rows}`);
    const total = report.tables.reduce((sum, table) => sum + table.rows, 0);
    process.stderr.write(`copied ${total} rows from ${flags.from} to ${describeState(flags.to)}\n`);
  }
}
