/**
 * What the app keeps in the browser: offline packs (IndexedDB, as bytes with what the server said about
 * them) and guided sessions started offline that still have to reach the server. IndexedDB rather than
 * OPFS: the pack is read whole into SQLite's memory anyway, and IndexedDB is there in every browser and
 * in a page's main thread.
 */
export interface StoredPack {
  /** The selection it was asked for: `brands=…`. */
  key: string;
  brands: string[];
  bytes: Uint8Array;
  etag: string | null;
  /** The bundle's build date, from the pack. */
  built_at: string;
  bundle_version: string;
  documents: number;
  /** When the app last fetched or confirmed it (ISO 8601). */
  checked_at: string;
}

export interface PendingSession {
  /** The Idempotency-Key the session is created with: one charge however often it is sent. */
  key: string;
  /** The id the session has in the app (the server gives its own). */
  local_id: string;
  request: Record<string, unknown>;
  /** The answers given, in order, as POST …/responses bodies. */
  responses: Record<string, unknown>[];
  closed: boolean;
  created_at: string;
  /** Set once the server holds it; then how many answers, and whether the close, it has. */
  server_id: string | null;
  synced_responses: number;
  synced_close: boolean;
  sync_error: string | null;
}

const DB_NAME = 'heatsource-field';
const PACKS = 'packs';
const SESSIONS = 'sessions';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(PACKS, { keyPath: 'key' });
      req.result.createObjectStore(SESSIONS, { keyPath: 'key' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function run<T>(
  store: string,
  mode: IDBTransactionMode,
  op: (s: IDBObjectStore) => IDBRequest,
): Promise<T> {
  const db = await open();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(store, mode);
      const req = op(tx.objectStore(store));
      tx.oncomplete = () => resolve(req.result as T);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

export const packStore = {
  all: () => run<StoredPack[]>(PACKS, 'readonly', (s) => s.getAll()),
  put: (pack: StoredPack) => run<void>(PACKS, 'readwrite', (s) => s.put(pack)),
  remove: (key: string) => run<void>(PACKS, 'readwrite', (s) => s.delete(key)),
};

export const sessionStore = {
  all: () => run<PendingSession[]>(SESSIONS, 'readonly', (s) => s.getAll()),
  put: (session: PendingSession) => run<void>(SESSIONS, 'readwrite', (s) => s.put(session)),
};
