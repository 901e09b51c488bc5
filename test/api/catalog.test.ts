import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

let api: TestApi;
let auth: { authorization: string };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  auth = { authorization: (await api.key('acme', { quota: 100 })).authorization };
});
afterAll(() => api.close());

const get = (url: string) => api.request({ method: 'GET', url, headers: auth });

describe('GET /v1/error-codes/:brand/:code', () => {
  it('lists every manual of the brand documenting the code', async () => {
    const res = await get('/v1/error-codes/demo%20therm/e9');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.brand).toBe('Demotherm');
    expect(body.code).toBe('E9');
    expect(
      body.entries.map((e: { document: { document_id: string } }) => e.document.document_id).sort(),
    ).toEqual([FIX.alpha, FIX.alphaNl, FIX.beta].sort());
    const alpha = body.entries.find(
      (e: { document: { document_id: string } }) => e.document.document_id === FIX.alpha,
    );
    expect(alpha).toMatchObject({
      error_code: 'E9',
      title: 'Water flow error',
      excerpt: { text: FIX.e9Excerpt, page: 2 },
      models: ['DT-A100-E', 'DT-A200-E'],
      citation: { page: 2 },
      procedure: { page: 3, page_end: 4 },
    });
  });

  it('answers 404 with distinct codes for an unknown brand and an undocumented code', async () => {
    const brand = await get('/v1/error-codes/Nope/E9');
    expect(brand.statusCode).toBe(404);
    expect(brand.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(brand.json().code).toBe('brand_not_found');
    const code = await get('/v1/error-codes/Demotherm/Z99');
    expect(code.statusCode).toBe(404);
    expect(code.json().code).toBe('error_code_not_found');
  });
});

describe('GET /v1/products/:brand/:model', () => {
  it('resolves a model and lists its manuals', async () => {
    const res = await get('/v1/products/Demotherm/dt-a100-tr');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.model).toMatchObject({ name: 'DT-A100-E', match: 'alias', aliases: ['DT-A100-TR'] });
    expect(body.documents.map((d: { document_id: string }) => d.document_id).sort()).toEqual(
      [FIX.alpha, FIX.alphaNl].sort(),
    );
    expect(body.error_codes).toBe(4);
  });

  it('refuses a range name and an unknown model with their own codes', async () => {
    const range = await get('/v1/products/Demotherm/Alpha');
    expect(range.statusCode).toBe(404);
    expect(range.json().code).toBe('range_name');
    expect(range.json().detail).toContain('DT-A100-E');
    const unknown = await get('/v1/products/Demotherm/DT-Z999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('model_not_found');
    expect((await get('/v1/products/Nope/X')).json().code).toBe('brand_not_found');
  });
});

describe('GET /v1/procedure/:chunk_id', () => {
  it('returns the chunk with its citation and the codes it explains', async () => {
    const res = await get(`/v1/procedure/${FIX.procedureChunk}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      chunk_id: FIX.procedureChunk,
      document_id: FIX.alpha,
      kind: 'procedure',
      page_start: 3,
      page_end: 4,
      section_path: ['6 Troubleshooting procedures', '6.2 Procedure E9'],
      citation: { page: 3, page_end: 4 },
      error_codes: [{ error_code: 'E9', title: 'Water flow error' }],
    });
    expect(body.text).toContain('Replace the flow switch FS1');
  });

  it('answers 404 chunk_not_found', async () => {
    const res = await get('/v1/procedure/nope.p1.1');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('chunk_not_found');
  });
});

describe('GET /v1/registry', () => {
  it('describes brands, models, manuals, code counts and the bundle', async () => {
    const res = await get('/v1/registry');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.brands).toHaveLength(1);
    expect(body.brands[0]).toMatchObject({ name: 'Demotherm', error_codes: 6 });
    expect(body.brands[0].aliases).toContain('demo therm');
    expect(body.brands[0].models.map((m: { name: string }) => m.name)).toEqual([
      'DT-A100-E',
      'DT-A200-E',
      'DT-B300',
      'DT-C400-M',
    ]);
    expect(body.totals).toEqual({ brands: 1, models: 4, documents: 4, pages: 7, error_codes: 9 });
    expect(body.bundle.version).toBe(api.reader.formatVersion);
    expect(body.next_cursor).toBeNull();
  });

  it('paginates and refuses a cursor it did not issue', async () => {
    const first = (await get('/v1/registry?limit=1')).json();
    expect(first.brands).toHaveLength(1);
    expect(first.next_cursor).toBeNull();
    const bad = await get('/v1/registry?cursor=garbage');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'cursor', message: 'not a cursor this server issued' }]);
    const limit = await get('/v1/registry?limit=0');
    expect(limit.statusCode).toBe(400);
    expect(limit.json().errors[0].field).toBe('limit');
  });
});

describe('GET /v1/me', () => {
  it('shows the account, the key prefix and mode, and the quota', async () => {
    const res = await get('/v1/me');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.account.name).toBe('acme');
    expect(body.key.prefix).toMatch(/^ak_test_.{6}$/);
    expect(auth.authorization).toContain(body.key.prefix);
    expect(body.key.mode).toBe('test');
    expect(body.quota).toMatchObject({ limit: 100, used: 0, remaining: 100 });
    expect(body.quota.period).toMatch(/^\d{4}-\d{2}$/);
    expect(JSON.stringify(body)).not.toContain(auth.authorization.slice(7));
  });
});

describe('v2 models', () => {
  const resolve = (payload: object) =>
    api.request({ method: 'POST', url: '/v2/models/resolve', headers: auth, payload });

  it('resolves exact names and aliases, never fuzzily', async () => {
    expect((await resolve({ brand: 'Demotherm', model: 'dt a100 e' })).json()).toMatchObject({
      status: 'resolved',
      reason: null,
      model: { name: 'DT-A100-E', match: 'exact', model_id: 'demotherm:DTA100E' },
    });
    expect((await resolve({ brand: 'Demotherm', model: 'DT-A100-TR' })).json().model.match).toBe('alias');
    const close = (await resolve({ brand: 'Demotherm', model: 'DT-A100' })).json();
    expect(close).toMatchObject({ status: 'unresolved', reason: 'unknown_model', model: null });
    expect(close.candidates.map((m: { name: string }) => m.name)).toContain('DT-A100-E');
  });

  it('answers a range name unresolved with its models as candidates', async () => {
    const body = (await resolve({ brand: 'Demotherm', model: 'Alpha' })).json();
    expect(body).toMatchObject({ status: 'unresolved', reason: 'range_name', model: null });
    expect(body.candidates.map((m: { name: string }) => m.name)).toEqual(['DT-A100-E', 'DT-A200-E']);
    expect((await resolve({ brand: 'Nope', model: 'Alpha' })).json().reason).toBe('unknown_brand');
  });

  it('reports the coverage of a model by id', async () => {
    const res = await get('/v2/models/demotherm:DTA100E/coverage');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.exact_source).toBe(true);
    expect(body.model.name).toBe('DT-A100-E');
    expect(body.documents).toHaveLength(2);
    expect(body.error_codes).toEqual({ exact_source: 4, all_sources: 4 });
    const gamma = (await get('/v2/models/demotherm:dt-c400-m/coverage')).json();
    expect(gamma.exact_source).toBe(false);
    expect(gamma.documents[0]).toMatchObject({ approved: false, exact_source: false, error_codes: 1 });
    const missing = await get('/v2/models/demotherm:NOPE/coverage');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('model_not_found');
  });
});

describe('GET /v1/search', () => {
  it('finds passages with citations to pages that exist', async () => {
    const res = await get('/v1/search?q=flow%20switch&limit=3');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.query).toBe('flow switch');
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) {
      const doc = api.reader.document(r.document_id);
      expect(r.citation.page).toBeLessThanOrEqual(doc!.page_count);
    }
  });

  it('says which filter names nothing the corpus holds, rather than only answering no results', async () => {
    const of = async (query: string) => {
      const res = await get(`/v1/search?q=flow%20switch&${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { results: unknown[]; unmatched_filters: string[] };
    };
    const brand = await of('brand=Acme');
    expect(brand).toMatchObject({ results: [], unmatched_filters: ['brand'] });
    const model = await of(`brand=${FIX.brand}&model=NOPE-1`);
    expect(model).toMatchObject({ results: [], unmatched_filters: ['model'] });
    const known = await of(`brand=${FIX.brand}`);
    expect(known.results.length).toBeGreaterThan(0);
    expect(known.unmatched_filters).toEqual([]);
    // Known filters and words that match nothing: no filter is blamed.
    const words = await get(`/v1/search?q=zzqx&brand=${FIX.brand}`);
    expect(words.json()).toMatchObject({ results: [], unmatched_filters: [] });
  });

  it('validates its query', async () => {
    const res = await get('/v1/search');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain('q');
  });
});

describe('GET /v1/openapi.json', () => {
  it('is readable without a key and describes every operation with resolvable references', async () => {
    const res = await api.request({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    for (const op of OPERATIONS) {
      const path = op.path.replace(/:([a-z_]+)/g, '{$1}');
      const entry = doc.paths[path]?.[op.method.toLowerCase()];
      expect(entry, `${op.method} ${path}`).toBeDefined();
      expect(entry.operationId).toBe(op.name);
      expect(Object.keys(entry.responses)).toEqual(
        expect.arrayContaining([String(op.successStatus ?? 200), '400', '401', '429', '500']),
      );
    }
    expect(doc.paths['/v1/diagnostic'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/DiagnosticRequest',
    );
    expect(doc.paths['/v1/diagnostic/turn'].post.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
    expect(doc.paths['/v1/search'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['q', 'brand', 'model', 'language', 'limit', 'cursor']),
    );
    const text = JSON.stringify(doc);
    for (const m of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) {
      expect(doc.components.schemas[m[1]!], m[1]).toBeDefined();
    }
    expect(text).not.toContain('#/$defs/');
    expect(Object.keys(doc.components.schemas).filter((n) => n.endsWith('Input'))).toEqual([]);
    expect(doc.components.schemas.DiagnosticResponse.properties.state.$ref).toBe(
      '#/components/schemas/DiagnosticState',
    );
  });
});

describe('OpenAPI request bodies', () => {
  it('leave path parameters out of POST bodies', async () => {
    const doc = (await api.request({ method: 'GET', url: '/v1/openapi.json' })).json();
    for (const op of OPERATIONS.filter((o) => o.method === 'POST' && o.path.includes(':'))) {
      const path = op.path.replace(/:([a-z_]+)/g, '{$1}');
      const schema = doc.paths[path].post.requestBody.content['application/json'].schema;
      const names = [...op.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]!);
      for (const name of names) {
        expect(schema.properties?.[name], `${op.name} body lists ${name}`).toBeUndefined();
        expect(schema.required ?? [], `${op.name} requires ${name}`).not.toContain(name);
      }
    }
  });
});
