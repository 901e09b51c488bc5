import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleServer,
  chromiumMissing,
  consoleServer,
  LOCAL_EMAIL,
  launchChromium,
} from './harness.js';

/**
 * The account holder's path through the console in headless Chromium, against `serve` as `npm start`
 * runs it: the invitation it prints, a password, keys, usage, and a look-up with its highlighted page.
 */
const missing = chromiumMissing();
if (missing) console.warn(`console browser suite skipped: ${missing}`);

let server: ConsoleServer;
let browser: Browser;
let page: Page;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  if (missing) return;
  server = await consoleServer();
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
  page.setDefaultTimeout(10_000);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** With HEATSOURCE_SCREENSHOTS=DIR, each page is shot at desktop and phone widths into DIR (docs/console). */
const SHOTS = process.env.HEATSOURCE_SCREENSHOTS;
async function shot(name: string): Promise<void> {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [suffix, size] of [
    ['desktop', { width: 1280, height: 800 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    const png = await page.screenshot({ fullPage: true });
    await sharp(png)
      .webp({ quality: 80 })
      .toFile(path.join(SHOTS, `${name}-${suffix}.webp`));
  }
  await page.setViewportSize({ width: 1200, height: 900 });
}

async function api(path: string, key: string, body?: unknown): Promise<Response> {
  return fetch(`${server.base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function usedUnits(): Promise<number> {
  await page.goto(`${server.base}/console/usage`);
  return Number(await page.locator('[data-used]').textContent());
}

describe.skipIf(missing)('console in a browser', () => {
  let secret = '';

  it('follows the invitation, sets a password and is signed in', async () => {
    await page.goto(server.invitation);
    await expect(page.locator('h1').textContent()).resolves.toBe('Set your password');
    await shot('invitation');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL('**/console/keys');
    expect(await page.locator('h1').textContent()).toBe('API keys');
    expect(await page.locator('.who span').textContent()).toBe('local');
  });

  it('signs out, and signs in again with the password', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/sign-in?signed_out=1');
    await page.goto(`${server.base}/console/keys`);
    await page.waitForURL('**/console/sign-in');
    await shot('sign-in');
    // By keyboard alone: the skip link comes first, then the header, then the form; Enter submits.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
    await page.keyboard.type(LOCAL_EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/console/keys');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'hs_session');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    expect(session?.secure).toBe(false);
  });

  it('creates a live key and shows it once, with a copy button', async () => {
    await page.getByLabel('Label').fill('workshop tablet');
    await page.getByLabel('Live').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL('**/console/keys');
    secret = await page.locator('[data-new-key]').inputValue();
    expect(secret).toMatch(/^ak_live_[A-Za-z0-9_-]{32}$/);
    await shot('keys-new-key');
    await expect(page.getByRole('button', { name: 'Copy' }).isVisible()).resolves.toBe(true);
    // Read from the screen: monospaced (l and I differ), and whole on a phone rather than cut off.
    const keyBox = page.locator('[data-new-key]');
    expect(await keyBox.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
    await page.setViewportSize({ width: 390, height: 844 });
    const fits = await keyBox.evaluate((el) => ({
      wide: el.scrollWidth <= el.clientWidth,
      tall: el.scrollHeight <= el.clientHeight,
    }));
    expect(fits).toEqual({ wide: true, tall: true });
    await page.setViewportSize({ width: 1200, height: 900 });
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).not.toContain('….');
    // Live and test keys are explained where one is chosen, with whether test calls count.
    expect(text).toMatch(/Test keys[\s\S]*count against the quota/);
    const me = await api('/v1/me', secret);
    expect(me.status).toBe(200);
    const body = (await me.json()) as { account: { name: string }; key: { prefix: string; mode: string } };
    expect(body.account.name).toBe('local');
    expect(body.key.mode).toBe('live');
    expect(secret.startsWith(body.key.prefix)).toBe(true);

    await page.reload();
    expect(await page.locator('[data-new-key]').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const row = page.locator('tr', { hasText: `${body.key.prefix}…` });
    expect(await row.textContent()).toContain('workshop tablet');
    await shot('keys');
  });

  it('shows usage rising after a billable call', async () => {
    const before = await usedUnits();
    const r = await api('/v1/diagnostic', secret, server.example);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { billable: boolean }).billable).toBe(true);
    expect(await usedUnits()).toBe(before + 1);
    expect(await page.locator('[data-ledger] tbody tr').first().textContent()).toContain(secret.slice(0, 14));
    expect(await page.locator('[data-chart] rect').count()).toBeGreaterThanOrEqual(28);
    expect(await page.locator('[data-test-keys]').textContent()).toContain('counted like live ones');
    await page.setViewportSize({ width: 390, height: 844 });
    // The day labels under the chart never overlap, and the reset date stays on one line.
    const labels = await page.locator('[data-chart] text').evaluateAll((els) =>
      els
        .map((e) => e.getBoundingClientRect())
        .filter((r) => r.top > 0)
        .map((r) => ({ left: r.left, right: r.right, top: r.top })),
    );
    const axis = labels.filter((l) => Math.abs(l.top - Math.max(...labels.map((x) => x.top))) < 2);
    axis.sort((a, b) => a.left - b.left);
    expect(axis.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i < axis.length; i++) expect(axis[i]!.left).toBeGreaterThan(axis[i - 1]!.right);
    const reset = await page.locator('.figures time').evaluate((el) => ({
      lines: el.getClientRects().length,
      inside: el.getBoundingClientRect().right <= (el.closest('div')?.getBoundingClientRect().right ?? 0),
    }));
    expect(reset).toEqual({ lines: 1, inside: true });
    await page.setViewportSize({ width: 1200, height: 900 });
    const csv = await page.request.get(`${server.base}/console/usage.csv`);
    expect(csv.headers()['content-type']).toContain('text/csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('created_at,operation,units,key_prefix,request_id,idempotency_key,period');
    expect(lines.length - 1).toBe(before + 1);
    await shot('usage');
  });

  it('revokes the key after confirmation, and the API refuses it at once', async () => {
    await page.goto(`${server.base}/console/keys`);
    await page.getByRole('link', { name: `Revoke ${secret.slice(0, 14)}…` }).click();
    expect(await page.locator('h1').textContent()).toContain('Revoke key');
    await shot('revoke');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.waitForURL('**/console/keys?revoked=*');
    expect(await page.locator('.notice').textContent()).toContain('is revoked');
    const me = await api('/v1/me', secret);
    expect(me.status).toBe(401);
    expect(((await me.json()) as { code: string }).code).toBe('api_key_revoked');
  });

  it('looks up an error code and shows the cited page with the cited lines highlighted', async () => {
    await page.goto(`${server.base}/console/try`);
    await page.getByLabel('Brand').fill(server.example.brand);
    await page.getByLabel('Model').fill(server.example.model);
    await page.getByLabel('Error code', { exact: true }).fill(server.example.error_code);
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.locator('.result').getAttribute('data-state')).resolves.toBe('answer');
    expect(await page.locator('.steps li').count()).toBeGreaterThan(0);
    const img = page.locator('figure.page img');
    await img.evaluate((el: HTMLImageElement) => el.decode());
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(100);
    const highlights = page.locator('figure.page rect[data-highlight]');
    expect(await highlights.count()).toBeGreaterThan(0);
    // The highlight lies on the image and covers a small part of it: the cited lines, not the page.
    const imgBox = (await img.boundingBox())!;
    const hl = (await highlights.first().boundingBox())!;
    expect(hl.y).toBeGreaterThanOrEqual(imgBox.y - 1);
    expect(hl.y + hl.height).toBeLessThanOrEqual(imgBox.y + imgBox.height + 1);
    expect(hl.height).toBeLessThan(imgBox.height / 8);
    await shot('try-answer');

    await page.getByRole('link', { name: 'Open full size' }).click();
    await page.waitForURL('**/console/page?*');
    expect(await page.locator('figure.page.large rect[data-highlight]').count()).toBeGreaterThan(0);
    const large = (await page.locator('figure.page.large img').boundingBox())!;
    expect(large.width).toBeGreaterThan(imgBox.width);
    await shot('page-full-size');
  });

  it('searches the manuals by free text', async () => {
    await page.goto(`${server.base}/console/try`);
    await page.getByLabel('Question or keywords').fill('pressure');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.locator('.result').getAttribute('data-state')).resolves.toBe('search');
    expect(await page.locator('.hits li').count()).toBeGreaterThan(0);
    expect(await page.locator('figure.page rect[data-highlight]').count()).toBeGreaterThan(0);
    await shot('try-search');
  });

  it('serves assets under hashed names with immutable caching', async () => {
    const href = await page.locator('link[rel=stylesheet]').getAttribute('href');
    expect(href).toMatch(/^\/console\/assets\/console\.[0-9a-f]{12}\.css$/);
    const r = await fetch(`${server.base}${href}`);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The icon every browser asks for is there, not a 404 on every page.
    const icon = await fetch(`${server.base}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('names its icon on every page, an image the console policy lets it load', async () => {
    // The policy allows images from the console's own origin only (img-src 'self'), icons included.
    const csp = (await fetch(`${server.base}/console/sign-in`)).headers.get('content-security-policy');
    expect(csp).toContain("img-src 'self'");
    for (const path of ['/console/keys', '/console/usage', '/console/try']) {
      await page.goto(`${server.base}${path}`);
      const link = page.locator('head link[rel=icon]');
      expect(await link.count(), path).toBe(1);
      const href = await link.evaluate((el) => (el as HTMLLinkElement).href);
      expect(new URL(href).origin).toBe(new URL(server.base).origin);
      const icon = await fetch(href);
      expect(icon.status, path).toBe(200);
      expect(icon.headers.get('content-type')).toBe('image/svg+xml');
      expect(await icon.text()).toMatch(/^<svg /);
    }
    const signIn = await (await fetch(`${server.base}/console/sign-in`)).text();
    expect(signIn).toContain('<link rel="icon" href="/favicon.ico" type="image/svg+xml">');
    expect(await page.locator('head link[rel=icon]').getAttribute('href')).toBe('/favicon.ico');
  });
});
