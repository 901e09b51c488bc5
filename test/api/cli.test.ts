import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build.js';
import { buildFixtureBundle } from './fixture.js';

const root = ROOT;
const bin = path.join(root, 'bin', 'run.js');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let bundle: string;

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cli-'));
  bundle = await buildFixtureBundle();
}, 180_000);

describe('heatsource keys and usage', () => {
  it('creates, lists and revokes keys, and reports usage', () => {
    const state = path.join(dir, 'keys.sqlite');
    const created = cli([
      'keys',
      'create',
      '--account',
      'acme',
      '--mode',
      'live',
      '--quota',
      '5',
      '--state',
      state,
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout);
    expect(out.key).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    expect(out).toMatchObject({ mode: 'live', quota: 5, account: { name: 'acme', created: true } });

    const text = cli(['keys', 'create', '--account', 'acme', '--mode', 'test', '--state', state]);
    expect(text.code).toBe(0);
    expect(text.stdout.trim()).toMatch(/^ak_test_[A-Za-z0-9_-]{32}$/);
    expect(text.stderr).toContain('not shown again');

    const listed = JSON.parse(cli(['keys', 'list', '--state', state, '--json']).stdout) as {
      prefix: string;
      account: string;
    }[];
    expect(listed.map((k) => k.prefix)).toEqual([out.prefix, text.stdout.trim().slice(0, 14)]);
    expect(JSON.stringify(listed)).not.toContain(out.key);
    const table = cli(['keys', 'list', '--state', state]).stdout;
    expect(table).toContain(out.prefix);
    expect(table).not.toContain(out.key);

    const revoked = cli(['keys', 'revoke', out.prefix, '--state', state]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain(out.id);
    const after = JSON.parse(cli(['keys', 'list', '--state', state, '--json']).stdout) as {
      revoked_at: string | null;
    }[];
    expect(after[0]?.revoked_at).toBeTruthy();
    expect(after[1]?.revoked_at).toBeNull();
    expect(cli(['keys', 'revoke', 'key_nope', '--state', state]).code).toBe(3);

    const usage = JSON.parse(cli(['usage', '--state', state, '--json']).stdout);
    expect(usage[0]).toMatchObject({ account: { name: 'acme' }, quota: { limit: 5, used: 0, remaining: 5 } });
    expect(cli(['usage', '--state', state]).stdout).toMatch(/acme\s+0\s+5\s+5/);
    const missing = cli(['usage', '--account', 'nope', '--state', state]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no account "nope"');
    const fileText = fs.readFileSync(state).toString('latin1');
    expect(fileText).not.toContain(out.key.slice(8));
  });

  it('reads the state path from HEATSOURCE_STATE', () => {
    const state = path.join(dir, 'env.sqlite');
    expect(cli(['keys', 'create', '--account', 'env'], { HEATSOURCE_STATE: state }).code).toBe(0);
    expect(fs.existsSync(state)).toBe(true);
  });
});

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exit: Promise<number | null>;
}

function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [bin, 'serve', '--log-level', 'silent', ...args], { cwd: root });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}`)), 20_000);
    const check = setInterval(() => {
      const m = /at (http:\/\/\S+)/.exec(err);
      if (m) {
        clearInterval(check);
        clearTimeout(timer);
        setTimeout(() => resolve({ child, url: m[1]!, stderr: () => err, exit }), 100);
      }
    }, 50);
    child.on('exit', () => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`serve exited: ${err}`));
    });
  });
}

/** A POST sent in two halves: the server has the request before `finish()` sends the rest of its body. */
function slowPost(url: string, key: string, body: object): { status: Promise<number>; finish(): void } {
  const data = Buffer.from(JSON.stringify(body));
  const u = new URL(url);
  let resolve!: (s: number) => void;
  const status = new Promise<number>((r) => {
    resolve = r;
  });
  const req = http.request(
    {
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'content-length': data.length,
      },
    },
    (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    },
  );
  req.on('error', () => resolve(-1));
  req.write(data.subarray(0, 5));
  return { status, finish: () => req.end(data.subarray(5)) };
}

describe('heatsource serve', () => {
  it('refuses --no-auth on an address other than loopback', () => {
    const r = cli([
      'serve',
      '--no-auth',
      '--host',
      '0.0.0.0',
      '--bundle',
      bundle,
      '--state',
      path.join(dir, 'x.sqlite'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--no-auth .* loopback/);
  });

  it('refuses a --trust-proxy entry that is neither an address nor a range, naming it', () => {
    for (const entry of ['proxy.internal', '10.0.0.0/99']) {
      const r = cli([
        'serve',
        '--trust-proxy',
        `127.0.0.1,${entry}`,
        '--bundle',
        bundle,
        '--state',
        path.join(dir, 'p.sqlite'),
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`"${entry}"`);
    }
  });

  it('refuses a negative --heap-growth, naming the flag', () => {
    const r = cli([
      'serve',
      '--heap-growth',
      '-5',
      '--bundle',
      bundle,
      '--state',
      path.join(dir, 'h.sqlite'),
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('heap-growth');
  });

  it('serves with a --heap-growth set', async () => {
    const s = await serve([
      '--bundle',
      bundle,
      '--state',
      path.join(dir, 'heap.sqlite'),
      '--port',
      '0',
      '--no-auth',
      '--heap-growth',
      '10',
    ]);
    try {
      const search = await fetch(`${s.url}/v1/search?q=pump`);
      expect(search.status).toBe(200);
    } finally {
      s.child.kill('SIGTERM');
      await s.exit;
    }
  });

  it('refuses a missing bundle with a clear message', () => {
    const r = cli([
      'serve',
      '--bundle',
      path.join(dir, 'missing.bundle'),
      '--state',
      path.join(dir, 'x.sqlite'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bundle not found');
  });

  it('prints a key once on an empty state, serves with it, and drains on SIGTERM', async () => {
    const state = path.join(dir, 'serve.sqlite');
    const first = await serve(['--bundle', bundle, '--state', state, '--port', '0']);
    const key = /(ak_test_[A-Za-z0-9_-]{32})/.exec(first.stderr())?.[1];
    expect(key).toBeDefined();
    expect(first.stderr()).toContain(`curl -s ${first.url}/v1/diagnostic`);
    const res = await fetch(`${first.url}/v1/diagnostic`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' }),
    });
    expect(res.status).toBe(200);
    // A request whose body is still arriving when SIGTERM comes must be served, not cut.
    const inFlight = slowPost(`${first.url}/v1/diagnostic`, key!, {
      brand: 'Demotherm',
      model: 'DT-A100-E',
      error_code: 'E9',
    });
    await new Promise((r) => setTimeout(r, 300));
    first.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    inFlight.finish();
    expect(await inFlight.status).toBe(200);
    expect(await first.exit).toBe(0);
    expect(first.stderr()).toContain('SIGTERM');

    const second = await serve(['--bundle', bundle, '--state', state, '--port', '0']);
    expect(second.stderr()).not.toMatch(/ak_test_/);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
  });

  it('serves without keys on loopback with --no-auth', async () => {
    const s = await serve([
      '--bundle',
      bundle,
      '--state',
      path.join(dir, 'open.sqlite'),
      '--port',
      '0',
      '--no-auth',
    ]);
    try {
      const me = await fetch(`${s.url}/v1/me`);
      expect(me.status).toBe(200);
      expect(((await me.json()) as { key: unknown }).key).toBeNull();
    } finally {
      s.child.kill('SIGTERM');
      await s.exit;
    }
  });
});
