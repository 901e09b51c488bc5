import crypto from 'node:crypto';
import type { SnapshotMeta, SnapshotRequest } from '../contract/catalog.js';
import type { CorpusView } from './corpus.js';
import { ServiceError } from './errors.js';

export interface SnapshotImage {
  meta: SnapshotMeta;
  data: Buffer;
}

/** Converted and resized images kept in memory, least recently used dropped first. */
class ByteLru {
  private readonly map = new Map<string, SnapshotImage>();
  private bytes = 0;
  constructor(private readonly maxBytes: number) {}
  get(key: string): SnapshotImage | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: SnapshotImage): void {
    if (value.data.length > this.maxBytes) return;
    this.map.set(key, value);
    this.bytes += value.data.length;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.maxBytes) break;
      this.map.delete(k);
      this.bytes -= v.data.length;
    }
  }
}

/**
 * Page snapshots as the bundle holds them (WebP), or converted to PNG and/or narrowed on request. Each
 * variant is computed once and cached; its ETag derives from the stored image and the variant, so it is
 * stable across restarts and servers holding the same bundle.
 */
export class SnapshotService {
  private readonly cache: ByteLru;
  private readonly digests = new Map<string, string>();

  constructor(
    private readonly view: CorpusView,
    options: { cacheBytes?: number } = {},
  ) {
    this.cache = new ByteLru(options.cacheBytes ?? 64 * 1024 * 1024);
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
      // sharp (libvips) is loaded on the first conversion only: most callers never resize a page.
      const { default: sharp } = await import('sharp');
      let img = sharp(row.webp);
      if (resize) img = img.resize({ width: input.width, withoutEnlargement: true });
      img = input.format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 80 });
      const out = await img.toBuffer({ resolveWithObject: true });
      data = out.data;
      width = out.info.width;
      height = out.info.height;
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
    this.cache.set(key, image);
    return image;
  }
}
