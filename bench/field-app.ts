/**
 * The field app (/app), measured as a technician meets it:
 * - the offline pack of each brand of a bundle: its size, manuals, pages and the time the server takes to
 *   cut it (GET /v1/offline-pack, first request, nothing cached);
 * - in headless Chromium at 390x844 with the CPU throttled 4x (DevTools' Emulation.setCPUThrottlingRate),
 *   the app's first load in a fresh profile (navigation to the app ready, and the bytes transferred),
 *   then, with the network cut and the page reloaded, offline look-ups from the submit to the answer
 *   rendered with its highlighted page (the app's own measure, `data-ms`).
 *
 *   npm run build && node dist/bench/field-app.js [--bundle FILE] [--packs BUNDLE] [--loads N] [--lookups N]
 *     [--lookup BRAND,MODEL,CODE]
 *
 * `--bundle` serves the app (default the demo bundle); `--lookup BRAND,MODEL,CODE` is the look-up timed
 * (default: the bundle's example code);
 * `--packs` lists pack sizes for another bundle (the shared corpus) without serving it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { BundleReader } from '../src/bundle/reader.js';
import { corpusView } from '../src/engine/corpus.js';
import { exampleDiagnostic } from '../src/engine/examples.js';
import { OfflinePackService } from '../src/engine/offline-pack.js';
import { loadKnowledge } from '../src/engine/sessions/knowledge.js';
import { projectPath } from '../src/project-path.js';
import { machineLine, median } from './machine.js';
import { startBenchServer } from './server.js';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    packs: { type: 'string' },
    loads: { type: 'string', default: '5' },
    lookups: { type: 'string', default: '20' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    lookup: { type: 'string' },
  },
});
const LOADS = Math.max(1, Math.min(50, Number(values.loads)));
const LOOKUPS = Math.max(1, Math.min(500, Number(values.lookups)));
const out: string[] = [`${machineLine()}`];
const mb = (n: number) => (n / 2 ** 20).toFixed(2);

async function packSizes(bundle: string): Promise<void> {
  const reader = new BundleReader(bundle);
  const view = corpusView(reader);
  const knowledge = loadKnowledge();
  out.push('', `Packs of ${path.basename(bundle)} (${view.documentIds().length} manuals):`, '');
  out.push(
    '| brand | manuals | pages | page images | codes | pack MB | cut in ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
  );
  let total = 0;
  for (const brand of view.brands) {
    const service = new OfflinePackService(view, { knowledge: () => knowledge });
    const t0 = performance.now();
    const { body } = await service.export({ brands: [brand], models: [] });
    const ms = performance.now() - t0;
    total += body.bytes;
    out.push(
      `| ${brand} | ${body.documents.length} | ${body.pages} | ${body.snapshots} | ${body.error_codes} | ${mb(body.bytes)} | ${ms.toFixed(0)} |`,
    );
  }
  out.push(
    `| (bundle file) | | | | | ${mb(fs.statSync(bundle).size)} | |`,
    `| (sum of packs) | | | | | ${mb(total)} | |`,
  );
  reader.close();
}

async function browserFigures(bundle: string): Promise<void> {
  const reader = new BundleReader(bundle);
  const [brand, model, code] = (values.lookup ?? '').split(',');
  const example =
    brand && model && code ? { brand, model, error_code: code } : exampleDiagnostic(corpusView(reader))!;
  reader.close();
  const server = await startBenchServer(bundle, { console: false });
  const key = server.key;
  const browser = await chromium.launch({
    executablePath: values.chromium,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const loads: number[] = [];
    let bytes = 0;
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(`${server.url}/app/`);
      await page.waitForSelector('body[data-ready="true"]');
      const m = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        return {
          ready: performance.now() - nav.startTime,
          bytes: nav.transferSize + resources.reduce((n, r) => n + r.transferSize, 0),
        };
      });
      loads.push(m.ready);
      bytes = m.bytes;
      await context.close();
    }

    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/app/`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.locator('#connect-form').getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByLabel(new RegExp(example.brand)).check();
    await page.getByRole('button', { name: 'Keep offline' }).click();
    await page.waitForSelector(`[data-kept="${example.brand}"]`, { timeout: 120_000 });
    await context.setOffline(true);
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const form = page.locator('#lookup-form');
    await form.getByLabel('Brand').fill(example.brand);
    await form.getByLabel('Model').fill(example.model);
    await form.getByLabel('Error code').fill(example.error_code);
    const times: number[] = [];
    for (let i = 0; i < LOOKUPS + 1; i++) {
      await page.evaluate(() => {
        delete document.getElementById('lookup-result')!.dataset.ms;
      });
      await page.getByRole('button', { name: 'Look up' }).click();
      await page.waitForSelector('#lookup-result[data-ms]');
      const source = await page.locator('#lookup-result .source').getAttribute('data-source');
      if (source !== 'pack') throw new Error(`look-up answered by ${source}, not the pack`);
      times.push(Number(await page.locator('#lookup-result').getAttribute('data-ms')));
    }
    const [first, ...warm] = times;
    const sorted = [...warm].sort((a, b) => a - b);
    out.push(
      '',
      `App served from ${path.basename(bundle)}; Chromium ${browser.version()} headless, 390x844, CPU throttled 4x.`,
      '',
      '| measure | n | median | p90 |',
      '|---|---:|---:|---:|',
      `| first load, fresh profile: navigation to app ready (ms) | ${LOADS} | ${median(loads).toFixed(0)} | ${[...loads].sort((a, b) => a - b)[Math.floor(LOADS * 0.9)]?.toFixed(0)} |`,
      `| first load: bytes transferred | 1 | ${bytes} | |`,
      `| offline look-up ${example.brand} ${example.model} ${example.error_code}, first after reload (ms) | 1 | ${first!.toFixed(1)} | |`,
      `| offline look-up, submit to answer and highlighted page rendered (ms) | ${warm.length} | ${median(warm).toFixed(1)} | ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(1)} |`,
    );
    await context.close();
  } finally {
    await browser.close();
    await server.close();
  }
}

if (values.packs) await packSizes(values.packs);
await packSizes(values.bundle!);
await browserFigures(values.bundle!);
process.stdout.write(`${out.join('\n')}\n`);
