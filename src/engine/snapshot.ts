import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { SnapshotMeta, SnapshotRequest } from '../contract/catalog.js';
import { Admission } from './admission.js';
import type { CorpusView } from './corpus.js';
import { ServiceError } from './errors.js';
import { SnapshotConverter } from './snapshot-convert.js';

export interface SnapshotImage {
  meta: SnapshotMeta;
  data: Buffer;
}

/** One converter per process, whatever bundle is served: conversions go one at a time in it. */
let converter: SnapshotConverter | undefined;
/** Conversions asked of the converter by this process, whatever bundle: what the cache did not spare. */
let conversions = 0;

/** Page conversions this process has asked of its converter since it started (a metric). */
export function snapshotConversions(): number {
  return conversions;
}

/**
 * Bytes of page images kept by default. Each one is a native buffer in the server's malloc heap; under
 * the soak's mix a 64 MiB cache filled with one-off widths and held 62-73 MB of external memory, while the
 * images asked for again and again (the stored page and three common widths, both formats, of the demo
 * bundle's 42 pages) take about 29 MiB. 32 MiB keeps those and costs half (BENCHMARKS.md, soak).
 */
const CACHE_BYTES = 32 * 2 ** 20;
/** Image digests kept: a few dozen bytes each. */
const DIGESTS = 50_000;

/**
 * Page snapshots as the bundle holds them (WebP), or converted to PNG and/or narrowed on request. Each
 * variant is computed once and cached; its ETag derives from the stored image and the variant, so it is
 * stable across restarts and servers holding the same bundle.
 */
export class SnapshotService {
  private readonly cache: LRUCache<string, SnapshotImage>;
  private readonly digests = new LRUCache<string, string>({ max: DIGESTS });
  /**
   * Variants asked before: an image is kept from its second ask. Under the soak's mix, one request for a
   * page image in twenty asks for a width nobody asks for again; kept, those images pushed the ones asked
   * again and again out of the cache and were converted for nothing (BENCHMARKS.md, soak).
   */
  private readonly admission = new Admission();
  /** Conversions under way: concurrent requests for one variant share one conversion. */
  private readonly pending = new Map<string, Promise<SnapshotImage>>();

  constructor(
    private readonly view: CorpusView,
    options: { cacheBytes?: number } = {},
  ) {
    const maxSize = Math.max(1, options.cacheBytes ?? CACHE_BYTES);
    this.cache = new LRUCache<string, SnapshotImage>({
      maxSize,
      sizeCalculation: (image) => Math.max(1, image.data.length),
      // An image larger than the whole cache is served but not kept.
      maxEntrySize: maxSize,
    });
  }

  async get(input: SnapshotRequest & { format: 'webp' | 'png' }): Promise<SnapshotImage> {
    const doc = this.view.document(input.document_id);
    if (!doc)
      throw new ServiceError('document_not_found', `no document "${input.document_id}" in the bundle`);
    if (input.page > doc.page_count) {
      throw new ServiceError(
        'page_not_found',
        `document "${doc.id}" has ${doc.page_count} pages; there is no page ${input.page}`,
      );
    }
    const key = `${doc.id}\u0000${input.page}\u0000${input.format}\u0000${input.width ?? ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    let conversion = this.pending.get(key);
    if (!conversion) {
      conversion = this.convert(doc.id, input, key).finally(() => this.pending.delete(key));
      this.pending.set(key, conversion);
    }
    return conversion;
  }

  private async convert(
    documentId: string,
    input: SnapshotRequest & { format: 'webp' | 'png' },
    key: string,
  ): Promise<SnapshotImage> {
    const doc = { id: documentId };
    // Cached once converted; a conversion that fails is not cached, so the next request tries again.
    const row = this.view.reader.snapshot(doc.id, input.page);
    if (!row) {
      throw new ServiceError(
        'snapshot_not_available',
        `the bundle holds no snapshot of page ${input.page} of "${doc.id}" (built without snapshots, or the page failed to render)`,
      );
    }
    const digestKey = `${doc.id}\u0000${input.page}`;
    let digest = this.digests.get(digestKey);
    if (!digest) {
      digest = crypto.createHash('sha256').update(row.webp).digest('base64url').slice(0, 22);
      this.digests.set(digestKey, digest);
    }
    let data: Buffer = row.webp;
    let width = row.width;
    let height = row.height;
    const resize = input.width !== undefined && input.width < row.width;
    if (resize || input.format === 'png') {
      converter ??= new SnapshotConverter();
      conversions++;
      const out = await converter.convert({
        webp: row.webp,
        ...(resize ? { width: input.width } : {}),
        format: input.format,
      });
      data = out.data;
      width = out.width;
      height = out.height;
    }
    const citation = this.view.citation(doc.id, input.page, input.page, null)!;
    const image: SnapshotImage = {
      data,
      meta: {
        document_id: doc.id,
        page: input.page,
        content_type: input.format === 'png' ? 'image/png' : 'image/webp',
        width,
        height,
        bytes: data.length,
        etag: `"${digest}-${input.format}-${resize ? width : 'full'}"`,
        citation,
      },
    };
    if (this.admission.admit(key)) this.cache.set(key, image);
    return image;
  }
}
