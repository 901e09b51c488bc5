import { z } from 'zod';

/** The media type of an offline pack: a SQLite database in the bundle's own format. */
export const OFFLINE_PACK_MEDIA_TYPE = 'application/vnd.sqlite3';

/** The largest pack the server builds; a selection over it is refused (split it by brand or model). */
export const OFFLINE_PACK_MAX_BYTES = 256 * 2 ** 20;

/** At most this many brands or models in one selection. */
export const OFFLINE_PACK_MAX_ITEMS = 50;

const list = (what: string) =>
  z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v, ctx) => {
      const items = (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (items.length > OFFLINE_PACK_MAX_ITEMS) {
        ctx.addIssue({ code: 'custom', message: `at most ${OFFLINE_PACK_MAX_ITEMS} ${what}` });
        return z.NEVER;
      }
      if (items.some((s) => s.length > 100)) {
        ctx.addIssue({ code: 'custom', message: `each of the ${what} is at most 100 characters` });
        return z.NEVER;
      }
      return [...new Set(items)];
    });

/** Which manuals to keep offline: every manual of some brands, and/or the manuals covering some models. */
export const OfflinePackRequest = z
  .object({
    brands: list('brands').describe('Brand names or aliases, comma-separated: every manual of each brand'),
    models: list('models').describe(
      'Model names or aliases (exact), comma-separated: the manuals covering each model; with one brand ' +
        'in `brands`, models of that brand, else a name only one brand has',
    ),
  })
  .refine((v) => v.brands.length + v.models.length > 0, {
    message: 'name at least one brand or model',
    path: ['brands'],
  })
  .meta({ id: 'OfflinePackRequest' });
export type OfflinePackRequest = z.infer<typeof OfflinePackRequest>;

/** What a pack holds; over HTTP the body is the SQLite file itself and this is what MCP returns. */
export const OfflinePackMeta = z
  .object({
    content_type: z.literal(OFFLINE_PACK_MEDIA_TYPE),
    bytes: z.number().int().describe('Size of the pack file'),
    etag: z.string().describe('Changes whenever the pack would: send it as If-None-Match to update'),
    bundle_version: z.string().describe('The corpus hash of the bundle the pack was cut from'),
    built_at: z.string().describe('When that bundle was built (ISO 8601): the date of the pack'),
    brands: z.array(z.string()).describe('Brands whose catalogue (models, aliases, ranges) the pack holds'),
    documents: z.array(
      z.object({
        document_id: z.string(),
        title: z.string(),
        brand: z.string(),
        language: z.string(),
        page_count: z.number().int(),
      }),
    ),
    pages: z.number().int(),
    error_codes: z.number().int(),
    snapshots: z.number().int().describe('Page images the pack holds'),
  })
  .meta({ id: 'OfflinePackMeta' });
export type OfflinePackMeta = z.infer<typeof OfflinePackMeta>;
