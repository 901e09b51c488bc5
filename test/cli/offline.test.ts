import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle } from '../api/fixture.js';
import { demoBundle, ensureCliBuilt, heatsource, oneLine } from './helpers.js';

const ANSI = /\x1b\[[0-9;]*m/;
const AQUAFIELD = 'demotherm-aquafield-monobloc-service-en';
const AQUAFIELD_TITLE = 'Aquafield Monobloc Air/Water Heat Pump — Service Manual';

let demo: string;
let fixture: string;
let tmp: string;
const on = (...args: string[]) => [...args, '--bundle', demo];

beforeAll(async () => {
  ensureCliBuilt();
  demo = await demoBundle();
  fixture = await buildFixtureBundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cli-offline-'));
}, 300_000);

describe.concurrent('lookup, offline', () => {
  it('answers first, then the manual’s words and the citation with title and page', async () => {
    const r = await heatsource(on('lookup', '--brand', 'Demotherm', '--model', 'DT-AW080-M', '--code', 'E9'));
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('E9 · Water flow error');
    expect(lines[1]).toContain('Demotherm DT-AW080-M');
    expect(r.stdout).toContain('│ Code: E9\n  │ Description: Water flow error\n');
    expect(r.stdout).toContain(`Source: ${AQUAFIELD_TITLE}, page 7`);
    expect(r.stdout).toContain(`heatsource snapshot ${AQUAFIELD} 7`);
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stderr).toBe('');
  });

  it('numbers the steps, shows their safety notes and the procedure', async () => {
    const r = await heatsource([
      'lookup',
      '-b',
      'Demotherm',
      '-m',
      'DT-A100-E',
      '-c',
      'E9',
      '--bundle',
      fixture,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Steps\n {2}⚠ Safety: Isolate the power supply first\n {2}1\. Check the strainer\n {2}2\. Check FS1 continuity/,
    );
    expect(r.stdout).toContain('Part: flow switch FS1 (ref. 4711)');
    expect(r.stdout).toContain('Procedure: Alpha Monobloc Service Manual, pages 3–4');
  });

  it('colours on request and never with NO_COLOR', async () => {
    const args = on('lookup', '--brand', 'Demotherm', '--model', 'DT-AW080-M', '--code', 'E9');
    const coloured = await heatsource(args, { NO_COLOR: undefined, FORCE_COLOR: '1' });
    expect(coloured.stdout).toMatch(ANSI);
    const plain = await heatsource(args, { NO_COLOR: '1', FORCE_COLOR: '1' });
    expect(plain.stdout).not.toMatch(ANSI);
    expect(plain.stdout).toBe(coloured.stdout.replace(/\x1b\[[0-9;]*m/g, ''));
  });

  it('without a model, answers from the entry its models share', async () => {
    const r = await heatsource(on('lookup', '--brand', 'Demotherm', '--code', 'E9'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('E9 · Water flow error');
    expect(r.stdout).toContain(`Source: ${AQUAFIELD_TITLE}, page 7`);
  });

  it('without a model, lists the models to choose from and exits 3 when their manuals differ', async () => {
    const r = await heatsource(['lookup', '--brand', 'Demotherm', '--code', 'E9', '--bundle', fixture]);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Which exact model is printed on the nameplate?');
  });

  it('a typo’d brand suggests the closest known brand and exits 3', async () => {
    const r = await heatsource(on('lookup', '--brand', 'Demothrem', '--model', 'DT-AW080-M', '--code', 'E9'));
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(oneLine(r.stderr)).toBe(
      'heatsource: no manual of brand “Demothrem” in the corpus; did you mean Demotherm?',
    );
  });

  it('--strict answers from the exact manual, and exits 3 for a range name', async () => {
    const exact = await heatsource(
      on('lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', '--strict'),
    );
    expect(exact.code).toBe(0);
    expect(exact.stdout).toContain(`Exact source: ${AQUAFIELD_TITLE}`);
    const range = await heatsource(
      on('lookup', '-b', 'Demotherm', '-m', 'Aquafield', '-c', 'E9', '--strict'),
    );
    expect(range.code).toBe(3);
    expect(range.stdout).toContain('range name');
    const noModel = await heatsource(on('lookup', '-b', 'Demotherm', '-c', 'E9', '--strict'));
    expect(noModel.code).toBe(2);
    expect(oneLine(noModel.stderr)).toContain('--strict needs --model');
  });

  it('--json prints the response body alone, with the same exit status', async () => {
    const r = await heatsource([
      'lookup',
      '--brand',
      'Demotherm',
      '--code',
      'E9',
      '--json',
      '--bundle',
      fixture,
    ]);
    expect(r.code).toBe(3);
    const body = JSON.parse(r.stdout);
    expect(body.state).toBe('ambiguous');
    expect(r.stdout).toBe(`${JSON.stringify(body)}\n`);
  });
});

describe.concurrent('the other questions, offline', () => {
  it('search numbers the passages with their page, and exits 3 when nothing matches', async () => {
    const r = await heatsource(on('search', 'flow switch', '--limit', '2'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^1\. .+, page \d+$/m);
    expect(r.stdout).toMatch(/^2\. .+, page \d+$/m);
    expect(r.stdout).toContain("More: heatsource search 'flow switch' --limit 2 --cursor ");
    // A mistyped brand is the reason, said on stderr with the close brand; the answer stays empty.
    const none = await heatsource(on('search', 'zzzqqq', '--brand', 'Demothrem'));
    expect(none.code).toBe(3);
    expect(none.stdout).toBe('');
    expect(oneLine(none.stderr)).toMatch(
      /^heatsource: no manual of brand “Demothrem” in the corpus; did you mean Demotherm\?$/,
    );
  });

  it('code lists the manuals documenting a code; an unknown brand gets a suggestion on stderr', async () => {
    const r = await heatsource(on('code', 'Demotherm', 'e9'));
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('Demotherm E9 · documented in 1 manual');
    expect(r.stdout).toContain('Models: DT-AW080-M, DT-AW120-M');
    const typo = await heatsource(on('code', 'Demoterm', 'E9'));
    expect(typo.code).toBe(3);
    expect(typo.stdout).toBe('');
    expect(oneLine(typo.stderr)).toMatch(/^heatsource: .*brand_not_found.*did you mean Demotherm\?$/);
  });

  it('product shows the model, how it matched, and its manuals', async () => {
    const r = await heatsource(on('product', 'Demotherm', 'dt-sa25-wi'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Demotherm DT-SA25-W');
    expect(r.stdout).toContain('alias match for “dt-sa25-wi”');
    expect(r.stdout).toContain('demotherm-breezeline-split-ac-service-en');
    const missing = await heatsource(on('product', 'Demotherm', 'DT-XX999'));
    expect(missing.code).toBe(3);
    expect(oneLine(missing.stderr)).toContain('model_not_found');
  });

  it('resolve says which model a name is, or lists a range’s models and exits 3', async () => {
    const r = await heatsource(on('resolve', 'dtaw080m'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Model id: demotherm:DTAW080M');
    const range = await heatsource(on('resolve', 'Aquafield', '--brand', 'Demotherm'));
    expect(range.code).toBe(3);
    expect(range.stdout).toContain('“Aquafield” is a range of Demotherm, not a model');
    expect(range.stdout).toContain('• DT-AW120-M (Aquafield)');
    const json = await heatsource(on('resolve', 'DT-AW080-M', '--json'));
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: 'resolved',
      brand: 'Demotherm',
      query: { brand: null },
    });
    const unknown = await heatsource(on('resolve', 'DT-ZZ999'));
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toContain('No model “DT-ZZ999” in the corpus');
  });

  it('registry lists the brand, its models by range and the totals', async () => {
    const r = await heatsource(on('registry'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Aquafield: DT-AW080-M, DT-AW120-M');
    expect(r.stdout).toMatch(/1 brand, 8 models, 4 manuals, \d+ pages, \d+ codes/);
  });

  it('me answers a local account that is never billed', async () => {
    const text = await heatsource(on('me'));
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('offline calls are not billed');
    const json = JSON.parse((await heatsource(on('me', '--json'))).stdout);
    expect(json).toMatchObject({ key: null, quota: { limit: null, used: 0 } });
  });
});

describe.concurrent('snapshot, offline', () => {
  it('writes the WebP page to --out, or to DOCUMENT-pPAGE.webp by default', async () => {
    const out = path.join(tmp, 'page.webp');
    const r = await heatsource(on('snapshot', AQUAFIELD, '7', '--out', out));
    expect(r.code, r.stderr).toBe(0);
    const bytes = fs.readFileSync(out);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(r.stdout).toContain(`${out} (image/webp,`);
    const toStdout = await heatsource(on('snapshot', AQUAFIELD, '7', '--out', '-'));
    expect(toStdout.bytes.equals(bytes)).toBe(true);
    const cwd = fs.mkdtempSync(path.join(tmp, 'cwd-'));
    const byDefault = await heatsource(on('snapshot', AQUAFIELD, '7'), {}, { cwd });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(fs.readFileSync(path.join(cwd, `${AQUAFIELD}-p7.webp`)).equals(bytes)).toBe(true);
  });

  it('--open hands the file to the desktop viewer when there is one', async () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const record = path.join(tmp, 'opened.txt');
    const viewer = process.platform === 'darwin' ? 'open' : 'xdg-open';
    fs.writeFileSync(path.join(bin, viewer), `#!/bin/sh\necho "$1" > '${record}'\n`, { mode: 0o755 });
    const out = path.join(tmp, 'open.webp');
    const r = await heatsource(on('snapshot', AQUAFIELD, '2', '--out', out, '--open'), {
      PATH: `${bin}:${process.env.PATH}`,
    });
    expect(r.code, r.stderr).toBe(0);
    for (let i = 0; i < 40 && !fs.existsSync(record); i++) await new Promise((res) => setTimeout(res, 50));
    expect(fs.readFileSync(record, 'utf8').trim()).toBe(out);
    const none = await heatsource(on('snapshot', AQUAFIELD, '2', '--out', out, '--open'), { PATH: tmp });
    expect(none.code).toBe(0);
    expect(oneLine(none.stderr)).toContain('no desktop viewer');
  });

  it('an unknown document exits 3 and page 0 is a usage error', async () => {
    const missing = await heatsource(on('snapshot', 'no-such-doc', '1', '--out', path.join(tmp, 'x.webp')));
    expect(missing.code).toBe(3);
    expect(oneLine(missing.stderr)).toContain('no-such-doc');
    const zero = await heatsource(on('snapshot', AQUAFIELD, '0'));
    expect(zero.code).toBe(2);
    expect(oneLine(zero.stderr)).toContain('--help');
  });
});

describe.concurrent('usage and sources', () => {
  it('usage errors exit 2 with one line', async () => {
    for (const args of [
      on('lookup', '--brand', 'Demotherm'),
      on('lookup', '--brand', 'Demotherm', '--code', 'E9', '--colour'),
      ['lookup', '--brand', 'Demotherm', '--code', 'E9', '--bundle', demo, '--url', 'http://127.0.0.1:9'],
      on('code', 'Demotherm'),
      on('search', 'x', '--limit', '500'),
    ]) {
      const r = await heatsource(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(oneLine(r.stderr)).toMatch(/^heatsource: /);
    }
  });

  it('a usage error names what is wrong, not only a header', async () => {
    const r = await heatsource(on('lookup', '--code', 'E9'));
    expect(r.code).toBe(2);
    expect(oneLine(r.stderr)).toMatch(/missing required flag brand/i);
    expect(r.stderr).not.toMatch(/following errors? occurred/i);
    // The code may come as a flag or last: without either, the line says both ways of giving it.
    const noCode = await heatsource(on('lookup', '--brand', 'Demotherm'));
    expect(noCode.code).toBe(2);
    expect(oneLine(noCode.stderr)).toBe(
      'heatsource: give the error code: --code E9, or as the last argument',
    );
  });

  it('a bundle that cannot be opened exits 4; HEATSOURCE_BUNDLE chooses the bundle', async () => {
    const r = await heatsource(['registry', '--bundle', path.join(tmp, 'missing.bundle')]);
    expect(r.code).toBe(4);
    expect(oneLine(r.stderr)).toContain('missing.bundle');
    const fromEnv = await heatsource(['registry', '--json'], { HEATSOURCE_BUNDLE: fixture });
    expect(JSON.parse(fromEnv.stdout).totals.documents).toBe(4);
    const offline = await heatsource(['me'], {
      HEATSOURCE_BUNDLE: fixture,
      HEATSOURCE_URL: 'http://127.0.0.1:9',
    });
    expect(offline.code).toBe(4);
    const forced = await heatsource(['me', '--offline'], {
      HEATSOURCE_BUNDLE: fixture,
      HEATSOURCE_URL: 'http://127.0.0.1:9',
    });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(fixture);
  });

  it('every command has examples in its help', async () => {
    for (const command of [
      'lookup',
      'search',
      'code',
      'product',
      'resolve',
      'snapshot',
      'registry',
      'me',
      'login',
    ]) {
      const r = await heatsource([command, '--help']);
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
      expect(r.stdout, command).toContain('EXAMPLES');
      expect(r.stdout, command).toContain(`$ heatsource ${command}`);
    }
  });

  it('shell completion knows the commands and their flags', async () => {
    const cache = path.join(tmp, 'cache');
    const r = await heatsource(['autocomplete', '--refresh-cache'], { XDG_CACHE_HOME: cache, HOME: tmp });
    expect(r.code, r.stderr).toBe(0);
    const bash = fs.readFileSync(
      path.join(cache, 'heatsource', 'autocomplete', 'functions', 'bash', 'heatsource.bash'),
      'utf8',
    );
    expect(bash).toMatch(/lookup --brand/);
    expect(bash).toContain('snapshot');
    const script = await heatsource(['autocomplete', 'script', 'bash'], { XDG_CACHE_HOME: cache, HOME: tmp });
    expect(script.code).toBe(0);
    expect(script.stdout).toContain('HEATSOURCE_AC_BASH_SETUP_PATH');
  });
});
