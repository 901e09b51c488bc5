import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixtureBundle, coldwaveSplit, type TestApi, testApi } from './fixture.js';

/**
 * Request fields as the service document writes them: `error_code` on every request that names a code
 * (the old `code` is refused with a message naming `error_code`), a model resolved without its brand,
 * and a session whose equipment comes from its model.
 */

/** A second brand: an Air/Air unit, and a model name Demotherm uses as well (DT-B300). */
const COLDWAVE = coldwaveSplit([
  { name: 'CW-S25', aliases: ['CWS25-IN'] },
  { name: 'DT-B300', aliases: [] },
]);

let api: TestApi;
let authorization: string;

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle([COLDWAVE]));
  authorization = (await api.key('fields')).authorization;
}, 60_000);
afterAll(() => api.close());

let keys = 0;
const post = (url: string, payload: object) =>
  api.request({
    method: 'POST',
    url,
    headers: { authorization, 'content-type': 'application/json', 'idempotency-key': `fields-${++keys}` },
    payload,
  });

describe('error_code is the request field', () => {
  const unit = { brand: 'Demotherm', model: 'DT-A100-E' };
  const cases: [string, object][] = [
    ['/v1/diagnostic', unit],
    ['/v2/diagnostic', unit],
    ['/v1/diagnostic/turn', { ...unit, message: 'it stops' }],
    ['/v2/diagnostic-sessions', { ...unit, equipment: 'air_water' }],
  ];

  it.each(cases)('POST %s accepts error_code', async (url, body) => {
    const res = await post(url, { ...body, error_code: 'E9' });
    expect(res.statusCode, res.body).toBeLessThan(300);
  });

  it.each(cases)('POST %s refuses `code`, naming error_code', async (url, body) => {
    const res = await post(url, { ...body, code: 'E9' });
    expect(res.statusCode).toBe(400);
    const p = res.json();
    expect(p.code).toBe('validation_failed');
    expect(p.errors).toContainEqual({
      field: 'code',
      message: 'unknown field: the field is named `error_code`',
    });
  });

  it('keeps the plain message for other unknown fields', async () => {
    const res = await post('/v1/diagnostic', { ...unit, error_code: 'E9', colour: 'red' });
    expect(res.json().errors).toEqual([{ field: 'colour', message: 'unknown field' }]);
  });
});

describe('POST /v2/models/resolve without a brand', () => {
  const resolve = async (payload: object) => (await post('/v2/models/resolve', payload)).json();

  it('resolves a name or alias that one model of the whole corpus has', async () => {
    expect(await resolve({ model: 'DT-A100-E' })).toMatchObject({
      status: 'resolved',
      query: { brand: null, model: 'DT-A100-E' },
      brand: 'Demotherm',
      model: { name: 'DT-A100-E', match: 'exact' },
    });
    expect(await resolve({ model: 'cws25 in' })).toMatchObject({
      status: 'resolved',
      brand: 'Coldwave',
      model: { name: 'CW-S25', match: 'alias' },
    });
  });

  it('answers a name several brands use unresolved, with each brand’s model as a candidate', async () => {
    const body = await resolve({ model: 'DT-B300' });
    expect(body).toMatchObject({ status: 'unresolved', reason: 'ambiguous_model', brand: null, model: null });
    expect(body.candidates.map((m: { brand: string }) => m.brand).sort()).toEqual(['Coldwave', 'Demotherm']);
    // The brand settles it.
    expect(await resolve({ brand: 'Coldwave', model: 'DT-B300' })).toMatchObject({
      status: 'resolved',
      model: { brand: 'Coldwave', equipment: 'air_air' },
    });
  });

  it('never resolves a range name, and says so', async () => {
    const body = await resolve({ model: 'Alpha' });
    expect(body).toMatchObject({ status: 'unresolved', reason: 'range_name', brand: 'Demotherm' });
    expect(body.candidates.map((m: { name: string }) => m.name)).toEqual(['DT-A100-E', 'DT-A200-E']);
  });

  it('answers an unknown name unresolved, and a fuzzy one too', async () => {
    expect(await resolve({ model: 'ZZ-9000' })).toMatchObject({
      status: 'unresolved',
      reason: 'unknown_model',
      brand: null,
      model: null,
    });
    expect((await resolve({ model: 'DT-A100' })).status).toBe('unresolved');
  });
});

describe('POST /v2/diagnostic-sessions derives equipment from the model', () => {
  it('takes the kind of unit from the corpus when the request does not say it', async () => {
    const water = await post('/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-A100-E',
      error_code: 'E9',
    });
    expect(water.statusCode, water.body).toBe(201);
    expect(water.json().equipment.equipment).toBe('air_water');
    const air = await post('/v2/diagnostic-sessions', {
      brand: 'Coldwave',
      model: 'CW-S25',
      error_code: 'U4',
    });
    expect(air.statusCode, air.body).toBe(201);
    expect(air.json().equipment).toMatchObject({ equipment: 'air_air', error_code: 'U4' });
  });

  it('lets the request state it', async () => {
    const res = await post('/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-A100-E',
      equipment: 'air_air',
      symptom: 'no cooling',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().equipment.equipment).toBe('air_air');
  });

  it('requires it when the model does not resolve to one model of the corpus', async () => {
    const before = (await api.state.ledger({})).length;
    const res = await post('/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'NOT-A-MODEL',
      symptom: 'no heat',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().errors.map((e: { field: string }) => e.field)).toEqual(['equipment']);
    expect((await api.state.ledger({})).length).toBe(before);
  });
});
