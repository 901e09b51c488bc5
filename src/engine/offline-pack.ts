import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LRUCache } from 'lru-cache';
import { PACK_META, type PackSelection, writePack } from '../bundle/pack.js';
import { FORMAT_VERSION } from '../bundle/schema.js';
import {
  OFFLINE_PACK_MAX_BYTES,
  OFFLINE_PACK_MEDIA_TYPE,
  type OfflinePackMeta,
  type OfflinePackRequest,
} from '../contract/offline-pack.js';
import { normModel } from '../text/normalise.js';
import type { ServiceResult } from './context.js';
import type { CorpusView } from './corpus.js';
import { ServiceError } from './errors.js';
import type { Knowledge } from './sessions/knowledge-schema.js';

/**
 * Bytes of built packs kept by default. A pack is cut in a fraction of a second to about a second (a
 * manual of the shared corpus, BENCHMARKS.md "Field app and offline packs") and weighs 4 to 14 MB; each
 * distinct set of manuals is another pack, so a client naming many selections filled the former 512 MiB
 * bound with packs asked once, on top of a server meant to stay under 400 MB. 32 MiB keeps the few
 * packs a fleet syncing at the same time asks for (concurrent asks for one selection share one cut in
 * any case) and leaves the rest to be cut again (BENCHMARKS.md, "Offline packs kept by the server").
 */
const CACHE_BYTES = 32 * 2 ** 20;

interface BuiltPack {
  meta: OfflinePackMeta;
  data: Buffer;
}

/**
 * Offline packs cut from the bundle served now (src/bundle/pack.ts writes them). A pack depends only on
 * the bundle and the selection, so built packs are kept (bounded in bytes) and concurrent requests for
 * one selection share one build.
 */
export class OfflinePackService {
  private readonly built: LRUCache<string, BuiltPack>;
  private readonly building = new Map<string, Promise<BuiltPack>>();

  /**
   * `knowledge` gives the troubleshooting knowledge the server's sessions use: packs carry it, so that a
   * session run offline asks what the server would.
   */
  constructor(
    private readonly view: CorpusView,
    private readonly options: { cacheBytes?: number; knowledge?: () => Knowledge } = {},
  ) {
    this.built = new LRUCache({
      maxSize: Math.max(1, options.cacheBytes ?? CACHE_BYTES),
      sizeCalculation: (p) => Math.max(1, p.data.length),
    });
  }

  async export(input: OfflinePackRequest): Promise<ServiceResult<OfflinePackMeta>> {
    const selection = this.select(input);
    const key = JSON.stringify(selection);
    let pack = this.built.get(key);
    if (!pack) {
      let pending = this.building.get(key);
      if (!pending) {
        pending = Promise.resolve().then(() => this.build(selection));
        this.building.set(key, pending);
        pending.then(
          () => this.building.delete(key),
          () => this.building.delete(key),
        );
      }
      pack = await pending;
      if (pack.data.length <= (this.built.maxSize ?? 0)) this.built.set(key, pack);
    }
    return {
      status: 200,
      body: pack.meta,
      billable: false,
      binary: { contentType: OFFLINE_PACK_MEDIA_TYPE, data: pack.data, etag: pack.meta.etag },
    };
  }

  /** The documents and brands a request names; unknown names are refused, never dropped silently. */
  select(input: OfflinePackRequest): PackSelection {
    const brands = new Set<string>();
    const documents = new Set<string>();
    for (const name of input.brands) {
      const brand = this.view.brandOf(name);
      if (!brand)
        throw new ServiceError('brand_not_found', `the corpus has no manual of the brand "${name}"`);
      brands.add(brand);
      for (const id of this.view.documentIds())
        if (this.view.document(id)?.brand === brand) documents.add(id);
    }
    const scope = brands.size === 1 ? [...brands] : this.view.brands;
    for (const name of input.models) {
      const norm = normModel(name);
      const found = scope.flatMap((b) => (this.view.modelIndexOf(b).get(norm) ?? []).map((e) => e.model));
      const owners = new Set(found.map((m) => m.brand));
      if (found.length === 0) {
        throw new ServiceError('model_not_found', `the corpus has no model "${name}"`);
      }
      if (owners.size > 1) {
        throw new ServiceError('validation_failed', `several brands have a model "${name}": name its brand`, {
          errors: [{ field: 'models', message: `"${name}" is a model of ${[...owners].sort().join(', ')}` }],
        });
      }
      for (const m of found) {
        brands.add(m.brand);
        for (const id of this.view.documentsOfModel(m.id)) documents.add(id);
      }
    }
    return { brands: [...brands].sort(), documentIds: [...documents].sort() };
  }

  private build(selection: PackSelection): BuiltPack {
    const reader = this.view.reader;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-pack-'));
    try {
      const file = path.join(dir, 'pack.sqlite');
      const knowledge = this.options.knowledge?.();
      const counts = writePack(
        reader.file,
        selection,
        file,
        knowledge ? { [PACK_META.knowledge]: JSON.stringify(knowledge) } : {},
      );
      const size = fs.statSync(file).size;
      if (size > OFFLINE_PACK_MAX_BYTES) {
        throw new ServiceError(
          'offline_pack_too_large',
          `the pack of this selection would take ${Math.ceil(size / 2 ** 20)} MiB, over the ${OFFLINE_PACK_MAX_BYTES / 2 ** 20} MiB a pack may take: keep fewer brands or models per pack`,
        );
      }
      const data = fs.readFileSync(file);
      const etag = `"${crypto
        .createHash('sha256')
        .update(
          JSON.stringify([FORMAT_VERSION, reader.corpusHash, reader.builtAt, knowledge?.version, selection]),
        )
        .digest('base64url')
        .slice(0, 22)}"`;
      const meta: OfflinePackMeta = {
        content_type: OFFLINE_PACK_MEDIA_TYPE,
        bytes: data.length,
        etag,
        bundle_version: reader.corpusHash,
        built_at: reader.builtAt,
        brands: selection.brands,
        documents: selection.documentIds.map((id) => {
          const d = this.view.document(id)!;
          return {
            document_id: id,
            title: d.title,
            brand: d.brand,
            language: d.language,
            page_count: d.page_count,
          };
        }),
        ...counts,
      };
      return { meta, data };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
