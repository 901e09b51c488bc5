/**
 * The part of a synchronous SQLite API the bundle reader uses. better-sqlite3 (the server, the CLI)
 * satisfies it as it is; the browser app passes SQLite compiled to WebAssembly behind an adapter
 * (src/app/browser/wasm-sql.ts), so that the same reader and engine code answer in both places.
 */
export interface SqlStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  /** Rows as arrays of values instead of objects. */
  raw(): SqlStatement;
  /** Rows as their first value. */
  pluck(): SqlStatement;
}

export interface SqlDatabase {
  prepare(sql: string): SqlStatement;
  pragma(source: string): unknown;
  function(
    name: string,
    options: { deterministic?: boolean },
    fn: (...args: unknown[]) => string | number | bigint | null,
  ): unknown;
  close(): void;
}
