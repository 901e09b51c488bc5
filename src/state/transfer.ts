import fs from 'node:fs';
import type pg from 'pg';
import { PgStateStore } from './pg-store.js';
import { SqliteStateStore } from './sqlite-store.js';

/** Tables that describe the schema or hold only short-lived counters: never copied. */
const NOT_COPIED = new Set(['schema_migrations', 'state_changes', 'rate_windows']);
/** Rows per INSERT: well under PostgreSQL's 65 535 parameters for any table here. */
const BATCH = 500;

export class StateTransferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateTransferError';
  }
}

export interface TransferReport {
  tables: { table: string; rows: number }[];
}

/** SQLite tables in an order where every table comes after those its foreign keys name. */
function tablesInOrder(db: SqliteStateStore['db']): string[] {
  const names = (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .all() as { name: string }[]
  )
    .map((r) => r.name)
    .filter((n) => !NOT_COPIED.has(n));
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    for (const fk of db.prepare(`PRAGMA foreign_key_list(${name})`).all() as { table: string }[]) {
      if (fk.table !== name && names.includes(fk.table)) visit(fk.table, path);
    }
    ordered.push(name);
  };
  for (const n of names) visit(n, new Set());
  return ordered;
}

/**
 * Copies every row of a SQLite state into an empty PostgreSQL one, in one PostgreSQL transaction:
 * either all rows arrive, with their ids, and each table's count is checked against the source before
 * the commit, or nothing is written. Both sides are first migrated to this version's schema, so that
 * their tables match column for column.
 */
export async function copySqliteToPostgres(from: string, to: string): Promise<TransferReport> {
  if (!fs.existsSync(from)) throw new StateTransferError(`no SQLite state at ${from}`);
  const source = new SqliteStateStore(from);
  let target: PgStateStore | undefined;
  try {
    target = await PgStateStore.open(to);
    const tables = tablesInOrder(source.db);
    const client = await target.pool.connect();
    try {
      await client.query('BEGIN');
      const report = await copyTables(source, client, target.schema, tables);
      await client.query('COMMIT');
      return report;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  } finally {
    await source.close();
    await target?.close();
  }
}

async function copyTables(
  source: SqliteStateStore,
  client: pg.PoolClient,
  schema: string,
  tables: string[],
): Promise<TransferReport> {
  // Nobody else writes the target while the rows arrive: a server started early would see half a state.
  await client.query(`LOCK TABLE ${tables.join(', ')} IN EXCLUSIVE MODE`).catch((err: Error) => {
    throw new StateTransferError(`the PostgreSQL state lacks a table of the SQLite one: ${err.message}`);
  });
  const report: TransferReport = { tables: [] };
  for (const table of tables) {
    const existing = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    if (existing.rows[0]!.n > 0) {
      throw new StateTransferError(
        `the PostgreSQL state is not empty (${table} has ${existing.rows[0]!.n} rows); migrate into a new database or schema`,
      );
    }
  }
  for (const table of tables) {
    const targetColumns = new Set(
      (
        await client.query<{ column_name: string }>(
          'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
          [schema, table],
        )
      ).rows.map((r) => r.column_name),
    );
    const columns = (source.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
      (c) => c.name,
    );
    const missing = columns.filter((c) => !targetColumns.has(c));
    if (missing.length > 0) {
      throw new StateTransferError(`the PostgreSQL table ${table} lacks column(s) ${missing.join(', ')}`);
    }
    // Sessions list in insertion order among equal timestamps: their SQLite rowid becomes the sequence.
    const withSeq = targetColumns.has('seq') && !columns.includes('seq');
    const selected = withSeq ? [...columns, 'seq'] : columns;
    const select = source.db.prepare(
      `SELECT ${columns.join(', ')}${withSeq ? ', rowid AS seq' : ''} FROM ${table} ORDER BY rowid`,
    );
    let batch: unknown[][] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const values: unknown[] = [];
      const tuples = batch.map((row) => {
        const marks = row.map((v) => {
          values.push(v);
          return `$${values.length}`;
        });
        return `(${marks.join(', ')})`;
      });
      await client.query(
        `INSERT INTO ${table} (${selected.join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${tuples.join(', ')}`,
        values,
      );

      batch = [];
    };
    for (const row of select.raw().iterate() as Iterable<unknown[]>) {
      batch.push(row);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    // Identity columns continue after the highest id copied.
    for (const column of ['id', 'seq'].filter((c) => targetColumns.has(c))) {
      const seq = await client.query<{ s: string | null }>('SELECT pg_get_serial_sequence($1, $2) AS s', [
        `${schema}.${table}`,
        column,
      ]);
      const name = seq.rows[0]?.s;
      if (name) {
        await client.query(
          `SELECT setval($1, coalesce((SELECT max(${column}) FROM ${table}), 0) + 1, false)`,
          [name],
        );
      }
    }
    const copied = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0]!.n;
    const expected = (source.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    if (copied !== expected) {
      throw new StateTransferError(`${table}: ${copied} rows arrived of ${expected}; nothing was written`);
    }
    report.tables.push({ table, rows: copied });
  }
  return report;
}
