import fs from 'node:fs';
import { projectPath } from '../project-path.js';
import { isPostgresUrl } from './location.js';
import type { PgStateOptions } from './pg-store.js';
import { type SqliteStateOptions, SqliteStateStore } from './sqlite-store.js';
import type { StateStore } from './types.js';

/** The state used when neither a flag nor HEATSOURCE_STATE names one. */
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
  // A URL is never a file name: a scheme this function does not open (a misspelt `postgres:/`, `mysql://`)
  // would otherwise become a SQLite file at a relative path while the operator believes the database got it.
  if (/^[a-z][a-z0-9+.-]*:\/\/?[^/\\]/i.test(file) && !/^[a-z]:[\\/]/i.test(file)) {
    throw new StateOpenError(
      `${describeState(file)}: not a state this version opens (a SQLite file path, or a postgres:// URL)`,
    );
  }
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

/** A `--state` value as it may be shown: a URL without its password. */
export function describeState(spec: string): string {
  if (!spec.includes('://')) return spec;
  try {
    const u = new URL(spec);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return `${spec.slice(0, spec.indexOf('://'))}://…`;
  }
}

/**
 * Opens the state store a `--state` value names, the one way every command does it: a `postgres://` or
 * `postgresql://` URL opens PostgreSQL (optional `?schema=` and `?pool_max=` parameters), anything else
 * is the path of a SQLite file. Migrates the schema to this version either way.
 */
export async function openStateStore(
  spec: string = defaultStatePath(),
  options: OpenStateOptions & PgStateOptions = {},
): Promise<StateStore> {
  if (isPostgresUrl(spec)) {
    // The PostgreSQL driver is loaded only for a PostgreSQL state: a SQLite state never needs it.
    const { PgStateStore } = await import('./pg-store.js');
    return PgStateStore.open(spec, options);
  }
  return openState(spec, options);
}
