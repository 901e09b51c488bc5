import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { StateSchemaError } from '../../src/state/migrate.js';
import { MIGRATIONS } from '../../src/state/migrations.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';

const open: SqliteStateStore[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

function tmpFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-state-')), 'state.sqlite');
}

function store(file = ':memory:', now?: () => number): SqliteStateStore {
  const s = new SqliteStateStore(file, now ? { now } : {});
  open.push(s);
  return s;
}

describe('schema', () => {
  it('runs in WAL mode and records every migration', () => {
    const file = tmpFile();
    const s = store(file);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const versions = (
      s.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('bounds its page cache at 2 MiB, not the 16 MB the driver defaults to', () => {
    const s = store(tmpFile());
    expect(s.db.pragma('cache_size', { simple: true })).toBe(-2048);
  });

  it('applies appended migrations on the next open and keeps the data', async () => {
    const file = tmpFile();
    const first = store(file);
    await first.createAccount({ name: 'kept' });
    await first.close();
    const extra = [
      ...MIGRATIONS,
      {
        version: 99,
        name: 'extra',
        sqlite: 'CREATE TABLE extra_things (id INTEGER PRIMARY KEY);',
        postgres: 'CREATE TABLE extra_things (id INTEGER PRIMARY KEY);',
      },
    ];
    const second = new SqliteStateStore(file, { migrations: extra });
    open.push(second);
    expect(await second.accountByName('kept')).toBeDefined();
    expect(
      second.db.prepare("SELECT name FROM sqlite_master WHERE name = 'extra_things'").get(),
    ).toBeDefined();
  });

  it('refuses a database written by a newer version', async () => {
    const file = tmpFile();
    const db = new Database(file);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(1000, 'future', 'x');
    db.close();
    expect(() => new SqliteStateStore(file)).toThrow(StateSchemaError);
  });
});

describe('accounts and keys', () => {
  it('creates keys with the mode prefix, 192 random bits, and stores only a hash', async () => {
    const file = tmpFile();
    const s = store(file);
    const acc = await s.createAccount({ name: 'acme', quota_limit: 10 });
    const live = await s.createKey(acc.id, 'live');
    const test = await s.createKey(acc.id, 'test');
    expect(live.secret).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    expect(test.secret).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect(live.key.prefix).toBe(live.secret.slice(0, 14));
    expect(live.secret).not.toBe(test.secret);
    await s.close();
    const raw =
      fs.readFileSync(file).toString('latin1') +
      (fs.existsSync(`${file}-wal`) ? fs.readFileSync(`${file}-wal`).toString('latin1') : '');
    expect(raw).not.toContain(live.secret.slice(8));
    expect(raw).not.toContain(test.secret.slice(8));
  });
});

describe('a state made by an earlier version', () => {
  // test/state/fixtures/state-v5.sql: `.dump` of a state written by the release whose schema was version 5
  // (two migration lists, one per dialect), with one row or more in every table.
  const OLD_SECRET = 'ak_live_xb1hg0usr6pDgu4WaznemW1de9_F4Bzk';

  it('migrates to this version on open and keeps every row', async () => {
    const file = tmpFile();
    const db = new Database(file);
    db.exec(fs.readFileSync(new URL('./fixtures/state-v5.sql', import.meta.url), 'utf8'));
    db.close();
    // The fixture's own time, so that its idempotency record is still live.
    const s = store(file, () => Date.parse('2026-03-04T06:00:00.000Z'));
    const versions = (
      s.db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
    ).map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version));
    const auth = await s.authenticate(OLD_SECRET);
    expect(auth).toMatchObject({ ok: true, principal: { account: { name: 'fixture-co' } } });
    const account = (await s.accountByName('fixture-co'))!;
    expect((await s.quota(account.id)).used).toBe(1);
    expect(
      await s.beginIdempotent({ scope: auth.ok ? auth.principal.key.id : '', key: 'idem-1' }, 'fp'),
    ).toEqual({ kind: 'replay', status: 200, body: '{"ok":true}' });
    const session = await s.session('ds_old');
    expect(session?.account_id).toBe(account.id);
    expect(JSON.parse(session!.model)).toEqual({ knowledgeVersion: 'old', hypotheses: [] });
    expect((await s.sessions(account.id)).map((x) => x.id)).toEqual(['ds_old']);
  });
});
