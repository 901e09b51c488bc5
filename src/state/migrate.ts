import type Database from 'better-sqlite3';
import type pg from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

export class StateSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateSchemaError';
  }
}

const SCHEMA_MIGRATIONS =
  'schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)';

/** The entries a database lacks, in order; refuses a database that has a version this list lacks. */
function pending(migrations: Migration[], applied: Set<number>): Migration[] {
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new StateSchemaError(
      `the state database has schema version ${Math.max(...unknown)}, newer than this heatsource knows; upgrade heatsource`,
    );
  }
  return [...migrations].sort((a, b) => a.version - b.version).filter((m) => !applied.has(m.version));
}

/** Applies the migrations a SQLite database lacks, each in its own transaction; returns the versions applied. */
export function migrateSqlite(db: Database.Database, migrations: Migration[] = MIGRATIONS): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS ${SCHEMA_MIGRATIONS}`);
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const record = db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)');
  const done: number[] = [];
  for (const m of pending(migrations, applied)) {
    db.transaction(() => {
      db.exec(m.sqlite);
      record.run(m.version, m.name, new Date().toISOString());
    })();
    done.push(m.version);
  }
  return done;
}

/** A schema name given in a `?schema=` parameter: plain identifiers only, since it is spliced into SQL. */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`schema "${schema}" must be a lower-case identifier (letters, digits, _)`);
  }
  return schema;
}

/**
 * Applies the migrations a PostgreSQL schema lacks, all under one transaction-scoped advisory lock, so
 * that replicas starting together migrate once and the others wait and then find nothing to do.
 */
export async function migratePostgres(
  client: pg.ClientBase,
  schema: string,
  migrations: Migration[] = MIGRATIONS,
): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`heatsource:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.${SCHEMA_MIGRATIONS}`);
    const applied = new Set(
      (await client.query<{ version: number }>(`SELECT version FROM ${schema}.schema_migrations`)).rows.map(
        (r) => r.version,
      ),
    );
    const done: number[] = [];
    for (const m of pending(migrations, applied)) {
      await client.query(m.postgres);
      await client.query(`INSERT INTO ${schema}.schema_migrations VALUES ($1, $2, $3)`, [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
      done.push(m.version);
    }
    await client.query('COMMIT');
    return done;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  }
}
