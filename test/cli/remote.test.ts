import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApi, testApi } from '../api/fixture.js';
import { demoBundle, ensureCliBuilt, heatsource, oneLine } from './helpers.js';

const AQUAFIELD = 'demotherm-aquafield-monobloc-service-en';

let bundle: string;
let api: TestApi;
let url: string;
let key: string;
let accountId: string;
let tmp: string;

beforeAll(async () => {
  ensureCliBuilt();
  bundle = await demoBundle();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-cli-remote-'));
  api = await testApi(bundle, { stateFile: path.join(tmp, 'state.sqlite') });
  const k = await api.key('field-team');
  key = k.secret;
  accountId = k.accountId;
  url = await api.app.listen({ host: '127.0.0.1', port: 0 });
}, 300_000);
afterAll(async () => {
  await api?.close();
});

/** The body the REST API answers for a request, as text. */
async function rest(method: 'GET' | 'POST', route: string, body?: unknown): Promise<string> {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.text();
}

const remote = (...args: string[]) => [...args, '--url', url, '--key', key];

describe.concurrent('against a listening server', () => {
  it('lookup answers with the citation, as offline', async () => {
    const args = ['lookup', '--brand', 'Demotherm', '--model', 'DT-AW080-M', '--code', 'E9'];
    const [online, offline] = await Promise.all([
      heatsource(remote(...args)),
      heatsource([...args, '--bundle', bundle]),
    ]);
    expect(online.code, online.stderr).toBe(0);
    expect(online.stdout.split('\n')[0]).toBe('E9 · Water flow error');
    expect(online.stdout).toContain(`heatsource snapshot ${AQUAFIELD} 7`);
    expect(online.stdout).toBe(offline.stdout);
  });

  it('--json prints exactly the REST body, online and offline alike', async () => {
    const cases: [string[], 'GET' | 'POST', string, unknown?][] = [
      [
        ['lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9'],
        'POST',
        '/v1/diagnostic',
        { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' },
      ],
      [
        ['lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', '--strict'],
        'POST',
        '/v2/diagnostic',
        { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' },
      ],
      [['search', 'flow switch', '--limit', '3'], 'GET', '/v1/search?q=flow+switch&limit=3'],
      [['code', 'Demotherm', 'E9'], 'GET', '/v1/error-codes/Demotherm/E9'],
      [['product', 'Demotherm', 'DT-AW080-M'], 'GET', '/v1/products/Demotherm/DT-AW080-M'],
      [
        ['resolve', 'Aquafield', '--brand', 'Demotherm'],
        'POST',
        '/v2/models/resolve',
        { brand: 'Demotherm', model: 'Aquafield' },
      ],
      [['registry'], 'GET', '/v1/registry?limit=50'],
    ];
    await Promise.all(
      cases.map(async ([args, method, route, body]) => {
        const [expected, online, offline] = await Promise.all([
          rest(method, route, body),
          heatsource(remote(...args, '--json')),
          heatsource([...args, '--json', '--bundle', bundle]),
        ]);
        expect(online.stdout, args.join(' ')).toBe(`${expected}\n`);
        expect(offline.stdout, args.join(' ')).toBe(`${expected}\n`);
      }),
    );
  });

  it('snapshot fetches the same image as offline', async () => {
    const online = path.join(tmp, 'online.webp');
    const offline = path.join(tmp, 'offline.webp');
    const [a, b] = await Promise.all([
      heatsource(remote('snapshot', AQUAFIELD, '7', '--out', online)),
      heatsource(['snapshot', AQUAFIELD, '7', '--out', offline, '--bundle', bundle]),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(fs.readFileSync(online).equals(fs.readFileSync(offline))).toBe(true);
  });

  it('a problem answered by the server keeps its exit status, and --json prints the problem document', async () => {
    const r = await heatsource(remote('code', 'Demoterm', 'E9', '--json'));
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 404, code: 'brand_not_found' });
    expect(oneLine(r.stderr)).toContain('did you mean Demotherm?');
  });

  it('HEATSOURCE_URL and HEATSOURCE_API_KEY choose the server', async () => {
    const r = await heatsource(['me', '--json'], { HEATSOURCE_URL: url, HEATSOURCE_API_KEY: key });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).account.id).toBe(accountId);
  });
});

describe('credentials and failures', () => {
  it('login checks the key, saves it readable by its owner only, and later commands use it', async () => {
    const config = path.join(tmp, 'home', '.heatsource', 'config.json');
    const env = { HEATSOURCE_CONFIG: config };
    const login = await heatsource(['login', '--url', `${url}/`, '--key', key], env);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('account "field-team"');
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toMatchObject({ url, api_key: key });

    const [me, offline, other] = await Promise.all([
      heatsource(['me'], env),
      heatsource(['me', '--offline', '--bundle', bundle], env),
      // The saved key goes to the saved server only.
      heatsource(['me', '--url', url.replace('127.0.0.1', 'localhost')], env),
    ]);
    expect(me.code, me.stderr).toBe(0);
    expect(me.stdout).toContain('field-team');
    expect(me.stdout).toContain(`Server: ${url}`);
    expect(offline.stdout).toContain('offline calls are not billed');
    expect(other.code).toBe(5);
    expect(oneLine(other.stderr)).toContain('no API key');

    const forget = await heatsource(['login', '--forget'], env);
    expect(forget.code).toBe(0);
    expect(fs.existsSync(config)).toBe(false);
  });

  it('login refuses a wrong key without saving it', async () => {
    const config = path.join(tmp, 'wrong', 'config.json');
    const r = await heatsource(['login', '--url', url, '--key', 'ak_test_wrongwrongwrongwrongwrongwrong'], {
      HEATSOURCE_CONFIG: config,
    });
    expect(r.code).toBe(5);
    expect(oneLine(r.stderr)).toContain('invalid_api_key');
    expect(fs.existsSync(config)).toBe(false);
    const notAKey = await heatsource(['login', '--url', url, '--key', 'hunter2'], {
      HEATSOURCE_CONFIG: config,
    });
    expect(notAKey.code).toBe(2);
  });

  it('auth, quota and network failures have their own exit statuses and one line each', async () => {
    const broke = await api.key('broke', { quota: 0 });
    const [bad, quota, down] = await Promise.all([
      heatsource(['me', '--url', url, '--key', 'ak_live_notakeynotakeynotakeynotakey']),
      heatsource([
        'lookup',
        '-b',
        'Demotherm',
        '-m',
        'DT-AW080-M',
        '-c',
        'E9',
        '--url',
        url,
        '--key',
        broke.secret,
      ]),
      heatsource(['me', '--url', 'http://127.0.0.1:9', '--key', key, '--timeout', '2']),
    ]);
    expect(bad.code).toBe(5);
    expect(oneLine(bad.stderr)).toMatch(/^heatsource: .*\(invalid_api_key\)/);
    expect(quota.code).toBe(5);
    expect(oneLine(quota.stderr)).toContain('quota_exceeded');
    expect(down.code).toBe(4);
    expect(oneLine(down.stderr)).toContain('cannot reach http://127.0.0.1:9');
  });

  it('me shows the quota used by billable answers', async () => {
    const counted = await api.key('counted', { quota: 10 });
    const args = ['--url', url, '--key', counted.secret];
    await heatsource(['lookup', '-b', 'Demotherm', '-m', 'DT-AW080-M', '-c', 'E9', ...args]);
    const me = await heatsource(['me', ...args]);
    expect(me.stdout).toContain('Quota: 1 of 10 used');
    expect(me.stdout).toMatch(/Key: ak_test_\S+… \(test\)/);
  });
});
