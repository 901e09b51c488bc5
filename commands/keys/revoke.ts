import { Args, Flags } from '@oclif/core';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { StateCommand, stateFlag } from '../../src/cli/state-flag.js';

export default class KeysRevoke extends StateCommand {
  static override summary = 'Revoke an API key by id or prefix; it is refused from then on.';
  static override description =
    'Every server using the same state, SQLite file or PostgreSQL database, refuses the key within a second ' +
    '(PostgreSQL notifies them; processes sharing a SQLite file poll a change stamp).';
  static override examples = [
    '<%= config.bin %> keys revoke key_3fA9xQ',
    '<%= config.bin %> keys revoke ak_live_Xy12ab',
  ];
  static override args = {
    key: Args.string({ description: 'key id (key_…) or prefix (ak_live_……)', required: true }),
  };
  static override flags = {
    ...stateFlag,
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KeysRevoke);
    const state = await this.openState(flags.state, { mustExist: true });
    try {
      const key = await state.revokeKey(args.key.replace(/…$/, ''));
      if (!key) throw new CliError(`no key matches "${args.key}"`, EXIT.notFound);
      this.log(
        flags.json ? JSON.stringify(key, null, 2) : `revoked ${key.id} (${key.prefix}…) at ${key.revoked_at}`,
      );
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('prefix '))
        throw new CliError(err.message, EXIT.usage);
      throw err;
    } finally {
      await state.close();
    }
  }
}
