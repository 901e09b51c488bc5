import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRecordedFigures } from '../../bench/quality-format.js';
import { type Figures, measureQuality } from '../../bench/quality-measure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(root, '../shared/corpus');
const answers = path.resolve(root, '../shared/eval/answers');
const present = fs.existsSync(corpus) && fs.existsSync(answers);
if (!present) console.warn(`answer quality: skipped, no corpus or answer keys at ${corpus} and ${answers}`);

/** Percent figures may drop by this many points before the test fails; the meaning mean (0..1) by 0.02. */
const TOLERANCE = 2;

describe.skipIf(!present)('answer quality on the real corpus', () => {
  it('stays within 2 points of every overall figure recorded in BENCHMARKS.md', async () => {
    const recorded = parseRecordedFigures(fs.readFileSync(path.join(root, 'BENCHMARKS.md'), 'utf8'));
    expect(
      recorded,
      'BENCHMARKS.md has an "## Extraction quality" section with its JSON figures',
    ).toBeDefined();
    const report = await measureQuality({ corpus, answers });
    for (const [key, was] of Object.entries(recorded!) as [keyof Figures, number | null][]) {
      const now = report.overall[key];
      if (was === null) continue;
      const tolerance = key === 'meaningMean' ? TOLERANCE / 100 : TOLERANCE;
      expect(now, `${key}: now ${now}, recorded ${was}`).not.toBeNull();
      expect(now!, `${key}: now ${now}, recorded ${was}`).toBeGreaterThanOrEqual(was - tolerance);
    }
    expect(report.overall.negatives).toBe(100);
  }, 600_000);
});
