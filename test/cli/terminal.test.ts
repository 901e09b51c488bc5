import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_TABLE } from '../../src/cli/exit-codes.js';
import { buildFixtureBundle, sidecar } from '../api/fixture.js';
import { demoBundle, ensureCliBuilt, heatsource, oneLine } from './helpers.js';

// The terminal as people and scripts meet it: one error style, one exit-code table, honest reports,
// and output that stays usable on a narrow screen. Every case runs the built binary.

const AQUAFIELD = 'demotherm-aquafield-monobloc-service-en';

let demo: string;
let tmp: string;

beforeAll(async () => {
  ensureCliBuilt();
  demo = await demoBundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cli-terminal-'));
}, 300_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('help and version', () => {
  it('--version prints the name, version, platform and Node version on one line', async () => {
    const r = await heatsource(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^heatsource\/\d+\.\d+\.\d+ \S+-\S+ node-v\d+\.\d+\.\d+\n$/);
  });

  it('--help describes each topic in its own words and ends with the exit-code table', async () => {
    const r = await heatsource(['--help']);
    expect(r.code).toBe(0);
    const topics = r.stdout.slice(r.stdout.indexOf('TOPICS'), r.stdout.indexOf('COMMANDS'));
    // Not the first subcommand's text ("Close a guided troubleshooting session…").
    expect(topics).not.toMatch(/Close a guided/);
    expect(topics).toMatch(/session\s+Guided troubleshooting one step per call/);
    expect(topics).toMatch(/keys\s+Create, list and revoke API keys/);
    const table = r.stdout.slice(r.stdout.indexOf('EXIT STATUS'));
    for (const [code, meaning] of EXIT_TABLE) expect(table).toContain(`${code}  ${meaning}`);
  });

  it('a missing argument is named with its description, on one line, exit 2', async () => {
    const r = await heatsource(['snapshot', 'demotherm-aquafield-monobloc-service-en', '--bundle', demo]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(
      /^heatsource: missing argument PAGE \(.+\); see heatsource snapshot --help$/,
    );
  });
});

describe('one error style, one exit-code table', () => {
  it('a file that is not a bundle: exit 4 and one line naming it, from bundle info as from lookup', async () => {
    const bad = path.join(tmp, 'garbage.bundle');
    fs.writeFileSync(bad, 'not a database at all, just text'.repeat(100));
    for (const args of [
      ['bundle', 'info', bad],
      ['bundle', 'verify', bad],
      ['lookup', '-b', 'Demotherm', '-c', 'E9', '--bundle', bad],
    ]) {
      const r = await heatsource(args);
      expect(r.code, args.join(' ')).toBe(4);
      const line = oneLine(r.stderr);
      expect(line).toMatch(/^heatsource: /);
      expect(line).toContain(bad);
      expect(line).not.toMatch(/›|Error:/);
    }
  });

  it('a state file that is not a database is named, with no SqliteError or code line', async () => {
    const bad = path.join(tmp, 'garbage.sqlite');
    fs.writeFileSync(bad, 'x'.repeat(5000));
    for (const args of [
      ['keys', 'list', '--state', bad],
      ['usage', '--state', bad],
    ]) {
      const r = await heatsource(args);
      expect(r.code, args.join(' ')).toBe(4);
      const line = oneLine(r.stderr);
      expect(line).toContain(bad);
      expect(line).toContain('not a heatsource state database');
      expect(line).not.toMatch(/SqliteError|SQLITE_/);
    }
  });

  it('a mistyped state file is refused, and not created', async () => {
    const typo = path.join(tmp, 'typo.sqlite');
    const r = await heatsource(['keys', 'list', '--state', typo]);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toContain(`${typo}: no such state database`);
    expect(fs.existsSync(typo)).toBe(false);
  });

  it('revoking an unknown key is "not found", exit 3', async () => {
    const state = path.join(tmp, 'keys.sqlite');
    expect((await heatsource(['keys', 'create', '--account', 'a', '--state', state])).code).toBe(0);
    const r = await heatsource(['keys', 'revoke', 'key_nope', '--state', state]);
    expect(r.code).toBe(3);
    expect(oneLine(r.stderr)).toBe('heatsource: no key matches "key_nope"');
  });

  it('an output folder that does not exist is named; nothing about ENOENT', async () => {
    const out = path.join(tmp, 'no-such-folder', 'x.webp');
    const r = await heatsource(['snapshot', AQUAFIELD, '7', '--out', out, '--bundle', demo]);
    expect(r.code).toBe(2);
    const line = oneLine(r.stderr);
    expect(line).toContain(path.dirname(out));
    expect(line).not.toContain('ENOENT');
  });

  it('a page number past any document is a usage error without zod wording', async () => {
    const r = await heatsource(['snapshot', AQUAFIELD, '99999999999999999999', '--bundle', demo]);
    expect(r.code).toBe(2);
    const line = oneLine(r.stderr);
    expect(line).not.toMatch(/Too big|9007199254740991/);
    expect(line).toContain('1000000');
  });

  it('serve on a busy port says which address is in use, exit 2', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await heatsource([
        'serve',
        '--bundle',
        demo,
        '--state',
        path.join(tmp, 'busy.sqlite'),
        '--port',
        String(port),
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`heatsource: 127.0.0.1:${port} is already in use`);
      expect(r.stderr).not.toMatch(/EADDRINUSE|Code:/);
    } finally {
      blocker.close();
    }
  });
});

describe('maintainers get no false green', () => {
  it('a bundle that passes says so; a failed check exits 7, done in part', async () => {
    const ok = await heatsource(['bundle', 'verify', demo]);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain('✓ every page has a snapshot');
    // A whole bundle built with --no-snapshots is checked in test/ingest/ingest-cli.test.ts.
    const broken = path.join(tmp, 'broken.bundle');
    fs.copyFileSync(demo, broken);
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(broken);
    db.prepare('DELETE FROM pages WHERE rowid IN (SELECT rowid FROM pages LIMIT 1)').run();
    db.close();
    const r = await heatsource(['bundle', 'verify', broken]);
    expect(r.code).toBe(7);
    expect(r.stdout).toMatch(/✗ documents have every page/);
    expect(r.stdout).toMatch(/FAILED$/m);
  });
});

/** The commands printed in `text`, each with its ` \` continuation lines joined as a shell reads them. */
function commandsIn(text: string): string[] {
  const joined = text.replace(/ \\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('heatsource '));
}

describe('narrow terminals (45 columns)', () => {
  const narrow = { COLUMNS: '45' };

  it('wraps prose between words and keeps every command whole on its own line', async () => {
    const r = await heatsource(
      ['lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', '--bundle', demo],
      narrow,
    );
    expect(r.code, r.stderr).toBe(0);
    const commands = commandsIn(r.stdout);
    expect(commands.length).toBeGreaterThan(0);
    // A command wider than the terminal is cut between words with ` \`: joined, it is the command.
    for (const c of commands) expect(c).toMatch(/^heatsource snapshot [\w-]+ \d+$/);
    expect(r.stdout).toMatch(/^heatsource snapshot \\\n {2}[\w-]+ \d+$/m);
    // No line passes the width, except a single word longer than it.
    for (const l of r.stdout.split('\n')) if (l.length > 45) expect(l.trim()).not.toContain(' ');
  });

  it('names a few models under a search hit, not the whole range', async () => {
    const range = await buildFixtureBundle([
      {
        id: 'range-manual-en',
        sidecar: sidecar({
          title: 'Range Installation Manual',
          models: Array.from({ length: 16 }, (_, i) => ({
            name: `DT-R${100 + i}-E`,
            range: 'Range',
            aliases: [],
          })),
        }),
        pages: [['Range Installation Manual', 'Purge the water circuit until no air comes out of the vent.']],
        chunks: [
          {
            page: 1,
            section: ['Range Installation Manual'],
            lines: ['Purge the water circuit until no air comes out of the vent.'],
          },
        ],
        codes: [],
        snapshots: [],
      },
    ]);
    const r = await heatsource(['search', 'purge the water circuit vent', '--bundle', range], narrow);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/DT-R100-E, DT-R101-E, DT-R102-E\s+and 13 more\n/);
    expect(r.stdout).not.toContain('DT-R115-E');
    for (const c of commandsIn(r.stdout)) expect(c).toMatch(/^heatsource snapshot [\w-]+ \d+$/);
    for (const l of r.stdout.split('\n')) if (l.length > 45) expect(l.trim()).not.toContain(' ');
  });
});

describe('a second start still says how to try it', () => {
  it('prints how to get a new test key and the curl line on every start', async () => {
    const state = path.join(tmp, 'starts.sqlite');
    const starts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { spawnCli } = await import('../helpers/cli.js');
      const child = spawnCli(['serve', '--bundle', demo, '--state', state, '--port', '0']);
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 60_000);
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (/try it/.test(stderr) && /curl /.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.on('exit', () => {
          clearTimeout(timer);
          reject(new Error(`serve exited: ${stderr}`));
        });
      });
      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      starts.push(stderr);
    }
    expect(starts[0]).toMatch(/ak_test_/);
    expect(starts[1]).not.toMatch(/ak_test_\w/);
    expect(starts[1]).toContain('a new test key: heatsource keys create --account local --mode test --state');
    expect(starts[1]).toContain('Bearer $HEATSOURCE_API_KEY');
  }, 150_000);
});
