import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import type { StrictDiagnosticResponse } from '../../src/contract/models.js';
import { containsVerbatim } from '../../src/text/normalise.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

let api: TestApi;
let auth: { authorization: string };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  auth = { authorization: (await api.key()).authorization };
});
afterAll(() => api.close());

async function v1(body: Record<string, unknown>): Promise<DiagnosticResponse> {
  const res = await api.request({ method: 'POST', url: '/v1/diagnostic', headers: auth, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function v2(body: Record<string, unknown>): Promise<StrictDiagnosticResponse> {
  const res = await api.request({ method: 'POST', url: '/v2/diagnostic', headers: auth, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Every cited page exists and every excerpt stands on its page. */
function expectNoPhantom(body: DiagnosticResponse): void {
  const citations = [body.citation, body.procedure, ...body.alternatives.map((a) => a.citation)].filter(
    (c) => c !== null,
  );
  for (const c of citations) {
    const doc = api.reader.document(c.document_id);
    expect(doc, c.document_id).toBeDefined();
    expect(c.page).toBeGreaterThanOrEqual(1);
    expect(c.page_end).toBeLessThanOrEqual(doc!.page_count);
    expect(c.snapshot_url).toBe(`/v1/pdf-snapshot/${c.document_id}/${c.page}`);
    expect(c.resource_uri).toBe(`heatsource://documents/${c.document_id}/pages/${c.page}`);
  }
  if (body.excerpt) {
    const page = api.reader.page(body.excerpt.document_id, body.excerpt.page);
    expect(containsVerbatim(page!.text, body.excerpt.text)).toBe(true);
  }
}

describe('POST /v1/diagnostic', () => {
  it('answers from the exact model with a verbatim excerpt, steps, part, citation and procedure', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9', language: 'en' });
    expect(body.state).toBe('answer');
    expect(body.confidence).toEqual({ band: 'high', score: 0.95 });
    expect(body.brand).toBe('Demotherm');
    expect(body.model).toMatchObject({
      name: 'DT-A100-E',
      match: 'exact',
      model_id: 'demotherm:DTA100E',
      range: 'Alpha',
    });
    expect(body.error_code).toBe('E9');
    expect(body.title).toBe('Water flow error');
    expect(body.excerpt).toEqual({ text: FIX.e9Excerpt, document_id: FIX.alpha, page: 2 });
    expect(body.steps).toEqual([
      { order: 1, text: 'Check the strainer', safety: 'Isolate the power supply first' },
      { order: 2, text: 'Check FS1 continuity', safety: null },
    ]);
    expect(body.part).toEqual({ name: 'flow switch FS1', reference: '4711' });
    expect(body.citation).toMatchObject({
      document_id: FIX.alpha,
      title: 'Alpha Monobloc Service Manual',
      page: 2,
      page_end: 4,
      section: '5 Error codes',
    });
    expect(body.procedure).toMatchObject({ document_id: FIX.alpha, page: 3, page_end: 4 });
    expect(body.procedure?.section).toBe('6 Troubleshooting procedures / 6.2 Procedure E9');
    expect(body.alternatives.map((a) => a.document_id)).toEqual([FIX.alphaNl]);
    expect(body.follow_up_questions).toEqual([]);
    expect(body.billable).toBe(true);
    expectNoPhantom(body);
  });

  it('prefers the manual in the language asked', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9', language: 'nl' });
    expect(body.state).toBe('answer');
    expect(body.excerpt).toEqual({ text: FIX.e9NlExcerpt, document_id: FIX.alphaNl, page: 1 });
    expectNoPhantom(body);
  });

  it('matches an alias and says so, with a lower score', async () => {
    const body = await v1({ brand: 'demo therm', model: 'dt a100 tr', error_code: 'e-9' });
    expect(body.state).toBe('answer');
    expect(body.brand).toBe('Demotherm');
    expect(body.model).toMatchObject({ name: 'DT-A100-E', match: 'alias', query: 'dt a100 tr' });
    expect(body.confidence.score).toBeLessThan(0.95);
    expect(body.confidence.band).toBe('high');
  });

  it('matches one close name fuzzily, with medium confidence', async () => {
    const missingSuffix = await v1({ brand: 'Demotherm', model: 'DT-A100', error_code: 'E9' });
    expect(missingSuffix.state).toBe('answer');
    expect(missingSuffix.model).toMatchObject({ name: 'DT-A100-E', match: 'fuzzy' });
    expect(missingSuffix.confidence.band).toBe('medium');
    const letterForDigit = await v1({ brand: 'Demotherm', model: 'DT-AI00-E', error_code: 'E9' });
    expect(letterForDigit.model).toMatchObject({ name: 'DT-A100-E', match: 'fuzzy' });
  });

  it('never reads another digit as a slip: a different number is out of coverage', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A101-E', error_code: 'E9' });
    expect(body.state).toBe('out_of_coverage');
    expect(body.excerpt).toBeNull();
    expect(body.model).toBeNull();
    expect(body.follow_up_questions[0]?.field).toBe('model');
    expect(body.billable).toBe(false);
  });

  it('is ambiguous for a range name, asking which model, with alternatives', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'Alpha', error_code: 'E9' });
    expect(body.state).toBe('ambiguous');
    expect(body.model).toBeNull();
    expect(body.excerpt).toBeNull();
    expect(body.follow_up_questions[0]).toMatchObject({ field: 'model' });
    expect(body.follow_up_questions[0]?.options).toEqual(expect.arrayContaining(['DT-A100-E']));
    expect(body.follow_up_questions[0]?.options).not.toContain('DT-B300');
    expect(body.alternatives.length).toBeGreaterThan(0);
    expectNoPhantom(body);
  });

  it('is unknown for an exact model whose manuals do not print the code, citing other models as alternatives', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-B300', error_code: 'E01' });
    expect(body.state).toBe('unknown_code');
    expect(body.title).toBeNull();
    expect(body.billable).toBe(false);
    expect(body.model).toMatchObject({ name: 'DT-B300', match: 'exact' });
    expect(body.excerpt).toBeNull();
    expect(body.alternatives).toHaveLength(1);
    expect(body.alternatives[0]).toMatchObject({
      document_id: FIX.alpha,
      error_code: 'E01',
      models: ['DT-A100-E', 'DT-A200-E'],
    });
    expect(body.follow_up_questions[0]?.options).toContain('DT-A100-E');
    expectNoPhantom(body);
  });

  it('is ambiguous without a model', async () => {
    const body = await v1({ brand: 'Demotherm', error_code: 'E9' });
    expect(body.state).toBe('ambiguous');
    expect(body.alternatives.map((a) => a.document_id).sort()).toEqual(
      [FIX.alpha, FIX.alphaNl, FIX.beta].sort(),
    );
  });

  it('is ambiguous when the manual prints the code with two meanings', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'P1' });
    expect(body.state).toBe('ambiguous');
    expect(body.alternatives.map((a) => a.title).sort()).toEqual([
      'High pressure switch open',
      'Pump relay welded',
    ]);
    expect(body.follow_up_questions[0]?.field).toBe('error_code');
  });

  it('says unknown_code when no manual of the brand documents it', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'Z99' });
    expect(body.state).toBe('unknown_code');
    expect(body.model?.name).toBe('DT-A100-E');
    expect(body.citation).toBeNull();
    expect(body.error_code).toBe('Z99');
  });

  it('finds a zero-padded code typed without padding, with lower confidence', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E1' });
    expect(body.state).toBe('answer');
    expect(body.error_code).toBe('E01');
    expect(body.confidence.score).toBeCloseTo(0.85);
  });

  it('never serves an extracted row whose excerpt is not on its page', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'X1' });
    expect(body.state).toBe('unknown_code');
    expect(body.excerpt).toBeNull();
  });

  it('is out_of_coverage for a brand without manuals, known alias or not', async () => {
    for (const brand of ['Vaillant', 'Acme Heat']) {
      const body = await v1({ brand, model: 'X', error_code: 'F28' });
      expect(body.state).toBe('out_of_coverage');
      expect(body.brand).toBeNull();
      expect(body.follow_up_questions[0]).toMatchObject({ field: 'brand', options: ['Demotherm'] });
    }
  });

  it('answers from a manual not approved, with a lower score', async () => {
    const body = await v1({ brand: 'Demotherm', model: 'DT-C400-M', error_code: 'H7' });
    expect(body.state).toBe('answer');
    expect(body.confidence.score).toBeCloseTo(0.85);
  });

  it('keeps the response shape whatever the state', async () => {
    const keys = Object.keys(await v1({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'E9' })).sort();
    for (const req of [
      { brand: 'Nope', error_code: 'E9' },
      { brand: 'Demotherm', model: 'Alpha', error_code: 'E9' },
      { brand: 'Demotherm', model: 'DT-A100-E', error_code: 'Z99' },
    ]) {
      expect(Object.keys(await v1(req)).sort()).toEqual(keys);
    }
  });
});

describe('POST /v2/diagnostic', () => {
  it('answers exact_source from an approved manual of the exact model or alias', async () => {
    const body = await v2({ brand: 'Demotherm', model: 'DT-A100-TR', error_code: 'E9', language: 'en' });
    expect(body.status).toBe('exact_source');
    expect(body.billable).toBe(true);
    expect(body.model).toMatchObject({ name: 'DT-A100-E', match: 'alias', model_id: 'demotherm:DTA100E' });
    expect(body.sources.map((s) => s.document_id).sort()).toEqual([FIX.alpha, FIX.alphaNl].sort());
    expect(body.diagnostic?.state).toBe('answer');
    expect(body.diagnostic?.excerpt?.text).toBe(FIX.e9Excerpt);
    expectNoPhantom(body.diagnostic!);
  });

  it('is code_not_in_source when the exact manual lacks the code, even if another model has it', async () => {
    const body = await v2({ brand: 'Demotherm', model: 'DT-A100-E', error_code: 'C4' });
    expect(body).toMatchObject({ status: 'code_not_in_source', diagnostic: null, billable: false });
    expect(body.sources.length).toBe(2);
  });

  it('is no_exact_source without an approved manual, for a range, a close name or an unknown brand', async () => {
    const unapproved = await v2({ brand: 'Demotherm', model: 'DT-C400-M', error_code: 'H7' });
    expect(unapproved).toMatchObject({
      status: 'no_exact_source',
      diagnostic: null,
      billable: false,
      reason: null,
    });
    expect(unapproved.model?.name).toBe('DT-C400-M');
    expect(await v2({ brand: 'Demotherm', model: 'Alpha', error_code: 'E9' })).toMatchObject({
      status: 'no_exact_source',
      reason: 'range_name',
      model: null,
      diagnostic: null,
    });
    expect(await v2({ brand: 'Demotherm', model: 'DT-A100', error_code: 'E9' })).toMatchObject({
      status: 'no_exact_source',
      reason: 'unknown_model',
    });
    expect(await v2({ brand: 'Vaillant', model: 'aroTHERM', error_code: 'F28' })).toMatchObject({
      status: 'no_exact_source',
      reason: 'unknown_brand',
    });
  });

  it('requires a model', async () => {
    const res = await api.request({
      method: 'POST',
      url: '/v2/diagnostic',
      headers: auth,
      payload: { brand: 'Demotherm', error_code: 'E9' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'model', message: 'is required' }]);
  });
});
