import { Flags } from '@oclif/core';
import { describeState, openStateStore } from '../state/open.js';
import type { StateStore } from '../state/types.js';
import { HeatsourceCommand } from './base-command.js';
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

/**
 * Opens the state a command names, or fails with one line and the "source unavailable" status. With
 * `mustExist`, a SQLite file that does not exist is refused rather than created (a typo is not a new
 * installation).
 */
export async function openCommandState(
  spec: string | undefined,
  options: { mustExist?: boolean } = {},
): Promise<StateStore> {
  const chosen = spec?.trim() || undefined;
  try {
    return await openStateStore(chosen, options);
  } catch (err) {
    // A file at fault is named by the error itself (StateOpenError); a server is named here, without
    // its password.
    if (err instanceof Error && err.name === 'StateOpenError')
      throw new CliError(err.message, EXIT.unavailable);
    throw new CliError(
      `cannot open the state ${describeState(chosen ?? 'data/state.sqlite')}: ${(err as Error).message}`,
      EXIT.unavailable,
    );
  }
}

/** A command over the state (keys, usage, accounts): `--state`, and opening it with a one-line failure. */
export abstract class StateCommand extends HeatsourceCommand {
  protected openState(spec: string | undefined, options: { mustExist?: boolean } = {}): Promise<StateStore> {
    return openCommandState(spec, options);
  }
}
