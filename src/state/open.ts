import { projectPath } from '../project-path.js';
import { isPostgresUrl, type PgStateOptions, PgStateStore } from './pg-store.js';
import { type SqliteStateOptions, SqliteStateStore } from './sqlite-store.js';
import type { StateStore } from './types.js';

/** The state used when neither a flag nor HEATSOURCE_STATE names one. */
export function defaultStatePath(): string {
  return process.env.HEATSOURCE_STATE || projectPath('data', 'state.sqlite');
}

/** A `--state` value as it may be shown: a URL without its password. */
export function describeState(spec: string): string {
  if (!isPostgresUrl(spec)) return spec;
  try {
    const u = new URL(spec);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/**
 * Opens the state store a `--state` value names, the one way every command does it: a `postgres://` or
 * `postgresql://` URL opens PostgreSQL (optional `?schema=` and `?pool_max=` parameters), anything else
 * is the path of a SQLite file. Migrates the schema to this version either way.
 */
export async function openStateStore(
  spec: string = defaultStatePath(),
  options: SqliteStateOptions & PgStateOptions = {},
): Promise<StateStore> {
  if (isPostgresUrl(spec)) return PgStateStore.open(spec, options);
  return new SqliteStateStore(spec, options);
}
