import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReader } from '../../src/bundle/reader.js';
import { corpusView } from '../../src/engine/corpus.js';
import { OfflinePackService } from '../../src/engine/offline-pack.js';
import { buildFixtureBundle, coldwaveSplit } from '../api/fixture.js';

/**
 * Built packs are kept in a cache bounded in bytes: a pack asked again within the bound is the same
 * bytes, not cut again; one that does not fit is cut again on every ask, the same pack each time, and
 * the cache's bound holds whatever the number of distinct selections asked.
 */
let reader: BundleReader;

beforeAll(async () => {
  reader = new BundleReader(await buildFixtureBundle([coldwaveSplit()]));
}, 60_000);
afterAll(() => reader.close());

const ask = { brands: ['Coldwave'], models: [] };

describe('offline packs kept by the service', () => {
  it('keeps a pack that fits the bound: asked again, the same bytes are served', async () => {
    const packs = new OfflinePackService(corpusView(reader));
    const first = await packs.export(ask);
    const again = await packs.export(ask);
    expect(again.binary!.data).toBe(first.binary!.data);
  });

  it('cuts a pack larger than the bound again on every ask, the same pack each time', async () => {
    const packs = new OfflinePackService(corpusView(reader), { cacheBytes: 1024 });
    const first = await packs.export(ask);
    expect(first.binary!.data.length).toBeGreaterThan(1024);
    const again = await packs.export(ask);
    expect(again.binary!.data).not.toBe(first.binary!.data);
    expect(again.binary!.etag).toBe(first.binary!.etag);
    expect(Buffer.compare(again.binary!.data, first.binary!.data)).toBe(0);
  });

  it('holds no more than its bound: the oldest pack goes when another one is kept', async () => {
    const other = { brands: ['Demotherm'], models: [] };
    const unbounded = new OfflinePackService(corpusView(reader));
    const a = (await unbounded.export(ask)).binary!.data.length;
    const b = (await unbounded.export(other)).binary!.data.length;
    // Room for either pack alone, not for both.
    const packs = new OfflinePackService(corpusView(reader), {
      cacheBytes: Math.max(a, b) + Math.floor(Math.min(a, b) / 2),
    });
    const first = await packs.export(ask);
    const second = await packs.export(other);
    expect((await packs.export(other)).binary!.data).toBe(second.binary!.data);
    const firstAgain = await packs.export(ask);
    expect(firstAgain.binary!.data).not.toBe(first.binary!.data);
    expect(firstAgain.binary!.etag).toBe(first.binary!.etag);
  });
});
