import { Flags } from '@oclif/core';
import { StateCommand, stateFlag } from '../../src/cli/state-flag.js';
import { formatKeys, listKeys } from '../../src/state/admin.js';

export default class KeysList extends StateCommand {
  static override summary = 'List API keys (prefix only, never the key).';
  static override examples = [
    '<%= config.bin %> keys list',
    '<%= config.bin %> keys list --account acme --json',
  ];
  static override flags = {
    account: Flags.string({ char: 'a', description: 'only this account' }),
    ...stateFlag,
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    const state = await this.openState(flags.state, { mustExist: true });
    try {
      const keys = await listKeys(state, flags.account);
      this.log(flags.json ? JSON.stringify(keys, null, 2) : formatKeys(keys));
    } finally {
      await state.close();
    }
  }
}
