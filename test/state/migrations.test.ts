import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { StateSchemaError } from '../../src/state/migrate.js';
import { MIGRATIONS } from '../../src/state/migrations.js';
import { PgStateStore } from '../../src/state/pg-store.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { hasPg, PG_BASE, pgSchema } from '../helpers/pg.js';

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops.splice(0)) await drop();
});

/** Table -> sorted column names, as SQLite holds them after every migration. */
function sqliteColumns(): Record<string, string[]> {
  const s = new SqliteStateStore(':memory:');
  try {
    const tables = (
      s.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    return Object.fromEntries(
      tables.map((t) => [
        t,
        (s.db.prepare(`PRAGMA table_info(${t})`).all() as { name: string }[]).map((c) => c.name).sort(),
      ]),
    );
  } finally {
    void s.close();
  }
}

describe('the one migration list', () => {
  it('has increasing versions, each entry in both dialects', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    for (const m of MIGRATIONS) {
      expect(m.sqlite.trim().length, `version ${m.version} in SQLite`).toBeGreaterThan(0);
      expect(m.postgres.trim().length, `version ${m.version} in PostgreSQL`).toBeGreaterThan(0);
    }
  });

  it.skipIf(!hasPg)(
    'applies on a fresh PostgreSQL schema, making the tables and columns SQLite has',
    async () => {
      const { url, schema, drop } = pgSchema('migrations');
      drops.push(drop);
      const store = await PgStateStore.open(url, { poolMax: 1 });
      try {
        const versions = (
          await store.pool.query<{ version: number }>(
            'SELECT version FROM schema_migrations ORDER BY version',
          )
        ).rows.map((r) => r.version);
        expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
        const { rows } = await store.pool.query<{ table_name: string; column_name: string }>(
          'SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = $1',
          [schema],
        );
        const pgTables: Record<string, string[]> = {};
        for (const r of rows) pgTables[r.table_name] = [...(pgTables[r.table_name] ?? []), r.column_name];
        for (const t of Object.keys(pgTables)) pgTables[t]!.sort();
        // PostgreSQL keeps an insertion sequence where SQLite has its rowid.
        const expected = sqliteColumns();
        if (pgTables.diagnostic_sessions) {
          pgTables.diagnostic_sessions = pgTables.diagnostic_sessions.filter((c) => c !== 'seq');
        }
        expect(pgTables).toEqual(expected);
        // Opening again finds nothing to do.
        const again = await PgStateStore.open(url, { poolMax: 1 });
        await again.close();
      } finally {
        await store.close();
      }
    },
  );

  it.skipIf(!hasPg)('refuses a PostgreSQL schema written by a newer version', async () => {
    const { url, schema, drop } = pgSchema('newer');
    drops.push(drop);
    const client = new pg.Client({ connectionString: PG_BASE });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA ${schema}`);
      await client.query(
        `CREATE TABLE ${schema}.schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`,
      );
      await client.query(`INSERT INTO ${schema}.schema_migrations VALUES (1000, 'future', 'x')`);
    } finally {
      await client.end();
    }
    await expect(PgStateStore.open(url, { poolMax: 1 })).rejects.toBeInstanceOf(StateSchemaError);
  });
});
