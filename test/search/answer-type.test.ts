import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../pipeline/ingest/run.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { BrandAliases } from '../../src/catalog/brands.js';
import { SearchQuery, type SearchQueryInput } from '../../src/contract/search.js';
import { searchChunks } from '../../src/engine/search.js';
import { asksForQuantity } from '../../src/search/question-types.js';
import { type FixturePage, renderPdf, sidecarYaml, writeManual } from '../helpers/pdf-fixtures.js';

// Two pages naming the same things; only the second says how many. "Which" and "how many" are both
// function words, so the two questions below ask for the same words and differ only in what they ask.
const PAGES: FixturePage[] = [
  { heading: '1 Error list', lines: ['The error list shows the errors of the unit with their time.'] },
  { heading: '2 Error list', lines: ['The error list shows 20 errors at most, then the oldest is removed.'] },
  { heading: '3 Safety', lines: ['Isolate the power supply before opening the unit.'] },
];

let dir: string;
let reader: BundleReader;

const search = (params: SearchQueryInput) => searchChunks(reader, SearchQuery.parse(params));
const first = (q: string) => search({ q, limit: 3 }).results[0]?.page;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-answer-type-'));
  const corpus = path.join(dir, 'corpus');
  const pdf = await renderPdf({ title: 'Omega Controller Manual', pages: PAGES });
  writeManual(
    corpus,
    'omega-controller-en',
    pdf,
    sidecarYaml({
      doc_type: 'service_manual',
      equipment: 'air_water',
      approved: true,
      title: 'Omega Controller Manual',
      brand: 'Omega',
      language: 'en',
      models: [{ name: 'OC-1' }],
    }),
  );
  const bundle = path.join(dir, 'answer-type.bundle');
  const report = await ingest({
    paths: [corpus],
    bundle,
    jobs: 1,
    snapshots: false,
    strict: true,
    brands: new BrandAliases({ Omega: [] }),
  });
  expect(report.written).toBe(true);
  reader = new BundleReader(bundle);
});

afterAll(() => {
  reader?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('answer type: a question asking for a quantity', () => {
  it('is told in each language, as whole words', () => {
    for (const q of [
      'How many errors does the list hold?',
      'Wie viele Fehler zeigt die Liste?',
      'Combien de défauts la liste garde-t-elle ?',
      '¿Cuántos errores guarda la lista?',
      'Hoeveel storingen bewaart de lijst?',
    ]) {
      expect(asksForQuantity(q), q).toBe(true);
    }
    for (const q of ['Which errors does the list hold?', 'How do I reset the list?', 'Showmany errors']) {
      expect(asksForQuantity(q), q).toBe(false);
    }
  });

  it('ranks first the page whose matching line holds a number', () => {
    // Without the answer type the page without a number comes first for the same words.
    expect(first('Which errors does the error list show?')).toBe(1);
    expect(first('How many errors does the error list show?')).toBe(2);
  });
});
