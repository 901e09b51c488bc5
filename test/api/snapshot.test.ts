import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateImage } from '../../src/http/routes.js';
import { buildFixtureBundle, FIX, type TestApi, testApi } from './fixture.js';

let api: TestApi;
let auth: { authorization: string };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  auth = { authorization: (await api.key()).authorization };
});
afterAll(() => api.close());

const snap = (path: string, headers: Record<string, string> = {}) =>
  api.request({ method: 'GET', url: `/v1/pdf-snapshot/${path}`, headers: { ...auth, ...headers } });

const isWebp = (b: Buffer) =>
  b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP';
const isPng = (b: Buffer) =>
  b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

describe('GET /v1/pdf-snapshot/:document_id/:page', () => {
  it('serves the stored WebP bytes with private immutable caching and an ETag', async () => {
    const res = await snap(`${FIX.alpha}/2`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    // Keyed and billed: never kept by a shared cache.
    expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(res.headers.etag).toMatch(/^"[^"]+"$/);
    expect(res.headers.vary).toBe('Accept');
    expect(isWebp(res.rawPayload)).toBe(true);
    expect(res.rawPayload.equals(api.reader.snapshot(FIX.alpha, 2)!.webp)).toBe(true);
  });

  it('converts to PNG when Accept prefers it, or when format=png', async () => {
    const accept = await snap(`${FIX.alpha}/2`, { accept: 'image/png' });
    expect(accept.statusCode).toBe(200);
    expect(accept.headers['content-type']).toBe('image/png');
    expect(isPng(accept.rawPayload)).toBe(true);
    const query = await snap(`${FIX.alpha}/2?format=png`);
    expect(query.headers['content-type']).toBe('image/png');
    expect(query.headers.etag).toBe(accept.headers.etag);
    const webp = await snap(`${FIX.alpha}/2`);
    expect(accept.headers.etag).not.toBe(webp.headers.etag);
  });

  it('narrows to ?width= and never enlarges', async () => {
    const small = await snap(`${FIX.alpha}/1?width=200`);
    expect(small.statusCode).toBe(200);
    const meta = await sharp(small.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.width).toBe(200);
    expect(meta.height).toBe(283);
    const large = await snap(`${FIX.alpha}/1?width=1500`);
    expect((await sharp(large.rawPayload).metadata()).width).toBe(400);
    for (const width of ['99', '2001', 'wide']) {
      const bad = await snap(`${FIX.alpha}/1?width=${width}`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors[0].field).toBe('width');
    }
  });

  it('keeps a converted width from its second ask, not its first', async () => {
    const conversions = async () => {
      const text = (await api.request({ method: 'GET', url: '/metrics' })).body;
      const m = /^heatsource_snapshot_conversions_total (\d+)$/m.exec(text);
      expect(m).not.toBeNull();
      return Number(m![1]);
    };
    const before = await conversions();
    const first = await snap(`${FIX.alpha}/1?width=237`);
    expect(first.statusCode).toBe(200);
    expect(await conversions()).toBe(before + 1);
    // Asked once, served but not kept: a width nobody asks for again takes no room in the cache.
    const second = await snap(`${FIX.alpha}/1?width=237`);
    expect(await conversions()).toBe(before + 2);
    // Asked again, kept: the third ask is served from the cache, the same bytes and ETag.
    const third = await snap(`${FIX.alpha}/1?width=237`);
    expect(await conversions()).toBe(before + 2);
    expect(third.headers.etag).toBe(first.headers.etag);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(third.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it('answers 304 to If-None-Match with the current ETag', async () => {
    const first = await snap(`${FIX.alpha}/3`);
    const again = await snap(`${FIX.alpha}/3`, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('answers 404 for a page out of range, a page without snapshot and an unknown document', async () => {
    const out = await snap(`${FIX.alpha}/5`);
    expect(out.statusCode).toBe(404);
    expect(out.json().code).toBe('page_not_found');
    const none = await snap(`${FIX.alpha}/4`);
    expect(none.statusCode).toBe(404);
    expect(none.json().code).toBe('snapshot_not_available');
    expect((await snap(`${FIX.beta}/1`)).json().code).toBe('snapshot_not_available');
    expect((await snap('nope/1')).json().code).toBe('document_not_found');
    const zero = await snap(`${FIX.alpha}/0`);
    expect(zero.statusCode).toBe(400);
  });

  it('answers 406 when Accept admits no image we serve', async () => {
    const res = await snap(`${FIX.alpha}/1`, { accept: 'application/json' });
    expect(res.statusCode).toBe(406);
    expect(res.json().code).toBe('not_acceptable');
  });

  it('requires a key like every /v1 route', async () => {
    const res = await api.request({ method: 'GET', url: `/v1/pdf-snapshot/${FIX.alpha}/1` });
    expect(res.statusCode).toBe(401);
  });
});

describe('negotiateImage', () => {
  it('prefers WebP unless PNG ranks higher', () => {
    expect(negotiateImage(undefined)).toBe('webp');
    expect(negotiateImage('*/*')).toBe('webp');
    expect(negotiateImage('image/avif,image/webp,*/*;q=0.8')).toBe('webp');
    expect(negotiateImage('image/png')).toBe('png');
    expect(negotiateImage('image/webp;q=0.5, image/png')).toBe('png');
    expect(negotiateImage('image/*;q=0.9, image/webp;q=0')).toBe('png');
    expect(negotiateImage('text/html')).toBeNull();
  });
});
