import { Args, Flags } from '@oclif/core';
import { HeatsourceCommand } from '../../src/cli/base-command.js';
import { CliError, EXIT } from '../../src/cli/exit-codes.js';
import { defaultStatePath, openState } from '../../src/state/open.js';

export default class KeysRevoke extends HeatsourceCommand {
  static override summary = 'Revoke an API key by id or prefix; it is refused from then on.';
  static override description =
    'A server using the same state refuses the key at once when it revoked it itself, and within 5 seconds ' +
    'when another process (this command) did.';
  static override examples = [
    '<%= config.bin %> keys revoke key_3fA9xQ',
    '<%= config.bin %> keys revoke ak_live_Xy12ab',
  ];
  static override args = {
    key: Args.string({ description: 'key id (key_…) or prefix (ak_live_……)', required: true }),
  };
  static override flags = {
    state: Flags.string({ char: 's', description: 'state database' }),
    json: Flags.boolean({ description: 'print JSON', default: false }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(KeysRevoke);
    const state = openState(flags.state ?? defaultStatePath(), { mustExist: true });
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
