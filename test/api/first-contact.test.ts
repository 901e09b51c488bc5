import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBundle, ensureCliBuilt } from '../cli/helpers.js';
import { ROOT } from './build.js';

// A newcomer's first contact with a running server, through `heatsource serve` on a real port: the bare
// address lands somewhere, and the log a person watches reads as one line per request.

interface Served {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop: () => Promise<void>;
}

/** `heatsource serve` with its stdout kept; `wrap` runs it under another program (a pseudo-terminal). */
function serve(args: string[], wrap?: (argv: string[]) => string[]): Promise<Served> {
  const argv = [process.execPath, path.join(ROOT, 'bin', 'run.js'), 'serve', '--port', '0', ...args];
  const [cmd, ...rest] = wrap ? wrap(argv) : argv;
  const child = spawn(cmd!, rest, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${err}${out}`)), 120_000);
    const look = () => {
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(err + out);
      if (!m) return;
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        stdout: () => out,
        stderr: () => err,
        stop: async () => {
          // Under `script` the server is a child of it, in a session of its own: stop the server itself
          // (closing the terminal would send it SIGHUP, which reopens the bundle).
          const inner = wrap && child.pid ? childrenOf(child.pid) : [];
          for (const pid of inner) process.kill(pid, 'SIGTERM');
          if (inner.length === 0) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      look();
    });
    child.stdout.on('data', look);
    child.once('exit', () => reject(new Error(`serve exited: ${err}${out}`)));
  });
}

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

let demo: string;
let tmp: string;
const running: Served[] = [];

beforeAll(async () => {
  ensureCliBuilt();
  demo = await demoBundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-first-contact-'));
}, 300_000);

afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function started(args: string[], wrap?: (argv: string[]) => string[]): Promise<Served> {
  const s = await serve(
    ['--bundle', demo, '--state', path.join(tmp, `${running.length}.sqlite`), ...args],
    wrap,
  );
  running.push(s);
  return s;
}

describe('the bare address', () => {
  it('a browser gets a page linking the console, the OpenAPI document and the API guide', async () => {
    const s = await started([]);
    const res = await fetch(`${s.url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    for (const href of ['/console/', '/v1/openapi.json', '/docs/API.md'])
      expect(page).toContain(`href="${href}"`);
    // Every link it gives leads somewhere.
    for (const href of ['/v1/openapi.json', '/docs/API.md', '/favicon.ico']) {
      const linked = await fetch(`${s.url}${href}`);
      expect(linked.status, href).toBe(200);
    }
    const guide = await (await fetch(`${s.url}/docs/API.md`)).text();
    expect(guide).toMatch(/^# /);
    const console = await fetch(`${s.url}/console/`, { redirect: 'manual' });
    expect([200, 303]).toContain(console.status);
  }, 180_000);

  it('an API client asking for JSON gets an index of the same links; the icon is an image', async () => {
    const s = running[0] ?? (await started([]));
    const res = await fetch(`${s.url}/`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; links: { rel: string; href: string }[] };
    expect(body.name).toBe('heatsource');
    expect(body.links.map((l) => l.rel)).toEqual(
      expect.arrayContaining(['console', 'openapi', 'docs', 'mcp']),
    );
    const plain = await fetch(`${s.url}/`);
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const icon = await fetch(`${s.url}/favicon.ico`);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  }, 180_000);
});

describe('from an answer to its procedure', () => {
  it('a diagnostic names the chunk of its procedure, and GET /v1/procedure/{chunk_id} returns it', async () => {
    const s = running[0] ?? (await started([]));
    // An empty state gets a test key, printed once when the server starts.
    const keyIn = () => /\b(ak_test_[A-Za-z0-9_-]{20,})/.exec(s.stderr())?.[1];
    await expect.poll(keyIn, { timeout: 20_000 }).toBeDefined();
    const key = keyIn();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const res = await fetch(`${s.url}/v1/diagnostic`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      procedure: { chunk_id: string; document_id: string; page: number } | null;
    };
    expect(body.procedure).not.toBeNull();
    const procedure = body.procedure!;
    const got = await fetch(`${s.url}/v1/procedure/${encodeURIComponent(procedure.chunk_id)}`, { headers });
    expect(got.status).toBe(200);
    const chunk = (await got.json()) as { chunk_id: string; citation: { document_id: string; page: number } };
    expect(chunk.chunk_id).toBe(procedure.chunk_id);
    expect(chunk.citation.document_id).toBe(procedure.document_id);
    expect(chunk.citation.page).toBe(procedure.page);
  }, 180_000);
});

describe('the log a person watches', () => {
  const REQUEST_LINE = /^\d\d:\d\d:\d\d {2}GET \/healthz {2}200 {2}\d+\.\d ms\r?$/m;

  it('--log-format lines: one readable line per request, no JSON', async () => {
    const s = await started(['--log-format', 'lines']);
    await fetch(`${s.url}/healthz`);
    await expect.poll(() => s.stdout(), { timeout: 10_000 }).toMatch(REQUEST_LINE);
    expect(s.stdout()).not.toContain('{"level"');
  }, 180_000);

  it('piped (not a terminal): JSON records, one per line, for log shippers', async () => {
    const s = await started([]);
    await fetch(`${s.url}/healthz`);
    await expect.poll(() => s.stdout(), { timeout: 10_000 }).toMatch(/"route":"\/healthz"/);
    for (const line of s.stdout().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  }, 180_000);

  it.runIf(fs.existsSync('/usr/bin/script'))(
    'on a terminal, readable lines by default',
    async () => {
      // util-linux `script` runs the server on a pseudo-terminal, as `npm start` in a terminal does.
      const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
      const s = await started([], (argv) => [
        '/usr/bin/script',
        '-qfec',
        argv.map(quote).join(' '),
        '/dev/null',
      ]);
      await fetch(`${s.url}/healthz`);
      await expect.poll(() => s.stdout(), { timeout: 10_000 }).toMatch(REQUEST_LINE);
      expect(s.stdout()).not.toContain('{"level"');
    },
    180_000,
  );
});
