import { Flags } from '@oclif/core';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { formatKeys, listKeys } from '../../src/state/admin.js';
import { defaultStatePath, openState } from '../../src/state/open.js';

export default class KeysList extends HeatsourceCommand {
  static override summary = 'List API keys (prefix only, never the key).';
  static override examples = [
    '<%= config.bin %> keys list',
    '<%= config.bin %> keys list --account acme --json',
  ];
  static override flags = {
    account: Flags.string({ char: 'a', description: 'only this account' }),
    state: Flags.string({ char: 's', description: 'state database' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    const state = openState(flags.state ?? defaultStatePath(), { mustExist: true });
    try {
      const keys = await listKeys(state, flags.account);
      this.log(flags.json ? JSON.stringify(keys, null, 2) : formatKeys(keys));
    } finally {
      await state.close();
    }
  }
}
