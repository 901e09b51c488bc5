import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The state schema as an ordered list: a database records which versions it has, and opening it applies
 * the rest in order. Append new entries with the next version; never edit one that has shipped.
 */
export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, usage, idempotency',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        quota_limit INTEGER,
        quota_period TEXT NOT NULL DEFAULT 'month',
        rate_limit_per_minute INTEGER,
        created_at TEXT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        prefix TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        mode TEXT NOT NULL CHECK (mode IN ('live', 'test')),
        label TEXT,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        last_used_at TEXT
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE INDEX api_keys_prefix ON api_keys(prefix);
      CREATE TABLE usage_ledger (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        key_id TEXT,
        operation TEXT NOT NULL,
        units INTEGER NOT NULL,
        period TEXT NOT NULL,
        request_id TEXT NOT NULL,
        idempotency_key TEXT,
        created_at TEXT NOT NULL
      );
      -- The ledger is append-only and unindexed, so that a charge writes as few pages as possible;
      -- quota checks and usage reports read the counters.
      CREATE TABLE usage_counters (
        account_id TEXT NOT NULL REFERENCES accounts(id),
        period TEXT NOT NULL,
        operation TEXT NOT NULL,
        used INTEGER NOT NULL,
        PRIMARY KEY (account_id, period, operation)
      );
      CREATE TABLE idempotency_records (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
        response_status INTEGER,
        response_body TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX idempotency_expiry ON idempotency_records(expires_at);
    `,
  },
  {
    version: 2,
    name: 'guided troubleshooting sessions',
    sql: `
      -- A session's compiled model never changes after creation and is written once; each response
      -- rewrites only the small state, under an optimistic version check.
      CREATE TABLE diagnostic_sessions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        status TEXT NOT NULL,
        equipment TEXT NOT NULL,
        version INTEGER NOT NULL,
        model TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE INDEX diagnostic_sessions_account ON diagnostic_sessions(account_id, updated_at);
    `,
  },
  {
    version: 3,
    name: 'account holders, invitations, console sessions, sign-in throttling',
    sql: `
      -- Tokens (invitations, sessions) are stored as SHA-256 hashes: a copy of this file lets no one in.
      CREATE TABLE account_holders (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX account_holders_account ON account_holders(account_id);
      CREATE TABLE invitations (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        email TEXT NOT NULL,
        token_hash BLOB NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
      CREATE TABLE console_sessions (
        token_hash BLOB PRIMARY KEY,
        holder_id TEXT NOT NULL REFERENCES account_holders(id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE INDEX console_sessions_holder ON console_sessions(holder_id);
      CREATE TABLE sign_in_failures (
        scope TEXT NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX sign_in_failures_scope ON sign_in_failures(scope, at);
    `,
  },
  {
    version: 4,
    name: 'the process holding an in-flight idempotency record',
    sql: `
      -- Named so that a server starting after a crash can release the keys its dead predecessor held.
      ALTER TABLE idempotency_records ADD COLUMN owner TEXT;
    `,
  },
  {
    version: 5,
    name: 'change stamps and shared rate-limit windows',
    sql: `
      -- Bumped by every revocation or account change, and polled by every process sharing the file, so
      -- that a revocation made elsewhere clears their cached authentications within a poll.
      CREATE TABLE state_changes (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        stamp INTEGER NOT NULL
      );
      INSERT INTO state_changes VALUES (1, 0);
      CREATE TABLE rate_windows (
        key TEXT PRIMARY KEY,
        window_start INTEGER NOT NULL,
        count INTEGER NOT NULL
      );
    `,
  },
];

export class StateSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateSchemaError';
  }
}

/** Applies the migrations the database lacks, each in its own transaction; returns the versions applied. */
export function migrate(db: Database.Database, migrations: Migration[] = MIGRATIONS): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const known = new Set(migrations.map((m) => m.version));
  const unknown = [...applied].filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new StateSchemaError(
      `the state database has schema version ${Math.max(...unknown)}, newer than this heatsource knows; upgrade heatsource`,
    );
  }
  const done: number[] = [];
  const record = db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)');
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name, new Date().toISOString());
    })();
    done.push(m.version);
  }
  return done;
}
