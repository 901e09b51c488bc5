import fs from 'node:fs';
import { projectPath } from '../project-path.js';
import { type SqliteStateOptions, SqliteStateStore } from './sqlite-store.js';

/** The state file used when neither a flag nor HEATSOURCE_STATE names one. */
export function defaultStatePath(): string {
  return process.env.HEATSOURCE_STATE || projectPath('data', 'state.sqlite');
}

/** A state database that cannot be opened: missing where it must exist, or not a state database. */
export class StateOpenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateOpenError';
  }
}

export interface OpenStateOptions extends SqliteStateOptions {
  /**
   * Refuse a file that does not exist instead of creating an empty database: commands that only read
   * or change existing state (listing keys, revoking one, usage) must not mistake a typo for a new file.
   */
  mustExist?: boolean;
}

export function openState(
  file: string = defaultStatePath(),
  options: OpenStateOptions = {},
): SqliteStateStore {
  const { mustExist, ...storeOptions } = options;
  if (mustExist && file !== ':memory:' && !fs.existsSync(file)) {
    throw new StateOpenError(
      `${file}: no such state database (\`heatsource serve\` or \`heatsource keys create\` makes one)`,
    );
  }
  try {
    return new SqliteStateStore(file, storeOptions);
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new StateOpenError(`${file}: not a heatsource state database (${(err as Error).message})`);
    }
    if (code.startsWith('SQLITE_') || code.startsWith('E')) {
      throw new StateOpenError(`${file}: cannot open the state database (${(err as Error).message})`);
    }
    throw err;
  }
}
