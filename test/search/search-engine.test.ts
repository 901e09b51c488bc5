import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../pipeline/ingest/run.js';
import { LanguageRuns } from '../../src/bundle/language-runs.js';
import { BundleReader } from '../../src/bundle/reader.js';
import { BrandAliases } from '../../src/catalog/brands.js';
import { SearchQuery, type SearchQueryInput, SearchResponse } from '../../src/contract/search.js';
import { InvalidCursorError, searchChunks } from '../../src/engine/search.js';
import { containsVerbatim } from '../../src/text/normalise.js';
import { type FixturePage, renderPdf, sidecarYaml, writeManual } from '../helpers/pdf-fixtures.js';

const EN_PAGES: FixturePage[] = [
  { heading: '1 Safety', lines: ['Isolate the power supply before opening the unit.'] },
  {
    heading: '2 Sensors',
    lines: [
      'The outdoor thermistor TO is a 10 kOhm NTC element.',
      'Measure the thermistor resistance at 25 °C with a multimeter.',
      'Replace the thermistor when the reading is open or shorted.',
    ],
  },
  {
    heading: '3 Water circuit',
    lines: ['The minimum water flow is 12 l/min.', 'Clean the strainer when the flow switch opens.'],
  },
  {
    heading: '4 Error codes',
    lines: ['The controller shows the following codes.'],
    table: [
      ['Code', 'Description', 'Remedy'],
      ['E9', 'Water flow too low', 'Clean the strainer'],
    ],
  },
  { heading: '5 Communication', lines: ['E90 means a communication fault between the boards.'] },
  { heading: '6 Spare parts', lines: ['Order spare parts from the service centre.'] },
  { heading: '7 Spare parts', lines: ['Order spare parts from the service centre.'] },
];

const FR_PAGES: FixturePage[] = [
  {
    heading: '1 Remplissage',
    lines: ['Remplissez le circuit d’eau à une pression de 1,5 bar.', 'Purgez l’air du circuit hydraulique.'],
  },
  { heading: '2 Sondes', lines: ['La sonde extérieure mesure la température de l’air.'] },
];

const DE_PAGES: FixturePage[] = [
  { heading: '1 Betrieb', lines: ['Die Umwälzpumpe läuft nach dem Einschalten drei Minuten nach.'] },
  { heading: '2 Wartung', lines: ['Den Schmutzfänger einmal im Jahr reinigen.'] },
];

const OTHER_PAGES: FixturePage[] = [
  { heading: '1 Coil', lines: ['The coil thermistor is clipped to the evaporator outlet.'] },
];

// One series named in a table, a page without it; and a page set again, word for word, in a manual whose
// language has no stemmer (indexed under every language).
const NORDA_PAGES: FixturePage[] = [
  { heading: '1 Charge', lines: ['Refrigerant charge: read it on the rating plate.'] },
  { heading: '2 Data', lines: ['Refrigerant charge of the NX-200 series: 1.2 kg.'] },
  { heading: '3 Panel', lines: ['Check the fan motor speed on the remote panel.'] },
];
const POLARIS_PAGES: FixturePage[] = [
  { heading: '1 Panel', lines: ['Check the fan motor speed on the remote panel.'] },
];

let dir: string;
let reader: BundleReader;

const search = (params: SearchQueryInput) => searchChunks(reader, SearchQuery.parse(params));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-search-'));
  const corpus = path.join(dir, 'corpus');
  const manual = (name: string, pages: FixturePage[], sidecar: Record<string, unknown>) =>
    renderPdf({ title: String(sidecar.title), pages }).then((pdf) =>
      writeManual(
        corpus,
        name,
        pdf,
        sidecarYaml({ doc_type: 'service_manual', equipment: 'air_water', approved: true, ...sidecar }),
      ),
    );
  await manual('alpha-service-en', EN_PAGES, {
    title: 'Alpha Service Manual',
    brand: 'Demotherm',
    language: 'en',
    models: [{ name: 'FX-100', aliases: ['FX-100B'] }],
  });
  await manual('alpha-installation-fr', FR_PAGES, {
    title: 'Alpha Manuel d’installation',
    brand: 'Demotherm',
    language: 'fr',
    models: [{ name: 'FX-200' }],
  });
  await manual('alpha-betrieb-de', DE_PAGES, {
    title: 'Alpha Betriebsanleitung',
    brand: 'Demotherm',
    language: 'de',
    models: [{ name: 'FX-300' }],
  });
  await manual('coldix-coil-en', OTHER_PAGES, {
    title: 'Coldix Coil Guide',
    brand: 'Coldix',
    language: 'en',
    models: [{ name: 'CXW7' }],
  });
  await manual('norda-units-en', NORDA_PAGES, {
    title: 'Norda Units',
    brand: 'Norda',
    language: 'en',
    models: [{ name: 'NX-200' }],
  });
  await manual('polaris-panel-pl', POLARIS_PAGES, {
    title: 'Polaris Panel',
    brand: 'Polaris',
    language: 'pl',
    models: [{ name: 'PL-1' }],
  });
  const bundle = path.join(dir, 'search.bundle');
  const report = await ingest({
    paths: [corpus],
    bundle,
    jobs: 1,
    snapshots: false,
    strict: true,
    brands: new BrandAliases({ Demotherm: ['Demo Therm'], Coldix: [], Norda: [], Polaris: [] }),
  });
  expect(report.written).toBe(true);
  reader = new BundleReader(bundle);
});

afterAll(() => {
  reader?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('stored term counts of an ingested bundle', () => {
  it('are said to be in order, and every line is, as bisection needs', () => {
    expect(reader.chunkTermsSorted).toBe(true);
    const rows = reader.db.prepare('SELECT data FROM chunk_terms').pluck().all() as string[];
    expect(rows.length).toBeGreaterThan(10);
    for (const data of rows) {
      for (const line of data.split('\n')) {
        const keys = line
          .split(' ')
          .slice(1)
          .map((token) => token.replace(/\*\d+$/, ''));
        for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! < keys[i]!, line).toBe(true);
      }
    }
  });

  it('give the same answers where the bundle does not say so and its lines are scanned', () => {
    const copy = path.join(dir, 'unmarked.bundle');
    fs.copyFileSync(reader.file, copy);
    const db = new Database(copy);
    db.prepare("DELETE FROM meta WHERE key = 'chunk_terms_order'").run();
    db.close();
    const unmarked = new BundleReader(copy);
    try {
      expect(unmarked.chunkTermsSorted).toBe(false);
      for (const q of ['thermistor resistance', 'pression circuit', 'Umwälzpumpe', 'E9', 'fan motor speed']) {
        expect(searchChunks(unmarked, SearchQuery.parse({ q })), q).toEqual(search({ q }));
      }
    } finally {
      unmarked.close();
    }
  });
});

describe('candidate chunks', () => {
  /**
   * The candidate query as SQL computed it before counting moved to JavaScript: the filters inside each
   * term's full-text query, grouped by chunk, ordered by the words held times the first row's weight.
   */
  function sqlCandidates(terms: { match: string; word: number; weight: number }[], filter: string | null) {
    const one = 'SELECT rowid, ? AS g, ? AS s FROM chunk_index WHERE chunk_index MATCH ?';
    return reader.db
      .prepare(
        `SELECT c.id FROM (SELECT rowid, count(DISTINCT g) AS n, sum(s) AS s
           FROM (${terms.map(() => one).join(' UNION ALL ')})
           GROUP BY rowid ORDER BY n * s DESC, rowid LIMIT 100) f JOIN chunks c ON c.rowid = f.rowid`,
      )
      .pluck()
      .all(...terms.flatMap((t) => [t.word, t.weight, filter ? `${t.match} AND ${filter}` : t.match]))
      .sort();
  }

  it('are those of the former SQL query, with and without a language filter', () => {
    const terms = [
      { match: '{terms section} : "thermistor"', word: 0, weight: 1.7 },
      { match: '{stems section} : "en:thermistor"', word: 0, weight: 1.1 },
      { match: '{stems section} : "fr:thermistanc"', word: 0, weight: 0.9 },
      { match: '{terms section} : "water"', word: 1, weight: 0.8 },
      { match: '{concepts section} : "~water-flow"', word: 1, weight: 0.6 },
      { match: '{terms section} : "e9"', word: 2, weight: 2.5 },
      { match: '{terms section} : "strainer"', word: 3, weight: 1.2 },
    ];
    const ids = (language?: string) =>
      reader
        .searchCandidates(terms, 100, language)
        .map((c) => c.id)
        .sort();
    expect(ids().length).toBeGreaterThan(2);
    expect(ids()).toEqual(sqlCandidates(terms, null));
    for (const language of ['en', 'fr', 'de', 'xx']) {
      const filter = `{facets} : ("l:${language}" OR "l:mul")`;
      expect(ids(language)).toEqual(sqlCandidates(terms, filter));
      for (const c of reader.searchCandidates(terms, 100, language))
        expect(['mul', language]).toContain(c.language);
    }
    expect(ids('en').length).toBeGreaterThan(0);
    expect(ids('xx')).toEqual([]);
  });

  it("allow a language's chunks from the bundle's runs: the facets' chunks, and the facets without runs", () => {
    const facetRowids = (language: string) =>
      (
        reader.db
          .prepare('SELECT rowid FROM chunk_index WHERE chunk_index MATCH ?')
          .pluck()
          .all(`{facets} : ("l:${language.toLowerCase()}" OR "l:mul")`) as number[]
      ).sort((a, b) => a - b);
    const size = (reader.db.prepare('SELECT max(rowid) FROM chunks').pluck().get() as number) + 1;
    const members = (set: Uint32Array) =>
      Array.from({ length: size }, (_, r) => r).filter((r) => (set[r >>> 5]! & (1 << (r & 31))) !== 0);
    const runs = new LanguageRuns(reader.db);
    const documents = reader.db.prepare('SELECT count(*) FROM documents').pluck().get() as number;
    const written = reader.db.prepare('SELECT count(*) FROM chunk_language_runs').pluck().get() as number;
    // One run per stretch of one language: never more than the documents.
    expect(written).toBeGreaterThan(2);
    expect(written).toBeLessThanOrEqual(documents);
    for (const language of ['en', 'fr', 'de', 'pl', 'EN', 'xx']) {
      const set = runs.bitSet(language, size);
      expect(set, language).toBeDefined();
      expect(members(set!), language).toEqual(facetRowids(language));
    }

    // A bundle written before the runs: no runs, and the search reads the facets (the same candidates).
    const copy = path.join(dir, 'without-runs.bundle');
    fs.copyFileSync(reader.file, copy);
    const db = new Database(copy);
    db.exec('DROP TABLE chunk_language_runs');
    db.close();
    const old = new BundleReader(copy);
    try {
      expect(new LanguageRuns(old.db).bitSet('en', size)).toBeUndefined();
      const terms = [
        { match: '{terms section} : "thermistor"', word: 0, weight: 1.7 },
        { match: '{stems section} : "fr:sond"', word: 1, weight: 1.1 },
        { match: '{terms section} : "water"', word: 2, weight: 0.8 },
      ];
      for (const language of ['en', 'fr', 'de', undefined]) {
        const ids = (r: BundleReader) => r.searchCandidates(terms, 100, language).map((c) => c.id);
        expect(ids(old), String(language)).toEqual(ids(reader));
      }
      expect(old.searchCandidates(terms, 100, 'en').length).toBeGreaterThan(0);
    } finally {
      old.close();
    }
  });
});

describe('searchChunks', () => {
  it('keeps a response from its second ask: a question asked once is answered, not kept', () => {
    const q = { q: 'strainer flow switch', brand: 'Demotherm', limit: 1 };
    const once = search(q);
    const second = search(q);
    expect(second).not.toBe(once);
    expect(second).toEqual(once);
    expect(search(q)).toBe(second);
  });

  it('finds the English page for a French technical term', () => {
    const r = search({ q: 'Comment mesurer la thermistance ?', brand: 'Demotherm', language: 'en' });
    expect(r.results[0]).toMatchObject({ document_id: 'alpha-service-en', page: 2 });
    expect(r.results[0]!.snippet).toMatch(/thermistor/i);
  });

  it('ranks the same-language page first and still offers the other language', () => {
    const r = search({ q: 'Quelle pression pour le remplissage du circuit ?', brand: 'Demotherm' });
    expect(r.results[0]).toMatchObject({ document_id: 'alpha-installation-fr', page: 1 });
    const flow = search({ q: 'débit d’eau minimum', brand: 'Demotherm' });
    expect(flow.results.slice(0, 3).map((x) => `${x.document_id}:${x.page}`)).toContain('alpha-service-en:3');
  });

  it('matches a German compound by its part and cross-language by the glossary', () => {
    const r = search({ q: 'Pumpe', brand: 'Demotherm', language: 'de' });
    expect(r.results[0]).toMatchObject({ document_id: 'alpha-betrieb-de', page: 1 });
    const filter = search({ q: 'clean the filter', brand: 'Demotherm', language: 'de' });
    expect(filter.results[0]).toMatchObject({ document_id: 'alpha-betrieb-de', page: 2 });
  });

  it('returns results that follow the contract, with a verbatim snippet on the cited page', () => {
    const r = search({ q: 'thermistor resistance multimeter' });
    expect(() => SearchResponse.parse(r)).not.toThrow();
    expect(r.query).toBe('thermistor resistance multimeter');
    const top = r.results[0]!;
    expect(top).toMatchObject({
      document_id: 'alpha-service-en',
      title: 'Alpha Service Manual',
      brand: 'Demotherm',
      models: ['FX-100'],
      page: 2,
    });
    expect(top.section).toContain('Sensors');
    expect(top.snippet.length).toBeLessThanOrEqual(300);
    expect(top.snippet).toContain('Measure the thermistor resistance at 25 °C with a multimeter.');
    expect(containsVerbatim(reader.page(top.document_id, top.page)!.text, top.snippet)).toBe(true);
    expect(top.citation).toEqual({
      document_id: 'alpha-service-en',
      title: 'Alpha Service Manual',
      page: 2,
      page_end: 2,
      section: top.section,
      snapshot_url: '/v1/pdf-snapshot/alpha-service-en/2',
      resource_uri: 'heatsource://documents/alpha-service-en/pages/2',
    });
    for (const x of r.results)
      expect(containsVerbatim(reader.page(x.document_id, x.page)!.text, x.snippet)).toBe(true);
  });

  it('matches codes exactly: no prefix, no typo tolerance', () => {
    const e9 = search({ q: 'E9', brand: 'Demotherm' });
    expect(e9.results.map((x) => x.page)).toEqual([4]);
    expect(e9.results[0]!.snippet).toBe('E9 Water flow too low Clean the strainer');
    expect(search({ q: 'E8', brand: 'Demotherm' }).results).toEqual([]);
    expect(search({ q: 'E90' }).results.map((x) => x.page)).toEqual([5]);
  });

  it('finds an English page for a French or a German question sent with no filter at all', () => {
    // As typed into a search box: no brand, no language. The manuals in the question's language do not
    // answer it, the English one does, in other words.
    const fr = search({ q: 'Quand le fluxostat s’ouvre-t-il ?' });
    expect(fr.results[0]).toMatchObject({ document_id: 'alpha-service-en', page: 3 });
    expect(fr.results[0]!.snippet).toMatch(/flow switch/);
    const de = search({ q: 'Welchen Widerstand hat der Temperaturfühler bei 25 °C?' });
    expect(de.results[0]).toMatchObject({ document_id: 'alpha-service-en', page: 2 });
    const nl = search({ q: 'Wanneer opent de stromingsschakelaar?' });
    expect(nl.results[0]).toMatchObject({ document_id: 'alpha-service-en', page: 3 });
  });

  it('prefers the manuals of a model the question names, sent without a brand', () => {
    const plain = search({ q: 'where is the thermistor' });
    expect(plain.results[0]!.document_id).toBe('alpha-service-en');
    // CXW7 stands in no page: the catalogue says which manual is about it.
    const named = search({ q: 'where is the thermistor on the CXW7' });
    expect(named.results[0]).toMatchObject({ document_id: 'coldix-coil-en', page: 1 });
    // A brand filter decides on its own.
    expect(
      search({ q: 'where is the thermistor on the CXW7', brand: 'Demotherm' }).results[0]!.document_id,
    ).toBe('alpha-service-en');
  });

  it('matches a model name the manual prints only by its series', () => {
    const r = search({ q: 'refrigerant charge of the NX200TB1' });
    expect(r.results[0]).toMatchObject({ document_id: 'norda-units-en', page: 2 });
    // A short code is never matched by a shorter one.
    expect(search({ q: 'E901' }).results).toEqual([]);
  });

  it('scores a word once, not once per language, on a page indexed under every language', () => {
    const r = search({ q: 'fan motor speed on the panel' });
    expect(r.results.slice(0, 2).map((x) => x.document_id)).toEqual(['norda-units-en', 'polaris-panel-pl']);
    expect(r.results[0]!.score).toBeGreaterThan(r.results[1]!.score);
  });

  it('tolerates a typo in a longer word', () => {
    const r = search({ q: 'thermistro', brand: 'Demotherm', language: 'en' });
    expect(r.results[0]).toMatchObject({ document_id: 'alpha-service-en', page: 2 });
    expect(r.results[0]!.snippet).toMatch(/thermistor/);
  });

  it('filters by brand (name or alias); an unknown brand gives no results', () => {
    const coil = search({ q: 'thermistor', brand: 'coldix' });
    expect(coil.results.map((x) => x.document_id)).toEqual(['coldix-coil-en']);
    const alias = search({ q: 'thermistor', brand: 'Demo-Therm' });
    expect(new Set(alias.results.map((x) => x.brand))).toEqual(new Set(['Demotherm']));
    expect(search({ q: 'thermistor', brand: 'Nobrand' })).toEqual({
      query: 'thermistor',
      results: [],
      next_cursor: null,
      unmatched_filters: ['brand'],
    });
    expect(coil.unmatched_filters).toEqual([]);
    expect(alias.unmatched_filters).toEqual([]);
  });

  it('filters by model or alias, normalised; an unknown model gives no results', () => {
    const byAlias = search({ q: 'thermistor sonde', model: 'fx 100b' });
    expect(new Set(byAlias.results.map((x) => x.document_id))).toEqual(new Set(['alpha-service-en']));
    const fr = search({ q: 'thermistor sonde', brand: 'Demotherm', model: 'FX-200' });
    expect(new Set(fr.results.map((x) => x.document_id))).toEqual(new Set(['alpha-installation-fr']));
    expect(search({ q: 'thermistor', model: 'FX-999' })).toMatchObject({
      results: [],
      unmatched_filters: ['model'],
    });
    // A model of another brand than the one named is no model of that brand.
    expect(search({ q: 'thermistor', brand: 'Coldix', model: 'FX-100' })).toMatchObject({
      results: [],
      unmatched_filters: ['model'],
    });
  });

  it('filters by language', () => {
    const r = search({ q: 'thermistor sonde pompe', language: 'FR' });
    expect(r.results.length).toBeGreaterThan(0);
    expect(new Set(r.results.map((x) => x.document_id))).toEqual(new Set(['alpha-installation-fr']));
  });

  it('orders equal scores by document, page and chunk', () => {
    const r = search({ q: 'spare parts centre', brand: 'Demotherm' });
    const [first, second] = r.results;
    expect(first!.score).toBe(second!.score);
    expect([first!.page, second!.page]).toEqual([6, 7]);
  });

  it('paginates with a cursor bound to the query', () => {
    const q = 'thermistor water flow strainer spare parts communication';
    const all = search({ q, limit: 50 });
    expect(all.next_cursor).toBeNull();
    expect(all.results.length).toBeGreaterThan(3);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = search({ q, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.results.length).toBeLessThanOrEqual(2);
      seen.push(...page.results.map((x) => x.chunk_id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor && pages < 20);
    expect(seen).toEqual(all.results.map((x) => x.chunk_id));
    expect(pages).toBe(Math.ceil(all.results.length / 2));
  });

  it('rejects a cursor from another query or a malformed one with InvalidCursorError', () => {
    const first = search({ q: 'thermistor water flow strainer', limit: 1 });
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(() => search({ q: 'spare parts', limit: 1, cursor: first.next_cursor! })).toThrow(
      InvalidCursorError,
    );
    expect(() =>
      search({ q: 'thermistor water flow strainer', brand: 'Demotherm', cursor: first.next_cursor! }),
    ).toThrow(InvalidCursorError);
    expect(() => search({ q: 'spare parts', cursor: 'not a cursor!' })).toThrow(InvalidCursorError);
    expect(() =>
      search({ q: 'spare parts', cursor: Buffer.from('{"o":-1,"q":"x"}').toString('base64url') }),
    ).toThrow(InvalidCursorError);
    // The same query with another page size keeps its cursor valid.
    expect(
      search({ q: 'thermistor water flow strainer', limit: 3, cursor: first.next_cursor! }).results.length,
    ).toBeGreaterThan(0);
  });

  it('answers a question made only of function words with no results', () => {
    expect(search({ q: 'what is the' }).results).toEqual([]);
  });
});

describe('SearchQuery', () => {
  it('defaults the limit and coerces query-string values', () => {
    expect(SearchQuery.parse({ q: 'pump' }).limit).toBe(10);
    expect(SearchQuery.parse({ q: 'pump', limit: '25' }).limit).toBe(25);
  });

  it.each([
    { q: '' },
    { q: 'x'.repeat(501) },
    { q: 'pump', limit: 0 },
    { q: 'pump', limit: 51 },
    { q: 'pump', language: 'french' },
  ])('rejects %j', (input) => {
    expect(SearchQuery.safeParse(input).success).toBe(false);
  });
});
