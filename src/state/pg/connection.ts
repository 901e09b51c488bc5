import pg from 'pg';
import { checkSchemaName } from '../migrate.js';

/** BIGINT columns (epoch milliseconds, ledger ids, sums) as numbers: every value here fits in 2^53. */
export const TYPES = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20 || oid === 1700
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Where a `postgres://` state URL points, with heatsource's own parameters taken out of it. */
export function parseStateUrl(url: string): { connectionString: string; schema: string; poolMax: number } {
  const u = new URL(url);
  const schema = checkSchemaName(u.searchParams.get('schema') ?? 'public');
  const poolMax = Number(u.searchParams.get('pool_max') ?? 10);
  if (!Number.isInteger(poolMax) || poolMax < 1) throw new Error('pool_max must be a positive integer');
  u.searchParams.delete('schema');
  u.searchParams.delete('pool_max');
  return { connectionString: u.toString(), schema, poolMax };
}

/** Runs `run` in a transaction on a connection of its own; a connection whose rollback failed is dropped. */
export type Transaction = <T>(run: (c: pg.PoolClient) => Promise<T>) => Promise<T>;

export function transactionOn(pool: pg.Pool): Transaction {
  return async (run) => {
    const c = await pool.connect();
    let broken: Error | undefined;
    try {
      await c.query('BEGIN');
      const result = await run(c);
      await c.query('COMMIT');
      return result;
    } catch (err) {
      await c.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw err;
    } finally {
      c.release(broken);
    }
  };
}
