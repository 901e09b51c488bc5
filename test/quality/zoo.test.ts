import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureQuality, type QualityReport } from '../../bench/quality-measure.js';
import { parseZooRecorded, zooGroups } from '../../bench/quality-zoo.js';
import { writeZoo, ZOO_LANGUAGES, ZOO_LAYOUTS, type ZooManual, zooManual } from '../../pipeline/demo/zoo.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Percent figures may drop by this many points before the guard fails. */
const TOLERANCE = 2;

/**
 * The layout zoo (generated manuals: wrapped cells, unruled tables, lists with procedures, codes in the
 * margin, tables side by side, a turned table, label cards, display codes) ingested and asked through the
 * service layer, like the shared corpus in quality.test.ts.
 */
describe('answers on the layout zoo', () => {
  let dir: string;
  let manuals: ZooManual[];
  let report: QualityReport;
  let recordedSeed: number;
  /** The layouts BENCHMARKS.md records figures for (all of them when it records none). */
  let layouts: (typeof ZOO_LAYOUTS)[number][];

  beforeAll(async () => {
    const recorded = parseZooRecorded(fs.readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8'));
    recordedSeed = recorded?.seed ?? 1;
    layouts = ZOO_LAYOUTS.filter((l) => !recorded || l in recorded.layouts);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-zoo-test-'));
    manuals = await writeZoo(dir, { layouts, languages: ZOO_LANGUAGES, seed: recordedSeed });
    report = await measureQuality({ corpus: path.join(dir, 'corpus'), answers: path.join(dir, 'answers') });
  }, 120_000);

  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generates every layout in every language, each manual with code keys and negatives', () => {
    expect(layouts.length).toBeGreaterThanOrEqual(8);
    expect(manuals).toHaveLength(layouts.length * ZOO_LANGUAGES.length);
    for (const m of manuals) {
      const codes = m.key.filter((k) => k.expected_state === 'answer');
      expect(codes.length, m.slug).toBeGreaterThanOrEqual(5);
      expect(m.key.filter((k) => k.expected_state === 'unknown_code').length, m.slug).toBe(3);
      for (const k of codes) expect(k.pages.length, `${m.slug} ${k.code}`).toBeGreaterThan(0);
    }
  });

  it('draws the same manual from the same seed, and another drawing from another seed', async () => {
    const a = await zooManual('cards', 'de', 7);
    const b = await zooManual('cards', 'de', 7);
    const c = await zooManual('cards', 'de', 8);
    expect(a.pdf.equals(b.pdf)).toBe(true);
    expect(a.key).toEqual(b.key);
    expect(a.pdf.equals(c.pdf)).toBe(false);
  });

  it('answers each layout with the right page, the meaning and an excerpt holding it', () => {
    const byLayout = zooGroups(report, 'layout');
    expect(byLayout.map((g) => g.group)).toEqual(layouts);
    for (const g of byLayout) {
      expect(g.answer, `${g.group}: answer`).toBeGreaterThanOrEqual(95);
      expect(g.excerpt, `${g.group}: excerpt`).toBeGreaterThanOrEqual(95);
      expect(g.negatives, `${g.group}: negatives`).toBe(100);
    }
  });

  it('stays within 2 points of the zoo figures recorded in BENCHMARKS.md', () => {
    const recorded = parseZooRecorded(fs.readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8'));
    expect(recorded, 'BENCHMARKS.md has a "## Layout zoo" section with its JSON figures').toBeDefined();
    const now = report.overall;
    expect(now.answer!).toBeGreaterThanOrEqual(recorded!.answer - TOLERANCE);
    expect(now.excerpt!).toBeGreaterThanOrEqual(recorded!.excerpt - TOLERANCE);
    expect(now.negatives).toBe(100);
    const layouts = new Map(zooGroups(report, 'layout').map((g) => [g.group, g.answer ?? 0]));
    for (const [layout, was] of Object.entries(recorded!.layouts)) {
      expect(layouts.get(layout), `${layout}: recorded ${was}`).toBeGreaterThanOrEqual(was - TOLERANCE);
    }
  });
});
