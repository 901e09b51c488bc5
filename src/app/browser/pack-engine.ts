// The engine and SQLite's WebAssembly build, loaded on first use (a separate chunk of the browser build):
// the app's page needs neither until it opens a pack, so its first load parses only its own small script.
import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { OfflineEngine } from '../offline-engine.js';
import { openPackBytes, WasmSqlDatabase } from '../wasm-sql.js';

let sqlite: Promise<Sqlite3Static> | null = null;

/** Opens a pack's bytes in SQLite/WebAssembly and the engine over it. */
export async function openPack(bytes: Uint8Array, name: string): Promise<OfflineEngine> {
  sqlite ??= sqlite3InitModule();
  return new OfflineEngine(new WasmSqlDatabase(openPackBytes(await sqlite, bytes)), name);
}
