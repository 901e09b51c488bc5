import crypto from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL the tests use: HEATSOURCE_TEST_PG, else the local one (trust auth, database `test`). */
export const PG_BASE = process.env.HEATSOURCE_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test';

async function probe(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

const why = await probe();
/** Whether a PostgreSQL answers; the suites that need one skip, saying why, when none does. */
export const hasPg = why === null;
if (!hasPg)
  console.warn(`[skip] PostgreSQL tests: ${PG_BASE} is not reachable (${why}); set HEATSOURCE_TEST_PG`);

/**
 * A schema of its own for one test run, so that runs in parallel (files, machines sharing a database)
 * never see each other's rows; `drop` removes it.
 */
export function pgSchema(label: string): { url: string; schema: string; drop: () => Promise<void> } {
  const schema = `hs_${label}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`.toLowerCase();
  const u = new URL(PG_BASE);
  u.searchParams.set('schema', schema);
  return {
    url: u.toString(),
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_BASE });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
