import type { Database, PreparedStatement, Sqlite3Static, SqlValue } from '@sqlite.org/sqlite-wasm';
import type { SqlDatabase, SqlStatement } from '../bundle/sql.js';

type RowMode = 'object' | 'array' | 'first';

/**
 * An offline pack opened in SQLite compiled to WebAssembly (the official @sqlite.org/sqlite-wasm build,
 * FTS5 included): the file's bytes are copied into an in-memory database (sqlite3_deserialize), which
 * the oo1 API then queries synchronously, as better-sqlite3 does on the server.
 */
export function openPackBytes(sqlite3: Sqlite3Static, bytes: Uint8Array): Database {
  const db = new sqlite3.oo1.DB(':memory:', 'c');
  const pointer = sqlite3.wasm.allocFromTypedArray(bytes);
  const { capi } = sqlite3;
  const rc = capi.sqlite3_deserialize(
    db.pointer!,
    'main',
    pointer,
    bytes.byteLength,
    bytes.byteLength,
    capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_READONLY,
  );
  db.checkRc(rc);
  return db;
}

/**
 * The better-sqlite3 calls the bundle reader makes (SqlDatabase), on an oo1 database. Written here
 * because the two APIs differ in small ways the reader relies on: positional parameters as arguments,
 * named ones as an object whose keys carry no prefix, `raw()` and `pluck()` row shapes.
 */
export class WasmSqlDatabase implements SqlDatabase {
  private readonly statements = new Set<PreparedStatement>();

  constructor(readonly db: Database) {}

  prepare(sql: string): SqlStatement {
    return new WasmStatement(this, sql, 'object');
  }

  /** Prepared once per SQL text and row mode, and reused: the reader prepares its statements once too. */
  compiled(sql: string): PreparedStatement {
    const stmt = this.db.prepare(sql);
    this.statements.add(stmt);
    return stmt;
  }

  pragma(source: string): unknown {
    return this.db.selectValue(`PRAGMA ${source}`) ?? null;
  }

  function(
    name: string,
    options: { deterministic?: boolean },
    fn: (...args: unknown[]) => string | number | bigint | null,
  ): unknown {
    this.db.createFunction(name, (_ctx: number, ...args: SqlValue[]) => fn(...args), {
      arity: fn.length,
      deterministic: options.deterministic ?? false,
    });
    return this;
  }

  close(): void {
    for (const stmt of this.statements) stmt.finalize();
    this.statements.clear();
    this.db.close();
  }
}

class WasmStatement implements SqlStatement {
  private stmt: PreparedStatement | undefined;

  constructor(
    private readonly owner: WasmSqlDatabase,
    private readonly sql: string,
    private readonly mode: RowMode,
  ) {
    // Compiled at once, as better-sqlite3 does, so that a missing table fails where the reader expects.
    this.stmt = owner.compiled(sql);
  }

  raw(): SqlStatement {
    return new WasmStatement(this.owner, this.sql, 'array');
  }

  pluck(): SqlStatement {
    return new WasmStatement(this.owner, this.sql, 'first');
  }

  all(...params: unknown[]): unknown[] {
    const stmt = this.bound(params);
    const rows: unknown[] = [];
    try {
      while (stmt.step()) rows.push(this.row(stmt));
    } finally {
      stmt.reset(true);
    }
    return rows;
  }

  get(...params: unknown[]): unknown {
    const stmt = this.bound(params);
    try {
      return stmt.step() ? this.row(stmt) : undefined;
    } finally {
      stmt.reset(true);
    }
  }

  private row(stmt: PreparedStatement): unknown {
    if (this.mode === 'first') return stmt.get(0);
    if (this.mode === 'array') return stmt.get([]);
    return stmt.get({});
  }

  private bound(params: unknown[]): PreparedStatement {
    const stmt = this.stmt!;
    if (params.length === 0) return stmt;
    const first = params[0];
    if (params.length === 1 && first !== null && typeof first === 'object' && !ArrayBuffer.isView(first)) {
      // better-sqlite3 takes `{ term }` for `@term` (or `:term`, `$term`).
      const named: Record<string, SqlValue> = {};
      for (const [key, value] of Object.entries(first as Record<string, unknown>)) {
        const name = ['@', ':', '$'].map((p) => p + key).find((n) => stmt.getParamIndex(n));
        if (name) named[name] = value as SqlValue;
      }
      stmt.bind(named);
    } else {
      stmt.bind(params as SqlValue[]);
    }
    return stmt;
  }
}
