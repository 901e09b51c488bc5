import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDemoBundle } from '../../pipeline/ingest/demo.js';
import { bundleInfo, verifyBundle } from '../../src/bundle/inspect.js';
import { BundleReader } from '../../src/bundle/reader.js';

describe('the embedded demo bundle', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-demo-'));
  const bundle = path.join(dir, 'demo.bundle');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is built from the demo sources, verifies, and holds both equipment kinds and languages', async () => {
    const first = await ensureDemoBundle({ bundle, jobs: 2 });
    expect(first.rebuilt).toBe(true);
    const reader = new BundleReader(bundle);
    try {
      expect(verifyBundle(reader).checks.filter((c) => !c.ok)).toEqual([]);
      const info = bundleInfo(reader);
      expect(info.totals.documents).toBeGreaterThanOrEqual(3);
      expect(info.totals.snapshots).toBe(info.totals.pages);
      expect(new Set(info.documents.map((d) => d.language))).toEqual(new Set(['en', 'fr']));
      const equipment = new Set(reader.documents().map((d) => d.equipment));
      expect(equipment).toEqual(new Set(['air_water', 'air_air']));
      // Two models share a range, and aliases resolve to their model.
      const shared = reader.db
        .prepare(
          'SELECT range_id, count(*) AS n FROM models WHERE range_id IS NOT NULL GROUP BY range_id HAVING n >= 2',
        )
        .all();
      expect(shared.length).toBeGreaterThan(0);
      expect(
        (reader.db.prepare('SELECT count(*) AS n FROM aliases').get() as { n: number }).n,
      ).toBeGreaterThan(0);
    } finally {
      reader.close();
    }
  });

  it('is left alone when current, and rebuilt when forced', async () => {
    const first = await ensureDemoBundle({ bundle, jobs: 2, force: true });
    const before = fs.statSync(bundle).mtimeMs;
    const again = await ensureDemoBundle({ bundle, jobs: 2 });
    expect(again.rebuilt).toBe(false);
    expect(fs.statSync(bundle).mtimeMs).toBe(before);
    const forced = await ensureDemoBundle({ bundle, jobs: 2, force: true });
    expect(forced.rebuilt).toBe(true);
    // A forced rebuild re-extracts everything rather than copying the previous bundle's rows.
    expect(forced.report?.totals.reused).toBe(0);
    expect(forced.report?.totals.ingested).toBe(first.report?.totals.ingested);
  });

  it('is rebuilt when the file is not a readable bundle', async () => {
    fs.writeFileSync(bundle, 'garbage');
    const r = await ensureDemoBundle({ bundle, jobs: 2 });
    expect(r.rebuilt).toBe(true);
    const reader = new BundleReader(bundle);
    expect(verifyBundle(reader).ok).toBe(true);
    reader.close();
  });
});
