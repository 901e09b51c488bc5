import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureSdkBuilt } from '../sdk/build.js';

// The modules under test import the built SDK: build it first when it is missing or stale.
ensureSdkBuilt();
const { HeatsourceError, HeatsourceNetworkError } = await import('@heatsource/sdk');
const { ConfigFileError, readLogin, writeLogin } = await import('../../src/cli/client-config.js');
const { CliError, EXIT, exitCodeOf } = await import('../../src/cli/exit-codes.js');
const { wantsColour } = await import('../../src/cli/style.js');
const { closestNames, editDistance } = await import('../../src/cli/suggest.js');
const { defaultBundlePath, resolveTarget } = await import('../../src/cli/target.js');
const { wrap } = await import('../../src/cli/text-layout.js');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-target-'));
const config = path.join(dir, 'config.json');
writeLogin({ url: 'https://hs.example.com', api_key: 'ak_live_saved' }, config);
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ HEATSOURCE_CONFIG: config, ...extra });

describe('choosing the source of answers', () => {
  it('flags win over the environment, which wins over the saved login', () => {
    expect(resolveTarget({ bundle: 'b.bundle' }, env({ HEATSOURCE_URL: 'https://x.test' }))).toEqual({
      kind: 'local',
      bundle: 'b.bundle',
      from: 'flag',
    });
    expect(
      resolveTarget({}, env({ HEATSOURCE_URL: 'https://x.test/', HEATSOURCE_API_KEY: 'ak_test_env' })),
    ).toEqual({
      kind: 'remote',
      url: 'https://x.test',
      apiKey: 'ak_test_env',
      from: 'env',
    });
    expect(resolveTarget({}, env({ HEATSOURCE_BUNDLE: 'env.bundle' }))).toMatchObject({
      kind: 'local',
      bundle: 'env.bundle',
    });
    expect(resolveTarget({}, env())).toEqual({
      kind: 'remote',
      url: 'https://hs.example.com',
      apiKey: 'ak_live_saved',
      from: 'login',
    });
    expect(resolveTarget({ offline: true }, env())).toEqual({
      kind: 'local',
      bundle: defaultBundlePath(),
      from: 'default',
    });
    expect(resolveTarget({}, { HEATSOURCE_CONFIG: path.join(dir, 'none.json') })).toMatchObject({
      kind: 'local',
      from: 'default',
    });
  });

  it('sends the saved key only to the saved server', () => {
    expect(resolveTarget({ url: 'https://HS.example.com/' }, env())).toMatchObject({
      apiKey: 'ak_live_saved',
    });
    expect(resolveTarget({ url: 'https://other.example.com' }, env())).toMatchObject({ apiKey: undefined });
    expect(resolveTarget({ url: 'https://other.example.com', key: 'ak_test_flag' }, env())).toMatchObject({
      apiKey: 'ak_test_flag',
    });
  });

  it('refuses contradictory or malformed sources as usage errors', () => {
    for (const flags of [
      { bundle: 'a', url: 'https://x.test' },
      { offline: true, url: 'https://x.test' },
      { url: 'ftp://x' },
    ]) {
      const err = (() => {
        try {
          resolveTarget(flags, env());
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(CliError);
      expect(exitCodeOf(err)).toBe(EXIT.usage);
    }
  });

  it('writes the login readable by its owner only and reports a damaged file', () => {
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(readLogin(config)).toMatchObject({ url: 'https://hs.example.com', api_key: 'ak_live_saved' });
    const damaged = path.join(dir, 'damaged.json');
    fs.writeFileSync(damaged, '{"url":');
    expect(() => readLogin(damaged)).toThrow(ConfigFileError);
  });
});

describe('exit statuses', () => {
  const problem = (status: number, code: string) =>
    new HeatsourceError({ type: 't', title: code, status, detail: code, instance: '/', code });

  it('tell usage, not found, unavailable and credentials apart', () => {
    expect(exitCodeOf(problem(400, 'validation_failed'))).toBe(2);
    expect(exitCodeOf(problem(404, 'brand_not_found'))).toBe(3);
    expect(exitCodeOf(problem(404, 'not_found'))).toBe(4);
    expect(exitCodeOf(problem(503, 'service_unavailable'))).toBe(4);
    expect(exitCodeOf(problem(429, 'rate_limited'))).toBe(4);
    expect(exitCodeOf(problem(429, 'quota_exceeded'))).toBe(5);
    expect(exitCodeOf(problem(401, 'invalid_api_key'))).toBe(5);
    expect(exitCodeOf(new HeatsourceNetworkError('down'))).toBe(4);
    expect(exitCodeOf(new Error('bug'))).toBe(1);
  });
});

describe('helpers of the human output', () => {
  it('suggests the closest brands, aliases included, and nothing far away', () => {
    const known = [
      { name: 'Demotherm', aliases: ['demo therm'] },
      { name: 'Mitsubishi Electric', aliases: ['mitsubishi'] },
      { name: 'Daikin', aliases: [] },
    ];
    expect(editDistance('demothrem', 'demotherm')).toBe(1);
    expect(closestNames('Demothrem', known)).toEqual(['Demotherm']);
    expect(closestNames('mitsubishy', known)).toEqual(['Mitsubishi Electric']);
    expect(closestNames('daik', known)).toEqual(['Daikin']);
    expect(closestNames('Viessmann', known)).toEqual([]);
  });

  it('colours a terminal unless NO_COLOR says otherwise; FORCE_COLOR forces it', () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColour({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('wraps prose with a hanging indent on a terminal and leaves piped lines whole', () => {
    expect(wrap('one two three four', 12, '1. ')).toEqual(['1. one two', '   three', '   four']);
    expect(wrap('one two three four', null, '1. ')).toEqual(['1. one two three four']);
    expect(wrap('a\nb', null, '| ', '| ')).toEqual(['| a', '| b']);
    // A colour applies per line and never runs into the next line's indent.
    expect(wrap('\x1b[2mone two three\x1b[22m', 9, '  ')).toEqual([
      '  \x1b[2mone two\x1b[22m',
      '  \x1b[2mthree\x1b[22m',
    ]);
  });
});
