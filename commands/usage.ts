import { Flags } from '@oclif/core';
import { CliError, EXIT } from '../src/cli/exit-codes.js';
import { StateCommand, stateFlag } from '../src/cli/state-flag.js';
import { formatUsage, usageReport } from '../src/state/admin.js';

export default class Usage extends StateCommand {
  static override summary = 'Show billable usage and quota per account for a month.';
  static override examples = [
    '<%= config.bin %> usage',
    '<%= config.bin %> usage --account acme --period 2026-03 --json',
  ];
  static override flags = {
    account: Flags.string({ char: 'a', description: 'only this account' }),
    period: Flags.string({ description: 'month, YYYY-MM (default: the current one, UTC)' }),
    ...stateFlag,
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Usage);
    if (flags.period && !/^\d{4}-(0[1-9]|1[0-2])$/.test(flags.period)) {
      throw new CliError(`--period must be a month such as 2026-03, not "${flags.period}"`, EXIT.usage);
    }
    const state = await this.openState(flags.state, { mustExist: true });
    try {
      const reports = await usageReport(state, flags.account, flags.period);
      this.log(flags.json ? JSON.stringify(reports, null, 2) : formatUsage(reports));
    } finally {
      await state.close();
    }
  }
}
