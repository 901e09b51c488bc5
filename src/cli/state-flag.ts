import { Command, Flags } from '@oclif/core';
import { describeState, openStateStore } from '../state/open.js';
import type { StateStore } from '../state/types.js';
import { CliError, EXIT } from './exit-codes.js';

/** The `--state` flag of every command that reads or writes the state: a SQLite file or a PostgreSQL URL. */
export const stateFlag = {
  state: Flags.string({
    char: 's',
    description:
      'state: a SQLite file, or postgres://user@host/db[?schema=name] (default: data/state.sqlite)',
    env: 'HEATSOURCE_STATE',
  }),
};

/** Opens the state a command names, or fails with one line and the "source unreachable" status. */
export async function openCommandState(spec: string | undefined): Promise<StateStore> {
  const chosen = spec?.trim() || undefined;
  try {
    return await openStateStore(chosen);
  } catch (err) {
    throw new CliError(
      `cannot open the state ${describeState(chosen ?? 'data/state.sqlite')}: ${(err as Error).message}`,
      EXIT.unavailable,
    );
  }
}

/** A command over the state (keys, usage, accounts): `--state`, and opening it with a one-line failure. */
export abstract class StateCommand extends Command {
  protected async openState(spec: string | undefined): Promise<StateStore> {
    try {
      return await openCommandState(spec);
    } catch (err) {
      if (err instanceof CliError) this.error(err.message, { exit: err.exit });
      throw err;
    }
  }
}
