import { Command, Flags } from '@oclif/core';
import { describeState } from '../../src/state/open.js';
import { isPostgresUrl } from '../../src/state/pg-store.js';
import { copySqliteToPostgres, StateTransferError } from '../../src/state/transfer.js';

export default class StateMigrate extends Command {
  static override summary =
    'Copy a SQLite state into an empty PostgreSQL one, every row, in one transaction.';
  static override description =
    'Moves a single-machine installation to PostgreSQL: accounts, keys (hashes), the usage ledger and its ' +
    'counters, idempotency records and sessions, with their ids. Each table is counted on both sides before ' +
    'the commit; on any failure nothing is written. Stop the servers using the SQLite file first. Exit status: ' +
    '0 copied, 2 usage error, 1 refused (target not empty, schema mismatch) or failed.';
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
    if (!isPostgresUrl(flags.to)) this.error('--to must be a postgres:// URL', { exit: 2 });
    if (isPostgresUrl(flags.from)) this.error('--from must be a SQLite file', { exit: 2 });
    try {
      const report = await copySqliteToPostgres(flags.from, flags.to);
      if (flags.json) {
        this.log(JSON.stringify(report, null, 2));
        return;
      }
      for (const t of report.tables) this.log(`${t.table.padEnd(24)} ${t.rows}`);
      const total = report.tables.reduce((n, t) => n + t.rows, 0);
      this.logToStderr(`copied ${total} rows from ${flags.from} to ${describeState(flags.to)}`);
    } catch (err) {
      const prefix = err instanceof StateTransferError ? '' : 'state migrate failed: ';
      this.error(`${prefix}${(err as Error).message}`, { exit: 1 });
    }
  }
}
