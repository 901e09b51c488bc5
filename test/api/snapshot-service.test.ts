import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReader } from '../../src/bundle/reader.js';
import { corpusView } from '../../src/engine/corpus.js';
import { SnapshotService } from '../../src/engine/snapshot.js';
import { buildFixtureBundle, FIX } from './fixture.js';

let reader: BundleReader;

beforeAll(async () => {
  reader = new BundleReader(await buildFixtureBundle());
});
afterAll(() => reader.close());

describe('SnapshotService memory bounds', () => {
  it('shares one conversion between concurrent requests for the same variant', async () => {
    const service = new SnapshotService(corpusView(reader));
    const request = { document_id: FIX.alpha, page: 2, format: 'png' as const, width: 200 };
    const [a, b] = await Promise.all([service.get(request), service.get(request)]);
    expect(a).toBe(b);
    expect(a.meta.content_type).toBe('image/png');
    expect(a.meta.width).toBeLessThanOrEqual(200);
    // Not kept after one ask (the two above shared one conversion): the next ask converts again, and
    // from then on the variant is kept, the same object without a new conversion.
    const again = await service.get(request);
    expect(again).not.toBe(a);
    expect(again.data.equals(a.data)).toBe(true);
    expect(await service.get(request)).toBe(again);
  });

  it('keeps nothing larger than its byte budget, and still serves it', async () => {
    const service = new SnapshotService(corpusView(reader), { cacheBytes: 16 });
    const request = { document_id: FIX.alpha, page: 2, format: 'png' as const };
    const first = await service.get(request);
    const second = await service.get(request);
    expect(second).not.toBe(first);
    expect(second.data.equals(first.data)).toBe(true);
    expect(second.meta.etag).toBe(first.meta.etag);
  });
});
