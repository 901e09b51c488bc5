import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../src/state/invitations.js';
import { SqliteStateStore } from '../../src/state/sqlite-store.js';
import { ensureBuilt } from '../api/build.js';
import { ROOT, runCli } from '../helpers/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-invite-'));
const stateFile = path.join(dir, 'state.sqlite');
beforeAll(() => ensureBuilt(), 300_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('heatsource accounts invite', () => {
  it('prints a one-time link whose token only the hash of is stored', async () => {
    const r = runCli([
      'accounts',
      'invite',
      '--account',
      'acme',
      '--email',
      'Ops@Acme.example',
      '--url',
      'https://api.example.com/',
      '--state',
      stateFile,
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      url: string;
      email: string;
      account: { name: string; created: boolean };
      expires_at: string;
    };
    expect(out.url).toMatch(/^https:\/\/api\.example\.com\/console\/invitation\?token=[A-Za-z0-9_-]{43}$/);
    expect(out).toMatchObject({ email: 'ops@acme.example', account: { name: 'acme', created: true } });
    expect(Date.parse(out.expires_at)).toBeGreaterThan(Date.now());
    const token = new URL(out.url).searchParams.get('token')!;
    const state = new SqliteStateStore(stateFile);
    try {
      expect((await state.accountHolders.openInvitation(tokenHash(token)))?.email).toBe('ops@acme.example');
      const stored = JSON.stringify(state.db.prepare('SELECT * FROM invitations').all());
      expect(stored).not.toContain(token);
    } finally {
      await state.close();
    }
  });

  it('refuses a state that is a URL it cannot open, instead of creating a file named after it', () => {
    for (const spec of ['postgres:/postgres@127.0.0.1:5432/db', 'mysql://root@127.0.0.1/db']) {
      const r = runCli(
        ['accounts', 'invite', '--account', 'acme', '--email', 'x@acme.example', '--state', spec],
        {
          HEATSOURCE_STATE: '',
        },
      );
      expect(r.status, r.stdout).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('not a state this version opens');
      expect(fs.existsSync(path.join(ROOT, spec.split('/')[0]!))).toBe(false);
    }
  });

  it('refuses an email that is not one, with exit status 2', () => {
    const r = runCli(['accounts', 'invite', '--account', 'acme', '--email', 'nobody', '--state', stateFile]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('not an email address');
  });
});
