import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import { buildFixtureBundle, type DocSpec, sidecar, type TestApi, testApi } from './fixture.js';

/**
 * One manual printed in two languages reads a code in two languages: for the same models, the model on
 * the nameplate cannot choose between the readings, so the answer must not ask for it. Manuals of
 * different models that read a code differently still ask.
 */
const SERIES = ['PX-90', 'PX-120'];

/** A Polarix manual for `models` whose page 2 prints one code's line, read as `reading`. */
function manual(
  id: string,
  language: 'en' | 'de',
  models: string[],
  title: string,
  code: string,
  reading: string,
  line = `${code} ${reading}.`,
): DocSpec {
  return {
    id,
    sidecar: sidecar({
      brand: 'Polarix',
      title,
      language,
      models: models.map((name) => ({ name, aliases: [] })),
    }),
    pages: [[title], [line]],
    chunks: [{ page: 2, section: ['Codes'], kind: 'table', lines: [] }],
    codes: [{ code, title: reading, excerpt: line, page: 2 }],
    snapshots: [],
  };
}

const EN = manual(
  'polarix-service-en',
  'en',
  SERIES,
  'Polarix Service Manual',
  'F3',
  'Outdoor coil sensor open circuit',
);
const DE = manual(
  'polarix-service-de',
  'de',
  SERIES,
  'Polarix Servicehandbuch',
  'F3',
  'Außenregisterfühler Unterbrechung',
);
/** Two other ranges of the brand, whose manuals read F7 as two different things. */
const OTHER = manual(
  'polarix-compact-en',
  'en',
  ['PX-C40'],
  'Polarix Compact Manual',
  'F7',
  'Fan motor locked',
);
const LARGE = manual(
  'polarix-large-en',
  'en',
  ['PX-L200'],
  'Polarix Large Manual',
  'F7',
  'Compressor discharge temperature too high',
);
/**
 * One manual printed in Polish, then the same pages in English: each language prints F5 once, in its
 * own words. The readings are translations, not two meanings.
 */
const BILINGUAL: DocSpec = {
  id: 'polarix-bilingual-pl-en',
  sidecar: sidecar({
    brand: 'Polarix',
    title: 'Polarix Sterownik / Controller',
    language: 'pl',
    models: [{ name: 'PX-B10', aliases: [] }],
  }),
  pages: [
    ['Instrukcja obsługi'],
    ['F5 Błąd czujnika przepływu wody'],
    ['User manual'],
    ['F5 Water flow sensor fault'],
  ],
  pageLanguages: ['pl', 'pl', 'en', 'en'],
  chunks: [
    { page: 2, section: ['Kody błędów'], kind: 'table', lines: [] },
    { page: 4, section: ['Error codes'], kind: 'table', lines: [] },
  ],
  codes: [
    {
      code: 'F5',
      title: 'Błąd czujnika przepływu wody',
      excerpt: 'F5 Błąd czujnika przepływu wody',
      page: 2,
    },
    { code: 'F5', title: 'Water flow sensor fault', excerpt: 'F5 Water flow sensor fault', page: 4 },
  ],
  snapshots: [],
};

let api: TestApi;
let authorization: string;

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle([EN, DE, OTHER, LARGE, BILINGUAL]));
  authorization = (await api.key('translations')).authorization;
}, 60_000);
afterAll(() => api.close());

async function diagnose(body: Record<string, unknown>): Promise<DiagnosticResponse> {
  const res = await api.request({
    method: 'POST',
    url: '/v1/diagnostic',
    headers: { authorization },
    payload: { brand: 'Polarix', ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('a manual printed in two languages', () => {
  it('answers in the asked language without asking for the model, and cites the other printing', async () => {
    const de = await diagnose({ error_code: 'F3', language: 'de' });
    expect(de.state).toBe('answer');
    expect(de.title).toBe('Außenregisterfühler Unterbrechung');
    expect(de.citation?.document_id).toBe('polarix-service-de');
    expect(de.alternatives.map((a) => a.citation.document_id)).toContain('polarix-service-en');
    const en = await diagnose({ error_code: 'F3', language: 'en' });
    expect(en.state).toBe('answer');
    expect(en.citation?.document_id).toBe('polarix-service-en');
    const any = await diagnose({ error_code: 'F3' });
    expect(any.state).toBe('answer');
    expect(any.follow_up_questions.map((q) => q.field)).not.toContain('error_code');
  });

  it('still asks for the model when manuals of different models read a code differently', async () => {
    const body = await diagnose({ error_code: 'F7' });
    expect(body.state).toBe('ambiguous');
    expect(body.follow_up_questions[0]?.field).toBe('model');
    expect(body.follow_up_questions[0]?.options).toEqual(expect.arrayContaining(['PX-C40', 'PX-L200']));
  });
});

describe('one manual printed in two languages, one after the other', () => {
  it('answers in the asked language, citing the other language as an alternative', async () => {
    const pl = await diagnose({ model: 'PX-B10', error_code: 'F5', language: 'pl' });
    expect(pl.state).toBe('answer');
    expect(pl.title).toBe('Błąd czujnika przepływu wody');
    expect(pl.citation?.page).toBe(2);
    expect(pl.alternatives.map((a) => a.citation.page)).toEqual([4]);
    const en = await diagnose({ model: 'PX-B10', error_code: 'F5', language: 'en' });
    expect(en.state).toBe('answer');
    expect(en.title).toBe('Water flow sensor fault');
    expect(en.citation?.page).toBe(4);
  });

  it("answers in the manual's own language when none is asked, or one it does not print", async () => {
    for (const language of [undefined, 'fr']) {
      const body = await diagnose({ model: 'PX-B10', error_code: 'F5', ...(language ? { language } : {}) });
      expect(body.state, String(language)).toBe('answer');
      expect(body.citation?.page, String(language)).toBe(2);
    }
  });
});
