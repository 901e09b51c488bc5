import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecordedFigures, parseRecordedGroups } from '../../bench/quality-format.js';
import { type Figures, measureQuality, type QualityReport } from '../../bench/quality-measure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(root, '../shared/corpus');
const answers = path.resolve(root, '../shared/eval/answers');
const present = fs.existsSync(corpus) && fs.existsSync(answers);
if (!present) console.warn(`answer quality: skipped, no corpus or answer keys at ${corpus} and ${answers}`);

/** Percent figures may drop by this many points before the test fails; the meaning mean (0..1) by 0.02. */
const TOLERANCE = 2;

function expectAtLeast(what: string, now: Figures, recorded: Figures): void {
  for (const [key, was] of Object.entries(recorded) as [keyof Figures, number | null][]) {
    if (was === null) continue;
    const value = now[key];
    const tolerance = key === 'meaningMean' ? TOLERANCE / 100 : TOLERANCE;
    expect(value, `${what} ${key}: now ${value}, recorded ${was}`).not.toBeNull();
    expect(value!, `${what} ${key}: now ${value}, recorded ${was}`).toBeGreaterThanOrEqual(was - tolerance);
  }
}

describe.skipIf(!present)('answer quality on the real corpus', () => {
  let report: QualityReport;
  const markdown = fs.readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8');

  it('stays within 2 points of every in-sample figure recorded in BENCHMARKS.md', async () => {
    const recorded = parseRecordedFigures(markdown);
    expect(
      recorded,
      'BENCHMARKS.md has an "## Extraction quality" section with its JSON figures',
    ).toBeDefined();
    report = await measureQuality({ corpus, answers });
    expectAtLeast('in-sample', report.overall, recorded!);
    expect(report.overall.negatives).toBe(100);
  }, 600_000);

  // Manuals added after the rules (data/quality/manual-groups.yaml) are measured in the same bundle but
  // guarded apart, at the figures recorded for them: they can only go up, and they never dilute or lift
  // the in-sample figures.
  it('keeps each group of manuals gated apart within 2 points of its own recorded figures', () => {
    expect(report, 'the in-sample measurement ran').toBeDefined();
    const recorded = parseRecordedGroups(markdown);
    for (const group of report.groups.filter((g) => g.gate === 'own')) {
      const was = recorded.get(group.id);
      expect(was, `BENCHMARKS.md records figures for the group ${group.id}`).toBeDefined();
      expectAtLeast(group.id, group.overall, was!);
      expect(group.overall.negatives, `${group.id} negatives`).toBe(100);
    }
  });
});
