import { projectPath } from '../project-path.js';
import { type SqliteStateOptions, SqliteStateStore } from './sqlite-store.js';

/** The state file used when neither a flag nor HEATSOURCE_STATE names one. */
export function defaultStatePath(): string {
  return process.env.HEATSOURCE_STATE || projectPath('data', 'state.sqlite');
}

export function openState(file: string = defaultStatePath(), options?: SqliteStateOptions): SqliteStateStore {
  return new SqliteStateStore(file, options);
}
