import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/serve/server.js';
import { tokenHash } from '../../src/state/invitations.js';
import { PgStateStore } from '../../src/state/pg-store.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { hasPg, pgSchema } from '../helpers/pg.js';
import { demoBundle } from '../mcp/harness.js';
import { ensureBuiltOnce } from '../sessions-api/built.js';

const drops: (() => Promise<void>)[] = [];
beforeAll(async () => {
  if (hasPg) await ensureBuiltOnce();
}, 300_000);
afterAll(async () => {
  for (const d of drops) await d();
});

function schema(label: string): string {
  const s = pgSchema(label);
  drops.push(s.drop);
  return s.url;
}

describe.skipIf(!hasPg)('the state commands on PostgreSQL', () => {
  it('create, list and revoke keys and report usage through --state and HEATSOURCE_STATE', async () => {
    const url = schema('cli');
    const created = runCli(['keys', 'create', '--account', 'acme', '--quota', '7', '--json', '--state', url]);
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { key: string; id: string; account: { name: string } };
    expect(key.account.name).toBe('acme');
    const listed = runCli(['keys', 'list', '--json'], { HEATSOURCE_STATE: url });
    expect(listed.status, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((k) => k.id)).toEqual([key.id]);
    const usage = runCli(['usage', '--json', '--state', url]);
    expect(JSON.parse(usage.stdout)[0].quota).toMatchObject({ limit: 7, used: 0 });
    const revoked = runCli(['keys', 'revoke', key.id, '--state', url]);
    expect(revoked.status, revoked.stderr).toBe(0);
    const store = await PgStateStore.open(url);
    try {
      expect(await store.authenticate(key.key)).toEqual({ ok: false, reason: 'revoked' });
    } finally {
      await store.close();
    }
  });

  it('invite a holder into PostgreSQL, whose server then opens the link', async () => {
    const url = schema('invite');
    const byFlag = runCli([
      'accounts',
      'invite',
      '--account',
      'acme',
      '--email',
      'a@acme.example',
      '--json',
      '--state',
      url,
    ]);
    expect(byFlag.status, byFlag.stderr).toBe(0);
    const byEnv = runCli(['accounts', 'invite', '--account', 'acme', '--email', 'b@acme.example', '--json'], {
      HEATSOURCE_STATE: url,
    });
    expect(byEnv.status, byEnv.stderr).toBe(0);
    // Nothing was written as a file named after the URL.
    expect(fs.existsSync(path.join(ROOT, 'postgres:'))).toBe(false);
    const links = [byFlag, byEnv].map((r) => (JSON.parse(r.stdout) as { url: string }).url);
    const store = await PgStateStore.open(url);
    try {
      for (const link of links) {
        const token = new URL(link).searchParams.get('token')!;
        expect(await store.accountHolders.openInvitation(tokenHash(token))).toBeTruthy();
      }
    } finally {
      await store.close();
    }
    const { bundle, dispose } = await demoBundle();
    const server = await startServer(
      {
        bundle,
        state: url,
        host: '127.0.0.1',
        port: 0,
        auth: true,
        logLevel: 'silent',
        surfaces: { fieldApp: false },
      },
      () => {},
    );
    try {
      for (const link of links) {
        const u = new URL(link);
        const res = await fetch(`${server.url}${u.pathname}${u.search}`);
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('acme');
      }
    } finally {
      await server.close();
      dispose();
    }
  }, 120_000);

  it('fail with one line and status 4 when the database is unreachable', () => {
    const r = runCli(['keys', 'list', '--state', 'postgres://nobody@127.0.0.1:1/none']);
    expect(r.status).toBe(4);
    expect(r.stderr).toMatch(/cannot open the state postgres:\/\/nobody@127\.0\.0\.1:1\/none/);
  });
});

describe.skipIf(!hasPg)('state migrate', () => {
  it('moves every row of a SQLite state to PostgreSQL, and refuses a target that is not empty', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-migrate-')), 'state.sqlite');
    const sqlite = new SqliteStateStore(file);
    const acme = await sqlite.createAccount({ name: 'acme', quota_limit: 5000 });
    const other = await sqlite.createAccount({ name: 'other', rate_limit_per_minute: null });
    const { key, secret } = await sqlite.createKey(acme.id, 'live', 'prod');
    const { key: gone } = await sqlite.createKey(other.id, 'test');
    await sqlite.revokeKey(gone.id);
    const ref = { scope: `key:${key.id}`, key: 'idem-1' };
    await sqlite.beginIdempotent(ref, 'fp');
    // More rows than one INSERT batch carries.
    for (let i = 0; i < 1203; i++) {
      await sqlite.complete({
        charge: {
          account_id: i % 3 ? acme.id : other.id,
          key_id: key.id,
          operation: i % 2 ? 'diagnose' : 'search',
          request_id: `req-${i}`,
          idempotency_key: i === 0 ? 'idem-1' : null,
        },
        ...(i === 0 ? { idempotency: { ...ref, status: 200, body: '{"answer":1}' } } : {}),
        ...(i < 3
          ? {
              session: {
                id: `ds_${i}`,
                account_id: acme.id,
                status: 'active',
                equipment: 'air_water',
                expected_version: null,
                model: `{"m":${i}}`,
                state: `{"s":${i}}`,
              },
            }
          : {}),
      });
    }
    const before = {
      accounts: await sqlite.accounts(),
      keys: await sqlite.keys(),
      ledger: await sqlite.ledger({ limit: 5000 }),
      usage: await sqlite.usage(acme.id),
      sessions: await sqlite.sessions(acme.id),
      session: await sqlite.session('ds_1'),
    };
    await sqlite.close();

    const url = schema('migrate');
    const r = runCli(['state', 'migrate', '--from', file, '--to', url, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { tables: { table: string; rows: number }[] };
    expect(report.tables.find((t) => t.table === 'usage_ledger')?.rows).toBe(1203);
    expect(report.tables.map((t) => t.table).indexOf('accounts')).toBe(0);

    const pg = await PgStateStore.open(url);
    try {
      expect(await pg.accounts()).toEqual(before.accounts);
      expect(await pg.keys()).toEqual(before.keys);
      expect(await pg.ledger({ limit: 5000 })).toEqual(before.ledger);
      expect(await pg.usage(acme.id)).toEqual(before.usage);
      expect(await pg.sessions(acme.id)).toEqual(before.sessions);
      expect(await pg.session('ds_1')).toEqual(before.session);
      // The copied state works: the key authenticates, the revoked one does not, the response replays,
      // and new ledger ids continue after the copied ones.
      expect((await pg.authenticate(secret)).ok).toBe(true);
      expect((await pg.keys(other.id))[0]?.revoked_at).toBeTruthy();
      expect(await pg.beginIdempotent(ref, 'fp')).toEqual({
        kind: 'replay',
        status: 200,
        body: '{"answer":1}',
      });
      await pg.complete({
        charge: {
          account_id: acme.id,
          key_id: key.id,
          operation: 'diagnose',
          request_id: 'new',
          idempotency_key: null,
        },
      });
      expect((await pg.ledger({ limit: 1 }))[0]!.id).toBe(Math.max(...before.ledger.map((e) => e.id)) + 1);
    } finally {
      await pg.close();
    }

    const again = runCli(['state', 'migrate', '--from', file, '--to', url]);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/not empty/);
  });

  it('refuses a target that is not a PostgreSQL URL in one line, with the usage status, writing nothing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-migrate-'));
    const target = path.join(dir, 'copy.sqlite');
    const r = runCli(['state', 'migrate', '--from', path.join(dir, 'state.sqlite'), '--to', target]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^heatsource: .*--to must be a postgres:\/\/ URL/);
    expect(fs.existsSync(target)).toBe(false);
  });
});
