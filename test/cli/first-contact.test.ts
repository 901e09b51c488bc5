import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoBundle, ensureCliBuilt, heatsource, oneLine, ROOT } from './helpers.js';

// What a newcomer meets in the first minutes at the terminal, through the built binary: every failure in
// the one style (`heatsource: …` on stderr, a status of the exit table), in our words, naming the value.

let demo: string;
let tmp: string;

beforeAll(async () => {
  ensureCliBuilt();
  demo = await demoBundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cli-first-contact-'));
}, 300_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('errors in our own words', () => {
  it('an unknown command is one line naming it, with the closest commands, exit 2', async () => {
    const typo = await heatsource(['lokup', '-b', 'Demotherm']);
    expect(typo.code).toBe(2);
    expect(oneLine(typo.stderr)).toBe(
      'heatsource: no command `lokup`; did you mean `lookup`? `heatsource --help` lists them',
    );
    const sub = await heatsource(['bundle', 'verfy']);
    expect(sub.code).toBe(2);
    expect(oneLine(sub.stderr)).toContain('did you mean `bundle verify`?');
    const none = await heatsource(['frobnicate']);
    expect(none.code).toBe(2);
    expect(oneLine(none.stderr)).toBe('heatsource: no command `frobnicate`; `heatsource --help` lists them');
    expect(none.stderr).not.toMatch(/›|Error:/);
  });

  it('lookup takes the code as its last argument too; none, or two that differ, is a usage error', async () => {
    const unit = ['lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '--bundle', demo];
    const last = await heatsource([...unit, 'E9']);
    const flag = await heatsource([...unit, '-c', 'E9']);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toContain('E9 · Water flow error');
    expect(last.stdout).toBe(flag.stdout);
    // The same code twice, whatever its case, is one code.
    const same = await heatsource([...unit, '-c', 'E9', 'e9']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toBe(flag.stdout);
    const none = await heatsource(unit);
    expect(none.code).toBe(2);
    expect(oneLine(none.stderr)).toBe('heatsource: give the error code: --code E9, or as the last argument');
    const two = await heatsource(['lookup', '-b', 'Demotherm', '-c', 'E9', 'E1', '--bundle', demo]);
    expect(two.code).toBe(2);
    expect(oneLine(two.stderr)).toBe('heatsource: two error codes given: --code E9 and E1; give one');
    expect(two.stdout).toBe('');
  });

  it('code and product take the brand, the code and the model as flags too, as lookup does', async () => {
    const src = ['--bundle', demo];
    // Each command's answer with its values as arguments, and the other ways of giving them.
    const ways: [string[], string, string[][]][] = [
      [
        ['code', 'Demotherm', 'E9'],
        'E9',
        [
          ['code', '-b', 'Demotherm', 'E9'],
          ['code', '-b', 'Demotherm', '-c', 'E9'],
          ['code', '-c', 'e9', 'Demotherm'],
          ['code', '--brand', 'Demotherm', '--code', 'E9', 'E9'],
        ],
      ],
      [
        ['product', 'Demotherm', 'DT-AW080-M'],
        'DT-AW080-M',
        [
          ['product', '-b', 'Demotherm', 'DT-AW080-M'],
          ['product', '-b', 'Demotherm', '-m', 'DT-AW080-M'],
          ['product', '-m', 'DT-AW080-M', 'Demotherm'],
        ],
      ],
    ];
    for (const [positional, shows, forms] of ways) {
      const expected = await heatsource([...positional, ...src]);
      expect(expected.code, expected.stderr).toBe(0);
      expect(expected.stdout).toContain(shows);
      for (const form of forms) {
        const r = await heatsource([...form, ...src]);
        expect(r.code, `${form.join(' ')}: ${r.stderr}`).toBe(0);
        expect(r.stdout).toBe(expected.stdout);
      }
    }
    // Missing, given twice differently, or one too many: a usage error in one line, exit 2.
    const cases: [string[], string][] = [
      [['code', '-b', 'Demotherm'], 'heatsource: give the error code: --code E9, or as the last argument'],
      [['code'], 'heatsource: give the brand: --brand Demotherm, or as the first argument'],
      [
        ['code', '-b', 'Demotherm', '-c', 'E9', 'E1'],
        'heatsource: two error codes given: --code E9 and E1; give one',
      ],
      [
        ['product', '-b', 'Demotherm'],
        'heatsource: give the model: --model DT-AW080-M, or as the last argument',
      ],
      [['product', '-b', 'Demotherm', 'DT-AW080-M', 'extra'], 'heatsource: one argument too many: extra'],
    ];
    for (const [args, line] of cases) {
      const r = await heatsource([...args, ...src]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(oneLine(r.stderr)).toBe(line);
      expect(r.stdout).toBe('');
    }
  });

  it('a search narrowed to a brand the corpus lacks says so, not that no passage matches', async () => {
    const src = ['--bundle', demo];
    const acme = await heatsource(['search', "pression d'eau trop basse", '-b', 'Acme', ...src]);
    expect(acme.code).toBe(3);
    expect(oneLine(acme.stderr)).toBe(
      'heatsource: no manual of brand “Acme” in the corpus; brands in the corpus: Demotherm',
    );
    expect(acme.stdout).toBe('');
    const typo = await heatsource(['search', 'flow switch', '-b', 'Demoterm', ...src]);
    expect(typo.code).toBe(3);
    expect(oneLine(typo.stderr)).toBe(
      'heatsource: no manual of brand “Demoterm” in the corpus; did you mean Demotherm?',
    );
    const model = await heatsource(['search', 'flow switch', '-b', 'Demotherm', '-m', 'DT-XX999', ...src]);
    expect(model.code).toBe(3);
    expect(oneLine(model.stderr)).toBe(
      'heatsource: no manual of Demotherm in the corpus covers model “DT-XX999”; `heatsource registry` lists the models',
    );
    // A known brand whose manuals hold none of the words: the words are the reason.
    const none = await heatsource(['search', 'zzqx', '-b', 'Demotherm', ...src]);
    expect(none.code).toBe(3);
    expect(none.stdout.trim()).toBe('No passage matches “zzqx”.');
    expect(none.stderr).toBe('');
  });

  it('a missing argument points at the help as it is typed, with a space', async () => {
    const r = await heatsource(['bundle', 'verify']);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/; see heatsource bundle verify --help$/);
  });

  it('an empty search says so without zod wording, exit 2; a rejected value says what is wrong', async () => {
    for (const q of ['', '   ']) {
      const r = await heatsource(['search', q, '--bundle', demo]);
      expect(r.code).toBe(2);
      expect(oneLine(r.stderr)).toMatch(/^heatsource: no words to search for: give a word or a question/);
    }
    const long = await heatsource(['search', 'x'.repeat(600), '--bundle', demo]);
    expect(long.code).toBe(2);
    const line = oneLine(long.stderr);
    expect(line).toMatch(/^heatsource: q: must be at most \d+ characters long \(validation_failed\)$/);
    expect(line).not.toMatch(/Too big|expected string/);
  });

  it('ingest of a folder that does not exist is a usage error naming it; nothing is written', async () => {
    const target = path.join(tmp, 'never.bundle');
    const missing = path.join(tmp, 'no-such-folder');
    const r = await heatsource(['ingest', missing, '--bundle', target]);
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toBe(`heatsource: no such file or folder: ${missing}; nothing was ingested`);
    const empty = path.join(tmp, 'empty');
    fs.mkdirSync(empty);
    const none = await heatsource(['ingest', empty, '--bundle', target]);
    expect(none.code).toBe(2);
    expect(oneLine(none.stderr)).toBe(`heatsource: no PDF under ${empty}; nothing was ingested`);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('a run where every file fails says there was no previous bundle, not that it is unchanged', async () => {
    const dir = path.join(tmp, 'broken');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'broken.pdf'), 'not a PDF at all');
    const target = path.join(tmp, 'first.bundle');
    const first = await heatsource(['ingest', dir, '--bundle', target, '--no-snapshots']);
    expect(first.code).toBe(7);
    expect(first.stdout).toContain(
      'bundle not written: no valid manual was ingested; there was no previous bundle',
    );
    expect(first.stdout).not.toContain('unchanged');
    expect(fs.existsSync(target)).toBe(false);
    fs.copyFileSync(demo, target);
    const again = await heatsource(['ingest', dir, '--bundle', target, '--no-snapshots']);
    expect(again.code).toBe(7);
    expect(again.stdout).toContain('no valid manual was ingested; the previous bundle is unchanged');
    expect(fs.readFileSync(target).equals(fs.readFileSync(demo))).toBe(true);
  });
});

describe('a brand or model the corpus does not have', () => {
  it('is a failure on stderr naming the brand, with the brands that exist; stdout stays empty', async () => {
    const r = await heatsource([
      'lookup',
      '--brand',
      'Acme',
      '--model',
      'X1',
      '--code',
      'E9',
      '--bundle',
      demo,
    ]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toBe(
      'heatsource: no manual of brand “Acme” in the corpus; brands in the corpus: Demotherm',
    );
    const strict = await heatsource([
      'lookup',
      '-b',
      'Acme',
      '-m',
      'X1',
      '-c',
      'E9',
      '--strict',
      '--bundle',
      demo,
    ]);
    expect(strict.code).toBe(3);
    expect(oneLine(strict.stderr)).toContain('no manual of brand “Acme” in the corpus');
  });

  it('offers the close matches of a mistyped brand or model', async () => {
    const brand = await heatsource(['lookup', '-b', 'Demothrm', '-m', 'X1', '-c', 'E9', '--bundle', demo]);
    expect(brand.code).toBe(3);
    expect(oneLine(brand.stderr)).toBe(
      'heatsource: no manual of brand “Demothrm” in the corpus; did you mean Demotherm?',
    );
    const model = await heatsource([
      'lookup',
      '-b',
      'Demotherm',
      '-m',
      'DT-AW08-M',
      '-c',
      'E9',
      '--bundle',
      demo,
    ]);
    expect(model.code).toBe(3);
    expect(model.stdout).toBe('');
    expect(oneLine(model.stderr)).toMatch(
      /^heatsource: no manual of Demotherm model “DT-AW08-M” in the corpus; did you mean DT-AW080-M\b/,
    );
  });

  it('--json still prints the answer with its options on stdout', async () => {
    const r = await heatsource(['lookup', '-b', 'Acme', '-m', 'X1', '-c', 'E9', '--json', '--bundle', demo]);
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout);
    expect(body.state).toBe('out_of_coverage');
    expect(body.follow_up_questions[0].options).toContain('Demotherm');
  });
});

/** The lines of a help text outside its EXAMPLES section (examples are commands, shown whole). */
function proseOfHelp(help: string): string[] {
  const out: string[] = [];
  let inExamples = false;
  for (const line of help.split('\n')) {
    if (/^[A-Z][A-Z ]+$/.test(line)) inExamples = line === 'EXAMPLES';
    if (!inExamples) out.push(line);
  }
  return out;
}

describe('help on a small screen (45 columns)', () => {
  it('wraps between words: every word of the narrow help is a word of the wide one', async () => {
    for (const command of [
      ['lookup', '--help'],
      ['troubleshoot', '--help'],
    ]) {
      const [narrow, wide] = await Promise.all([
        heatsource(command, { COLUMNS: '45' }),
        heatsource(command, { COLUMNS: '400' }),
      ]);
      expect(narrow.code).toBe(0);
      const words = new Set(wide.stdout.split(/\s+/));
      const cut = narrow.stdout.split(/\s+/).filter((w) => !words.has(w));
      expect(cut).toEqual([]);
    }
  });

  it('keeps the summary, the flag table and the exit table within 45 columns', async () => {
    for (const command of [
      ['--help'],
      ['lookup', '--help'],
      ['troubleshoot', '--help'],
      ['keys', 'create', '--help'],
    ]) {
      const narrow = await heatsource(command, { COLUMNS: '45' });
      expect(narrow.code).toBe(0);
      const prose = proseOfHelp(narrow.stdout);
      expect(prose.some((l) => /^ {2}-\w, --\w|^ {2}--\w|^ {2}\d {2}/.test(l))).toBe(true);
      // Only a single word wider than the terminal (a list of choices, a URL) may pass it.
      for (const line of prose) if (line.length > 45) expect(line.trim(), line).not.toContain(' ');
    }
  });
});

describe('nothing left in the checkout', () => {
  it('snapshot --open without --out writes to a temporary folder, not the current one', async () => {
    const cwd = path.join(tmp, 'checkout');
    const temp = path.join(tmp, 'temp');
    fs.mkdirSync(cwd);
    fs.mkdirSync(temp);
    // No desktop viewer on this PATH: the file is still written, and said where.
    const r = await heatsource(
      ['snapshot', 'demotherm-aquafield-monobloc-service-en', '7', '--open', '--bundle', demo],
      { TMPDIR: temp, PATH: path.dirname(process.execPath) },
      { cwd },
    );
    expect(r.code, r.stderr).toBe(0);
    const written = path.join(
      temp,
      'heatsource-snapshots',
      'demotherm-aquafield-monobloc-service-en-p7.webp',
    );
    expect(r.stdout).toContain(written);
    expect(fs.statSync(written).size).toBeGreaterThan(1000);
    expect(fs.readdirSync(cwd)).toEqual([]);
  });

  it('git ignores what npm pack and snapshot leave in the root', () => {
    const ignore = fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignore).toContain('*.tgz');
    expect(ignore).toContain('/*-p[0-9]*.webp');
  });
});

describe('README, word for word', () => {
  const readme = () => fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const shellLines = (text: string) =>
    [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n'));

  it('never tells a newcomer to run a bare `heatsource`, which a fresh clone has not put on the PATH', () => {
    const lines = shellLines(readme());
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.filter((l) => /^\s*heatsource\s/.test(l))).toEqual([]);
  });

  it('the first terminal command answers, as written, from the demo bundle', async () => {
    const first = shellLines(readme()).find((l) => /^npx heatsource (lookup|search|code) /.test(l));
    expect(first).toBeDefined();
    const args = (first ?? '').replace(/#.*$/, '').trim().split(/\s+/).slice(2);
    const r = await heatsource([...args, '--bundle', demo]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Source: .+, page \d+/);
  });
});
