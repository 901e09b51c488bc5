import { Flags } from '@oclif/core';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { createKeyFor } from '../../src/state/admin.js';
import { defaultStatePath, openState } from '../../src/state/open.js';

export default class KeysCreate extends HeatsourceCommand {
  static override summary = 'Create an API key (shown once; only its hash is stored).';
  static override description =
    'Creates a key for an account, and the account when it does not exist. --quota sets the billable ' +
    'units per calendar month of the account (omit for unlimited); --rate-limit its requests per minute per key.';
  static override examples = [
    '<%= config.bin %> keys create --account acme --mode live --quota 10000',
    '<%= config.bin %> keys create --account ci --mode test --json',
  ];
  static override flags = {
    account: Flags.string({ char: 'a', description: 'account name', default: 'default' }),
    mode: Flags.string({ char: 'm', description: 'key mode', options: ['live', 'test'], default: 'live' }),
    quota: Flags.integer({ description: 'billable units per month for the account', min: 0 }),
    'rate-limit': Flags.integer({
      description: 'requests per minute per key for the account (0: unlimited)',
      min: 0,
    }),
    label: Flags.string({ description: 'a note kept with the key' }),
    state: Flags.string({ char: 's', description: 'state database' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysCreate);
    const state = openState(flags.state ?? defaultStatePath());
    try {
      const rate = flags['rate-limit'];
      const report = await createKeyFor(state, {
        account: flags.account,
        mode: flags.mode as 'live' | 'test',
        ...(flags.quota !== undefined ? { quota: flags.quota } : {}),
        ...(rate !== undefined ? { rateLimit: rate === 0 ? null : rate } : {}),
        label: flags.label ?? null,
      });
      if (flags.json) {
        this.log(
          JSON.stringify(
            {
              key: report.secret,
              id: report.key.id,
              prefix: report.key.prefix,
              mode: report.key.mode,
              account: { id: report.account.id, name: report.account.name, created: report.account_created },
              quota: report.account.quota_limit,
              rate_limit_per_minute: report.account.rate_limit_per_minute,
            },
            null,
            2,
          ),
        );
      } else {
        this.log(report.secret);
        this.logToStderr(
          `key ${report.key.id} (${report.key.mode}) for account "${report.account.name}"` +
            `${report.account_created ? ' (new)' : ''}; quota ${report.account.quota_limit ?? 'unlimited'}/month. ` +
            'Store it now: it is not shown again.',
        );
      }
    } finally {
      await state.close();
    }
  }
}
