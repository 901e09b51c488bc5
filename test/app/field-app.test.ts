import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFieldApp } from '../../scripts/build-app.js';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import type { SearchResponse } from '../../src/contract/search.js';
import { surfaces } from '../../src/serve/surfaces.js';
import { type TestApi, testApi } from '../api/fixture.js';
import { chromiumMissing, launchChromium } from '../console/harness.js';
import { demoBundle } from '../mcp/harness.js';

const missing = chromiumMissing();
const REQUEST = { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' };
const QUERY = { q: 'low water flow', brand: 'Demotherm' };

/**
 * The field app in headless Chromium at a phone's size: installs its service worker, keeps the Demotherm
 * manuals offline, then with the network cut and the page reloaded answers as the server did.
 */
describe.skipIf(missing)('the field app at /app, offline in Chromium', () => {
  let api: TestApi;
  let base: string;
  let secret: string;
  let accountName: string;
  let dispose: () => void;
  let appDir: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let online: DiagnosticResponse;
  let onlineSearch: SearchResponse;

  beforeAll(async () => {
    appDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-app-'));
    await buildFieldApp(appDir);
    const demo = await demoBundle();
    dispose = demo.dispose;
    api = await testApi(demo.bundle, {
      extend: surfaces({ console: false, fieldApp: { dir: appDir } }).extend,
    });
    accountName = 'field-tech';
    secret = (await api.key(accountName, { quota: 100 })).secret;
    base = await api.app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    online = (await (
      await fetch(`${base}/v1/diagnostic`, { method: 'POST', headers, body: JSON.stringify(REQUEST) })
    ).json()) as DiagnosticResponse;
    expect(online.state).toBe('answer');
    onlineSearch = (await (
      await fetch(`${base}/v1/search?${new URLSearchParams({ ...QUERY, limit: '10' })}`, { headers })
    ).json()) as SearchResponse;
    expect(onlineSearch.results.length).toBeGreaterThan(0);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'allow' });
    page = await context.newPage();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    dispose?.();
    if (appDir) fs.rmSync(appDir, { recursive: true, force: true });
  });

  const noHorizontalScroll = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  /** Starts a guided session from the app's form on the unit of REQUEST; the session's view. */
  const startGuidedSession = async (language: 'en' | 'fr' = 'en') => {
    const form = page.locator('#guided-form');
    await form.getByLabel('Brand').fill(REQUEST.brand);
    await form.getByLabel('Model').fill(REQUEST.model);
    await form.getByLabel('Error code').fill(REQUEST.error_code);
    await form.getByLabel('Steps in').selectOption(language);
    await page.getByRole('button', { name: 'Start guided troubleshooting' }).click();
    return page.locator('#guided-session');
  };

  it('installs its service worker, connects and shows the account and quota', async () => {
    await page.goto(`${base}/app/`);
    await page.waitForSelector('body[data-ready="true"]');
    const active = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state ?? null;
    });
    expect(['activating', 'activated']).toContain(active);
    const manifest = await page.evaluate(() =>
      document.querySelector('link[rel=manifest]')?.getAttribute('href'),
    );
    expect(manifest).toBe('manifest.webmanifest');
    const server = page.locator('#connect-form').getByLabel('Server address');
    expect(await server.inputValue()).toBe(base);
    await page.locator('#connect-form').getByLabel('API key').fill(secret);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('#account').textContent()).toContain(accountName);
    expect(await page.locator('#account').textContent()).toMatch(/\d+ of 100 look-ups used/);
  });

  it('keeps Demotherm offline and shows the pack, its size and date', async () => {
    const brand = page.getByLabel(/Demotherm/);
    await brand.check();
    await page.getByRole('button', { name: 'Keep offline' }).click();
    await page.waitForSelector('[data-kept="Demotherm"]', { timeout: 60_000 });
    const kept = await page.locator('#kept li.pack').textContent();
    expect(kept).toMatch(/Demotherm/);
    expect(kept).toMatch(/\d+\.\d MB/);
    expect(kept).toMatch(/pack of \d{1,2} \w{3} \d{4}/);
  });

  it('with the network cut and the page reloaded, looks up DT-AW080-M E9 as POST /v1/diagnostic answers it', async () => {
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#net-status').getAttribute('data-online')).toBe('false');
    const form = page.locator('#lookup-form');
    await form.getByLabel('Brand').fill(REQUEST.brand);
    await form.getByLabel('Model').fill(REQUEST.model);
    await form.getByLabel('Error code').fill(REQUEST.error_code);
    await page.getByRole('button', { name: 'Look up' }).click();
    const result = page.locator('#lookup-result');
    await result.locator('.title').waitFor();
    expect(await result.locator('.source').getAttribute('data-source')).toBe('pack');
    expect(await result.locator('.source').textContent()).toMatch(/offline pack of \d{1,2} \w{3} \d{4}/);
    expect(await result.locator('.title').textContent()).toBe(`${online.error_code}: ${online.title}`);
    expect(await result.locator('blockquote.excerpt').textContent()).toBe(online.excerpt!.text);
    const citation = await result.locator('.citation').first().textContent();
    expect(citation).toContain(online.citation!.title);
    expect(citation).toContain(`page ${online.citation!.page}`);
    const steps = await result.locator('ol.steps li').allTextContents();
    expect(steps.length).toBe(online.steps.length);
    online.steps.forEach((s, i) => {
      expect(steps[i]).toContain(s.text);
    });
    // The cited page, from the pack, with the row highlighted.
    const figure = result.locator('figure.page');
    expect(await figure.getAttribute('data-page')).toBe(String(online.excerpt!.page));
    expect(await figure.locator('rect.hl').count()).toBeGreaterThan(0);
    const loaded = await figure
      .locator('img')
      .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
    expect(loaded).toBeGreaterThan(100);
    expect(await noHorizontalScroll()).toBe(true);
  });

  it('searches offline with the results the server gave, and shows a result page highlighted', async () => {
    const form = page.locator('#search-form');
    await form.getByLabel('Brand').fill(QUERY.brand);
    await form.getByLabel('Search').fill(QUERY.q);
    await page.getByRole('button', { name: 'Search' }).click();
    const result = page.locator('#search-result');
    await result.locator('li.result').first().waitFor();
    expect(await result.locator('.source').getAttribute('data-source')).toBe('pack');
    const snippets = await result.locator('li.result .snippet').allTextContents();
    expect(snippets).toEqual(onlineSearch.results.map((r) => r.snippet));
    await result.getByRole('button', { name: 'Show the page' }).first().click();
    const figure = result.locator('figure.page').first();
    await figure.waitFor();
    expect(await figure.getAttribute('data-page')).toBe(String(onlineSearch.results[0]!.page));
    expect(await figure.locator('rect.hl').count()).toBeGreaterThan(0);
    expect(await noHorizontalScroll()).toBe(true);
  });

  it('runs a guided session offline, which reaches the server once the network returns, charged once', async () => {
    const view = await startGuidedSession();
    await view.locator('.prompt').waitFor();
    expect(await view.locator('#guided-sync').getAttribute('data-sync')).toBe('pending');
    await view.getByRole('button', { name: "Can't check" }).click();
    await expect.poll(() => view.getAttribute('data-answers')).toBe('1');
    const status = await view.getAttribute('data-status');
    const key = await view.locator('#guided-sync').getAttribute('data-key');
    expect(await noHorizontalScroll()).toBe(true);

    const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' };
    const used = async () =>
      ((await (await fetch(`${base}/v1/me`, { headers })).json()) as { quota: { used: number } }).quota.used;
    const before = await used();
    await context.setOffline(false);
    await expect
      .poll(() => view.locator('#guided-sync').getAttribute('data-sync'), { timeout: 20_000 })
      .toBe('synced');
    const id = await view.locator('#guided-sync').getAttribute('data-server-id');
    expect(id).toMatch(/^ds_/);
    const stored = await fetch(`${base}/v2/diagnostic-sessions/${id}`, { headers });
    expect(stored.status).toBe(200);
    const session = (await stored.json()) as { history: unknown[]; status: string };
    expect(session.history).toHaveLength(1);
    expect(session.status).toBe(status);
    expect(await used()).toBe(before + 1);
    // Sending the start again, as a retry would, replays it: no second charge.
    const again = await fetch(`${base}/v2/diagnostic-sessions`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': key! },
      body: JSON.stringify(REQUEST),
    });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(id);
    expect(await used()).toBe(before + 1);
  });

  it('a session handed on lists the repairs left, each with what must come first', async () => {
    const view = await startGuidedSession();
    // Three steps the technician cannot answer: the session hands the job on.
    for (let answered = 1; answered <= 3; answered++) {
      await view.getByRole('button', { name: "Can't check" }).click();
      await expect.poll(() => view.getAttribute('data-answers')).toBe(String(answered));
    }
    expect(await view.getAttribute('data-status')).toBe('escalated');
    const items = await view.locator('ol.repair-plan li').allTextContents();
    expect(items.length).toBeGreaterThan(0);
    expect(items).toContain('Replace the flow switch (only once a check confirms the part)');
    expect(items).toContain('Top up the water pressure (only after this reading: read the water pressure)');
    expect(await noHorizontalScroll()).toBe(true);
  });

  it('runs a session in French when asked, down to the repairs left', async () => {
    const view = await startGuidedSession('fr');
    await view.locator('.prompt').waitFor();
    // The words around the steps are French too.
    expect(await view.getByRole('button', { name: "Can't check" }).count()).toBe(0);
    expect(await view.getByRole('button', { name: 'Fermer la session' }).count()).toBe(1);
    for (let answered = 1; answered <= 3; answered++) {
      await view.getByRole('button', { name: 'Impossible à vérifier' }).click();
      await expect.poll(() => view.getAttribute('data-answers')).toBe(String(answered));
    }
    expect(await view.textContent()).toContain("Réparations restant à essayer, la plus utile d'abord");
    const items = await view.locator('ol.repair-plan li').allTextContents();
    expect(items).toContain(
      "Refaire l'appoint en eau (seulement après ce relevé : relever la pression d'eau)",
    );
  });

  it('online, a search for a brand with no manual names the brand as the reason', async () => {
    const form = page.locator('#search-form');
    await form.getByLabel('Brand').fill('Acme');
    await form.getByLabel('Search').fill(QUERY.q);
    await page.getByRole('button', { name: 'Search' }).click();
    const state = page.locator('#search-result p.state');
    await state.waitFor();
    expect(await state.textContent()).toBe('No manual of brand “Acme” here.');
  });

  it('keeps touch targets at least 44 px', async () => {
    const small = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll('button, input:not([type=checkbox]), label.check'))
          .filter((e) => (e as HTMLElement).offsetParent !== null)
          .map((e) => e.getBoundingClientRect())
          .filter((r) => r.height < 44 || r.width < 44).length,
    );
    expect(small).toBe(0);
  });
});
