import type * as Sdk from '@heatsource/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import { FIX } from '../api/fixture.js';
import { ensureSdkBuilt } from './build.js';
import { type ListeningApi, listeningApi } from './server.js';

ensureSdkBuilt();
const sdk: typeof Sdk = await import('@heatsource/sdk');
const { createClient, HeatsourceError } = sdk;

let server: ListeningApi;
let hs: Sdk.HeatsourceApi;

beforeAll(async () => {
  server = await listeningApi();
  hs = createClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
});
afterAll(() => server.close());

async function rejection(p: Promise<unknown>): Promise<Sdk.HeatsourceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HeatsourceError);
  return err as Sdk.HeatsourceError;
}

const E9 = { brand: FIX.brand, model: 'DT-A100-E', error_code: 'E9' };

describe('the SDK against a listening server', () => {
  it('diagnose answers with the excerpt and its page', async () => {
    const r = await hs.diagnose(E9);
    expect(r.state).toBe('answer');
    expect(r.excerpt?.text).toBe(FIX.e9Excerpt);
    expect(r.citation).toMatchObject({ document_id: FIX.alpha, page: 2 });
    expect(r.procedure?.page).toBe(3);
    expect(r.steps.map((s) => s.order)).toEqual([1, 2]);
  });

  it('diagnoseStrict answers from the exact manual and refuses a range name', async () => {
    const exact = await hs.diagnoseStrict(E9);
    expect(exact.status).toBe('exact_source');
    expect(exact.diagnostic?.excerpt?.page).toBe(2);
    const range = await hs.diagnoseStrict({ ...E9, model: 'Alpha' });
    expect(range).toMatchObject({ status: 'no_exact_source', reason: 'range_name', diagnostic: null });
  });

  it('diagnoseTurn always carries an Idempotency-Key, which the server requires', async () => {
    const outcome = await hs.diagnoseTurn({ brand: FIX.brand, model: 'DT-A100-E', error_code: 'E9' }).then(
      (body) => ({ body, code: null as string | null }),
      (e: Sdk.HeatsourceError) => ({ body: null, code: e.code }),
    );
    expect(outcome.code).not.toBe('idempotency_key_required');
    if (outcome.code === null) expect(outcome.body?.conversation_id).toMatch(/\S/);
    else expect(outcome.code).toBe('not_implemented');
  });

  it('search pages through results with next_cursor', async () => {
    const first = await hs.search({ q: 'flow switch', brand: FIX.brand, limit: 1 });
    expect(first.results).toHaveLength(1);
    expect(first.results[0]?.citation.document_id).toBe(FIX.alpha);
    expect(first.next_cursor).toBeTruthy();
    const second = await hs.search({
      q: 'flow switch',
      brand: FIX.brand,
      limit: 1,
      cursor: first.next_cursor!,
    });
    expect(second.results[0]?.chunk_id).not.toBe(first.results[0]?.chunk_id);
  });

  it('getProcedure, getErrorCode and getProduct read the catalogue', async () => {
    const proc = await hs.getProcedure({ chunk_id: FIX.procedureChunk });
    expect(proc).toMatchObject({ document_id: FIX.alpha, page_start: 3, page_end: 4, kind: 'procedure' });
    const code = await hs.getErrorCode({ brand: FIX.brand, code: 'e9' });
    expect(code.entries.map((e) => e.document.document_id).sort()).toEqual([
      FIX.alpha,
      FIX.alphaNl,
      FIX.beta,
    ]);
    const product = await hs.getProduct({ brand: 'demotherm', model: 'DT-A100-TR' });
    expect(product.model).toMatchObject({ name: 'DT-A100-E', match: 'alias' });
    expect(product.documents.map((d) => d.document_id)).toContain(FIX.alphaNl);
  });

  it('resolveModel and getModelCoverage chain through the model id', async () => {
    const resolved = await hs.resolveModel({ brand: FIX.brand, model: 'dt a100 e' });
    expect(resolved.status).toBe('resolved');
    const coverage = await hs.getModelCoverage({ model_id: resolved.model!.model_id });
    expect(coverage.exact_source).toBe(true);
    expect(coverage.documents.map((d) => d.document_id)).toContain(FIX.alpha);
    const range = await hs.resolveModel({ brand: FIX.brand, model: 'Alpha' });
    expect(range).toMatchObject({ status: 'unresolved', reason: 'range_name' });
    expect(range.candidates.map((c) => c.name)).toEqual(['DT-A100-E', 'DT-A200-E']);
  });

  it('getRegistry and me describe the corpus and the caller', async () => {
    const registry = await hs.getRegistry();
    expect(registry.brands.map((b) => b.name)).toEqual([FIX.brand]);
    expect(registry.totals.documents).toBe(4);
    const me = await hs.me();
    expect(me.account.id).toBe(server.accountId);
    expect(server.apiKey.startsWith(me.key!.prefix)).toBe(true);
  });

  it('getPdfSnapshot returns the image bytes and their type', async () => {
    const webp = await hs.getPdfSnapshot({ document_id: FIX.alpha, page: 2 });
    expect(webp.contentType).toBe('image/webp');
    expect(webp.data).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(webp.data.slice(8, 12))).toBe('WEBP');
    expect(webp.etag).toBeTruthy();
    const png = await hs.getPdfSnapshot({ document_id: FIX.alpha, page: 2, format: 'png', width: 200 });
    expect(png.contentType).toBe('image/png');
    expect([...png.data.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('openapi needs no key and documents every path the SDK calls that the server serves', async () => {
    const doc = await createClient({ baseUrl: server.baseUrl }).openapi();
    const paths = Object.keys(doc.paths as Record<string, unknown>);
    for (const op of OPERATIONS) expect(paths).toContain(op.path.replace(/:([a-z_]+)/g, '{$1}'));
  });
});

describe('typed errors', () => {
  it('a problem document becomes a HeatsourceError with its status, code and request id', async () => {
    const err = await rejection(hs.getErrorCode({ brand: 'Nobrand', code: 'E9' }));
    expect(err).toMatchObject({ status: 404, code: 'brand_not_found', title: expect.any(String) });
    expect(err.detail).toContain('Nobrand');
    expect(err.instance).toBe('/v1/error-codes/Nobrand/E9');
    expect(err.requestId).toMatch(/\S+/);
    expect(err.message).toBe(err.detail);
  });

  it('validation failures carry the field errors', async () => {
    const err = await rejection(hs.diagnose({ brand: FIX.brand, error_code: '' }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('validation_failed');
    expect(err.errors.map((e) => e.field)).toContain('error_code');
  });

  it('authentication problems are 401 with their own codes', async () => {
    const wrong = createClient({ baseUrl: server.baseUrl, apiKey: 'ak_test_notakeynotakeynotakeynotakeyxx' });
    expect((await rejection(wrong.me())).code).toBe('invalid_api_key');
    const none = createClient({ baseUrl: server.baseUrl });
    expect((await rejection(none.me())).code).toBe('authentication_required');
  });

  it('path parameters are encoded, so a value with a slash stays one segment', async () => {
    const err = await rejection(hs.getErrorCode({ brand: FIX.brand, code: 'A5/01' }));
    expect(err.code).toBe('error_code_not_found');
  });
});

describe('idempotency against the server', () => {
  const charged = async () =>
    (await server.api.state.ledger({ account_id: server.accountId })).filter(
      (e) => e.operation === 'diagnose',
    );

  it('the same Idempotency-Key is charged once; generated keys differ per call', async () => {
    const before = (await charged()).length;
    const key = `test-${Date.now()}`;
    const a = await hs.diagnose(E9, { idempotencyKey: key });
    const b = await hs.diagnose(E9, { idempotencyKey: key });
    expect(b).toEqual(a);
    expect((await charged()).length).toBe(before + 1);
    await hs.diagnose(E9);
    await hs.diagnose(E9);
    const after = await charged();
    expect(after.length).toBe(before + 3);
    const keys = after.slice(0, 2).map((e) => e.idempotency_key);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});

describe('guided sessions', () => {
  const served = () => OPERATIONS.some((o) => o.method === 'POST' && o.path === '/v2/diagnostic-sessions');

  it('walks a session when the server serves them', async (ctx) => {
    if (!served()) ctx.skip();
    const session = await sdk.startDiagnosticSession(hs, {
      brand: FIX.brand,
      model: 'DT-A100-E',
      equipment: 'air_water',
      error_code: 'E9',
    });
    expect(session.status).toBe('active');
    expect((await hs.getDiagnosticSession(session.id)).id).toBe(session.id);
    const action = session.next_action!;
    const value =
      action.expected.type === 'number'
        ? (action.expected.nominal_range?.[0] ?? 0)
        : { unknown: true as const };
    const next = await sdk.respondToDiagnosticSession(hs, session.id, { action_id: action.id, value });
    expect(next.history.length).toBe(1);
    const undone = await hs.undoDiagnosticSession(session.id);
    expect(undone.history.length).toBe(0);
    expect(undone.next_action?.id).toBe(action.id);
    const closed = await sdk.closeDiagnosticSession(hs, session.id);
    expect(closed.status).toBe('closed');
    const summary = await sdk.getDiagnosticSessionSummary(hs, session.id);
    expect(summary.session_id).toBe(session.id);
    expect(
      (await rejection(hs.respondToDiagnosticSession(session.id, { action_id: action.id, value }))).status,
    ).toBe(409);
  });
});
