import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import { buildFixtureBundle, type DocSpec, sidecar, type TestApi, testApi } from './fixture.js';

/**
 * One manual printed in two languages reads a code in two languages: for the same models, the model on
 * the nameplate cannot choose between the readings, so the answer must not ask for it. Manuals of
 * different models that read a code differently still ask.
 */
const models = [
  { name: 'PX-90', aliases: [] },
  { name: 'PX-120', aliases: [] },
];

function manual(id: string, language: 'en' | 'de', title: string, line: string, reading: string): DocSpec {
  return {
    id,
    sidecar: sidecar({ brand: 'Polarix', title, language, models }),
    pages: [[title], ['F3', line]],
    chunks: [{ page: 2, section: ['F3'], kind: 'table', lines: [] }],
    codes: [{ code: 'F3', title: reading, excerpt: line, page: 2 }],
    snapshots: [],
  };
}

const EN = manual(
  'polarix-service-en',
  'en',
  'Polarix Service Manual',
  'F3 Outdoor coil sensor open circuit.',
  'Outdoor coil sensor open circuit',
);
const DE = manual(
  'polarix-service-de',
  'de',
  'Polarix Servicehandbuch',
  'F3 Außenregisterfühler Unterbrechung.',
  'Außenregisterfühler Unterbrechung',
);
/** Another range of the brand, whose manual reads the same code as something else. */
const OTHER: DocSpec = {
  id: 'polarix-compact-en',
  sidecar: sidecar({
    brand: 'Polarix',
    title: 'Polarix Compact Manual',
    models: [{ name: 'PX-C40', aliases: [] }],
  }),
  pages: [['Polarix Compact Manual'], ['F7 Fan motor locked.']],
  chunks: [{ page: 2, section: ['Codes'], kind: 'table', lines: [] }],
  codes: [{ code: 'F7', title: 'Fan motor locked', excerpt: 'F7 Fan motor locked.', page: 2 }],
  snapshots: [],
};
/** A third range, whose manual reads F7 as something else again. */
const LARGE: DocSpec = {
  id: 'polarix-large-en',
  sidecar: sidecar({
    brand: 'Polarix',
    title: 'Polarix Large Manual',
    models: [{ name: 'PX-L200', aliases: [] }],
  }),
  pages: [['Polarix Large Manual'], ['F7 Compressor discharge temperature too high.']],
  chunks: [{ page: 2, section: ['Codes'], kind: 'table', lines: [] }],
  codes: [
    {
      code: 'F7',
      title: 'Compressor discharge temperature too high',
      excerpt: 'F7 Compressor discharge temperature too high.',
      page: 2,
    },
  ],
  snapshots: [],
};

let api: TestApi;
let authorization: string;

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle([EN, DE, OTHER, LARGE]));
  authorization = (await api.key('translations')).authorization;
}, 60_000);
afterAll(() => api.close());

async function diagnose(body: Record<string, unknown>): Promise<DiagnosticResponse> {
  const res = await api.app.inject({
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
