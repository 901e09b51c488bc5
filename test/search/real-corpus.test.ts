import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRecordedGroups } from '../../bench/quality-format.js';
import { readManualGroups } from '../../bench/quality-groups.js';
import { ingest } from '../../pipeline/ingest/run.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { SearchQuery } from '../../src/contract/search.js';
import { searchChunks } from '../../src/engine/search.js';
import { containsVerbatim, slugify } from '../../src/text/normalise.js';
import { ROOT } from '../helpers/cli.js';
import { ANSWERS, CORPUS, hasCorpus, noteSkip } from '../helpers/shared.js';

/** Free-text keys: a question in the manual's language and the pages that answer it. */
interface QuestionKey {
  id: string;
  document: string;
  query: string;
  pages: number[];
}

/**
 * The floors of the in-sample manuals (those the rules were written on), as measured in BENCHMARKS.md
 * ("Free-text search without a brand", second round of 2026-11-26: 59 / 66 of 71 with the brand, 58 / 66
 * without), rounded down: one question fewer fails. hit@3 raised in the third round of 2026-11-26 (the
 * answer type) to what it measured on these 65 questions: 62 / 65 (0.954) on both paths; hit@1 raised in
 * the fourth round of 2026-11-26 (a model named in a manual's heading) to 55 / 65 (0.846) on both paths,
 * and in the fifth (pages ordered by rank fusion) to 56 / 65 (0.862) on both paths.
 */
const FLOORS = {
  brand: { hit1: 0.86, hit3: 0.95 },
  open: { hit1: 0.86, hit3: 0.95 },
};

/**
 * Manuals added after the rules (data/quality/manual-groups.yaml, groups gated apart) are searched in the
 * same bundle, but their questions are scored apart: each group at least at the hit@3 recorded for it in
 * BENCHMARKS.md ("## Extraction quality"), so its figure can only go up and never moves the floor above.
 */
const apartGroups = readManualGroups().filter((g) => g.gate === 'own');
const recordedGroups = parseRecordedGroups(fs.readFileSync(path.join(ROOT, 'BENCHMARKS.md'), 'utf8'));
function groupOf(documentId: string): string | undefined {
  return apartGroups.find((g) => g.documents.some((d) => slugify(d) === documentId))?.id;
}

function questionKeys(): QuestionKey[] {
  const keys: QuestionKey[] = [];
  for (const file of fs
    .readdirSync(ANSWERS)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    for (const line of fs.readFileSync(path.join(ANSWERS, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const key = JSON.parse(line) as Partial<QuestionKey>;
      if (typeof key.query === 'string' && key.document && key.pages) keys.push(key as QuestionKey);
    }
  }
  return keys;
}

const ready = hasCorpus && fs.existsSync(ANSWERS);
if (!ready) {
  noteSkip('search real corpus', CORPUS);
  noteSkip('search real corpus', ANSWERS);
}

describe.skipIf(!ready)('free-text search over the real corpus', () => {
  let dir: string;
  let reader: BundleReader;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-search-real-'));
    const bundle = path.join(dir, 'corpus.bundle');
    const report = await ingest({ paths: [CORPUS], bundle, jobs: 1, snapshots: false, strict: false });
    expect(report.written).toBe(true);
    reader = new BundleReader(bundle);
  });

  afterAll(() => {
    reader?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Sends every question (with the manual's brand, or with no filter at all as typed into a search box),
   * checks each snippet against its page, prints the figures per manual and returns hit@1 and hit@3.
   */
  function measure(withBrand: boolean): {
    hit1: number;
    hit3: number;
    perGroup: Map<string, { n: number; at3: number }>;
  } {
    const keys = questionKeys();
    expect(keys.length).toBeGreaterThan(0);
    const perManual = new Map<string, { n: number; at1: number; at3: number }>();
    const perGroup = new Map<string, { n: number; at3: number }>();
    const misses: string[] = [];
    let n = 0;
    let at1 = 0;
    let at3 = 0;
    for (const key of keys) {
      const documentId = slugify(key.document);
      const doc = reader.document(documentId);
      expect(doc, `${key.document} is in the bundle`).toBeDefined();
      const query = withBrand ? { q: key.query, brand: doc!.brand, limit: 3 } : { q: key.query, limit: 3 };
      const response = searchChunks(reader, SearchQuery.parse(query));
      const hits = response.results.map((r) => r.document_id === documentId && key.pages.includes(r.page));
      const m = perManual.get(documentId) ?? { n: 0, at1: 0, at3: 0 };
      m.n++;
      const group = groupOf(documentId);
      const g = group ? (perGroup.get(group) ?? { n: 0, at3: 0 }) : undefined;
      if (g) {
        g.n++;
        perGroup.set(group!, g);
      } else n++;
      if (hits[0]) {
        if (!g) at1++;
        m.at1++;
      }
      if (hits.some(Boolean)) {
        if (g) g.at3++;
        else at3++;
        m.at3++;
      } else {
        misses.push(
          `${key.id}: got ${response.results.map((r) => `${r.document_id} p${r.page}`).join(', ')}`,
        );
      }
      perManual.set(documentId, m);
      for (const r of response.results) {
        expect(
          containsVerbatim(reader.page(r.document_id, r.page)!.text, r.snippet),
          `${key.id} snippet`,
        ).toBe(true);
      }
    }
    const lines = [...perManual].map(
      ([id, m]) => `  ${id.padEnd(58)} hit@1 ${m.at1}/${m.n}  hit@3 ${m.at3}/${m.n}`,
    );
    console.log(
      [
        `free-text search ${withBrand ? 'with the brand' : 'without a brand'}, in-sample manuals: ` +
          `hit@1 ${(at1 / n).toFixed(3)} (${at1}/${n}), hit@3 ${(at3 / n).toFixed(3)} (${at3}/${n})`,
        ...[...perGroup].map(([id, g]) => `  group ${id}: hit@3 ${g.at3}/${g.n}`),
        ...lines,
        ...(misses.length ? ['misses:', ...misses.map((m) => `  ${m}`)] : []),
      ].join('\n'),
    );
    expect(n).toBeGreaterThan(0);
    return { hit1: at1 / n, hit3: at3 / n, perGroup };
  }

  it(`with the manual's brand, finds the answering page first for ${FLOORS.brand.hit1 * 100} % and among the first 3 for ${FLOORS.brand.hit3 * 100} %`, () => {
    const { hit1, hit3, perGroup } = measure(true);
    expect(hit3).toBeGreaterThanOrEqual(FLOORS.brand.hit3);
    expect(hit1).toBeGreaterThanOrEqual(FLOORS.brand.hit1);
    for (const [id, g] of perGroup) {
      const recorded = recordedGroups.get(id)?.hit3;
      expect(recorded, `BENCHMARKS.md records hit@3 for the group ${id}`).toEqual(expect.any(Number));
      expect((100 * g.at3) / g.n, `group ${id} hit@3`).toBeGreaterThanOrEqual(recorded! - 0.05);
    }
  });

  it(`without a brand, finds the answering page first for ${FLOORS.open.hit1 * 100} % and among the first 3 for ${FLOORS.open.hit3 * 100} %`, () => {
    const { hit1, hit3 } = measure(false);
    expect(hit3).toBeGreaterThanOrEqual(FLOORS.open.hit3);
    expect(hit1).toBeGreaterThanOrEqual(FLOORS.open.hit1);
  });
});
