import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteHolder } from '../../src/state/invitations.js';
import { type ConsoleServer, consoleServer } from './harness.js';

/**
 * The console's defences, through real HTTP requests as a browser would send them (cookies, forms):
 * CSRF, isolation between accounts, sign-in throttling without account enumeration, one-use invitations.
 */
let server: ConsoleServer;

beforeAll(async () => {
  // As behind the reverse proxy of docs/DEPLOY.md: the loopback peer is the proxy, X-Forwarded-For the client.
  server = await consoleServer({ trustProxy: ['127.0.0.1'] });
}, 240_000);
afterAll(async () => {
  await server?.close();
});

/** A browser without the browser: keeps cookies, never follows redirects, posts forms. */
class Visitor {
  private readonly jar = new Map<string, string>();

  async request(path: string, form?: Record<string, string>, headers: Record<string, string> = {}) {
    const r = await fetch(`${server.base}${path}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const c of r.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value && !/Expires=Thu, 01 Jan 1970/i.test(c)) this.jar.set(pair.slice(0, eq), value);
      else this.jar.delete(pair.slice(0, eq));
    }
    return { status: r.status, location: r.headers.get('location'), text: await r.text() };
  }

  /** The CSRF token of the form on a page. */
  async csrf(path: string): Promise<string> {
    const page = await this.request(path);
    const m = /name="csrf" value="([^"]+)"/.exec(page.text);
    if (!m) throw new Error(`no form on ${path} (${page.status})`);
    return m[1]!;
  }

  async acceptInvitation(url: string, password: string) {
    const path = url.slice(server.base.length);
    const token = new URL(url).searchParams.get('token')!;
    const csrf = await this.csrf(path);
    return this.request('/console/invitation', { csrf, token, password, confirm: password });
  }

  async signIn(email: string, password: string, headers: Record<string, string> = {}) {
    const csrf = await this.csrf('/console/sign-in');
    return this.request('/console/sign-in', { csrf, email, password }, headers);
  }

  async createKey(label: string): Promise<string> {
    const csrf = await this.csrf('/console/keys');
    const r = await this.request('/console/keys', { csrf, mode: 'live', label });
    expect(r.status).toBe(303);
    const page = await this.request('/console/keys');
    return /data-new-key>(ak_live_[^<]+)</.exec(page.text)![1]!;
  }
}

async function holder(account: string, email: string, password: string): Promise<Visitor> {
  const inv = await inviteHolder(server.state, { account, email, baseUrl: server.base });
  const v = new Visitor();
  const r = await v.acceptInvitation(inv.url, password);
  expect(r.status).toBe(303);
  expect(r.location).toBe('/console/keys');
  return v;
}

async function keyIdOf(accountName: string, secret: string): Promise<string> {
  const account = (await server.state.accountByName(accountName))!;
  const keys = await server.state.keys(account.id);
  return keys.find((k) => secret.startsWith(k.prefix))!.id;
}

describe('console security', () => {
  it('refuses form posts without the CSRF token of the session, or from another origin', async () => {
    const v = await holder('csrf-co', 'a@csrf.example', 'a long enough password');
    const account = (await server.state.accountByName('csrf-co'))!;
    const before = (await server.state.keys(account.id)).length;
    const missing = await v.request('/console/keys', { mode: 'live', label: 'x' });
    expect(missing.status).toBe(403);
    const wrong = await v.request('/console/keys', { csrf: 'A'.repeat(43), mode: 'live', label: 'x' });
    expect(wrong.status).toBe(403);
    const csrf = await v.csrf('/console/keys');
    const foreign = await v.request(
      '/console/keys',
      { csrf, mode: 'live', label: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect((await server.state.keys(account.id)).length).toBe(before);
    // The same form with the token is accepted: the refusals above were for the token, not the form.
    const ok = await v.request('/console/keys', { csrf, mode: 'live', label: 'x' });
    expect(ok.status).toBe(303);
    expect((await server.state.keys(account.id)).length).toBe(before + 1);
  });

  it("keeps one account's keys and usage from another account's session", async () => {
    const alice = await holder('alice-co', 'alice@example.com', 'alice has a long password');
    const bob = await holder('bob-co', 'bob@example.com', 'bob has a long password too');
    const aliceKey = await alice.createKey('alice key');
    const call = await fetch(`${server.base}/v1/diagnostic`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${aliceKey}`,
        'content-type': 'application/json',
        'x-request-id': 'alice-request-1',
      },
      body: JSON.stringify(server.example),
    });
    expect(call.status).toBe(200);
    const aliceKeyId = await keyIdOf('alice-co', aliceKey);
    expect((await alice.request('/console/usage')).text).toContain('alice-request-1');

    const bobKeys = await bob.request('/console/keys');
    expect(bobKeys.text).not.toContain(aliceKey.slice(0, 14));
    expect((await bob.request(`/console/keys/${aliceKeyId}/revoke`)).status).toBe(404);
    const csrf = await bob.csrf('/console/keys');
    expect((await bob.request(`/console/keys/${aliceKeyId}/revoke`, { csrf })).status).toBe(404);
    const me = await fetch(`${server.base}/v1/me`, { headers: { authorization: `Bearer ${aliceKey}` } });
    expect(me.status).toBe(200);
    const bobUsage = await bob.request('/console/usage');
    expect(bobUsage.status).toBe(200);
    expect(bobUsage.text).not.toContain('alice-request-1');
    expect((await bob.request('/console/usage.csv')).text).not.toContain('alice-request-1');
    expect((await alice.request('/console/usage.csv')).text).toContain('alice-request-1');
  });

  it('throttles sign-in per email, with the same message for unknown emails', async () => {
    await holder('throttle-co', 'carol@example.com', 'carol has a long password');
    const v = new Visitor();
    const unknown = await v.signIn('nobody@example.com', 'whatever password');
    const wrong = await v.signIn('carol@example.com', 'not her password');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const message = (t: string) => /class="notice error"[^>]*>([^<]+)</.exec(t)?.[1];
    expect(message(unknown.text)).toBe(message(wrong.text));
    for (let i = 0; i < 4; i++) expect((await v.signIn('carol@example.com', `wrong ${i}`)).status).toBe(401);
    // Five failures: even the right password is refused until the window passes.
    const right = await v.signIn('carol@example.com', 'carol has a long password');
    expect(right.status).toBe(429);
    expect(message(right.text)).toContain('Too many failed sign-ins');
    // Another email from the same address is not locked out by carol's failures.
    await holder('throttle-2', 'dave@example.com', 'dave has a long password');
    expect((await new Visitor().signIn('dave@example.com', 'dave has a long password')).status).toBe(303);
  });

  it('lets no more than the limit of concurrent wrong passwords for one email reach the password check', async () => {
    await holder('race-co', 'gina@example.com', 'gina has a long password');
    // Forty attempts at once, each from its own client (behind the trusted proxy) so that only the
    // email's limit of five applies.
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new Visitor().signIn('gina@example.com', `wrong guess ${i}`, {
          'x-forwarded-for': `192.0.2.${i + 1}`,
        }),
      ),
    );
    const statuses = attempts.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length + statuses.filter((s) => s === 429).length).toBe(40);
    expect((await new Visitor().signIn('gina@example.com', 'gina has a long password')).status).toBe(429);
  });

  it('does not count successful sign-ins against the client address', async () => {
    await holder('office-co', 'hal@example.com', 'hal has a long password');
    for (let i = 0; i < 25; i++) {
      const r = await new Visitor().signIn('hal@example.com', 'hal has a long password', {
        'x-forwarded-for': '198.51.100.77',
      });
      expect(r.status, `sign-in ${i + 1}`).toBe(303);
    }
  });

  it('throttles sign-in per client address behind a trusted proxy, not per proxy', async () => {
    await holder('proxy-co', 'frank@example.com', 'frank has a long password');
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const v = new Visitor();
    // Twenty failures from one client, each for another email so that no email is locked out.
    for (let i = 0; i < 20; i++) {
      expect((await v.signIn(`guess${i}@example.com`, 'a wrong password', from('203.0.113.7'))).status).toBe(
        401,
      );
    }
    const blocked = await v.signIn('frank@example.com', 'frank has a long password', from('203.0.113.7'));
    expect(blocked.status).toBe(429);
    // Another client behind the same proxy signs in.
    const other = await new Visitor().signIn(
      'frank@example.com',
      'frank has a long password',
      from('198.51.100.4'),
    );
    expect(other.status).toBe(303);
  });

  it('refuses an invitation used once already', async () => {
    const inv = await inviteHolder(server.state, {
      account: 'reuse-co',
      email: 'erin@example.com',
      baseUrl: server.base,
    });
    // A refused password leaves the invitation usable.
    const first = new Visitor();
    const csrf0 = await first.csrf(inv.url.slice(server.base.length));
    const token0 = new URL(inv.url).searchParams.get('token')!;
    const short = await first.request('/console/invitation', {
      csrf: csrf0,
      token: token0,
      password: 'short',
      confirm: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.text).toContain('at least 12 characters');
    // Blank, padded and single-character passwords are refused too, and leave the invitation usable.
    for (const weak of [' '.repeat(12), `  ${'abc'}${' '.repeat(12)}`, 'a'.repeat(16), '\t'.repeat(20)]) {
      const r = await first.request('/console/invitation', {
        csrf: csrf0,
        token: token0,
        password: weak,
        confirm: weak,
      });
      expect(r.status, JSON.stringify(weak)).toBe(400);
      expect(r.text).toMatch(/at least 12 characters|different characters/);
    }
    expect((await first.acceptInvitation(inv.url, 'erin first password')).status).toBe(303);
    const again = new Visitor();
    const page = await again.request(inv.url.slice(server.base.length));
    expect(page.status).toBe(410);
    const csrf = await again.csrf('/console/sign-in');
    const token = new URL(inv.url).searchParams.get('token')!;
    const post = await again.request('/console/invitation', {
      csrf,
      token,
      password: 'erin second password',
      confirm: 'erin second password',
    });
    expect(post.status).toBe(410);
    expect((await new Visitor().signIn('erin@example.com', 'erin second password')).status).toBe(401);
    expect((await new Visitor().signIn('erin@example.com', 'erin first password')).status).toBe(303);
  });

  it('ends an earlier invitation link when the same email is invited again', async () => {
    const leaked = await inviteHolder(server.state, {
      account: 'reinvite-co',
      email: 'rae@example.com',
      baseUrl: server.base,
    });
    const fresh = await inviteHolder(server.state, {
      account: 'reinvite-co',
      email: 'rae@example.com',
      baseUrl: server.base,
    });
    const owner = new Visitor();
    expect((await owner.acceptInvitation(fresh.url, 'rae chose this one')).status).toBe(303);
    const thief = new Visitor();
    expect((await thief.request(leaked.url.slice(server.base.length))).status).toBe(410);
    const csrf = await thief.csrf('/console/sign-in');
    const token = new URL(leaked.url).searchParams.get('token')!;
    const post = await thief.request('/console/invitation', {
      csrf,
      token,
      password: 'thief takes over',
      confirm: 'thief takes over',
    });
    expect(post.status).toBe(410);
    // The owner's session lives on and the password is the owner's.
    expect((await owner.request('/console/keys')).status).toBe(200);
    expect((await new Visitor().signIn('rae@example.com', 'rae chose this one')).status).toBe(303);
  });

  it('marks cookies Secure when the request came over HTTPS (here: through a proxy saying so)', async () => {
    const plain = await fetch(`${server.base}/console/sign-in`);
    const viaTls = await fetch(`${server.base}/console/sign-in`, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    const cookie = (r: Response) => r.headers.getSetCookie().find((c) => c.startsWith('hs_pre='))!;
    expect(cookie(plain)).toMatch(/HttpOnly/);
    expect(cookie(plain)).toMatch(/SameSite=Strict/);
    expect(cookie(plain)).not.toMatch(/Secure/);
    expect(cookie(viaTls)).toMatch(/; Secure/);
  });

  it('needs a session for every page and for snapshots', async () => {
    const v = new Visitor();
    for (const path of ['/console/keys', '/console/usage', '/console/usage.csv', '/console/try']) {
      const r = await v.request(path);
      expect(r.status, path).toBe(303);
      expect(r.location).toBe('/console/sign-in');
    }
    expect((await v.request('/console/snapshot/x/1')).status).toBe(401);
  });
});
