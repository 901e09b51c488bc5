import { z } from 'zod';
import { Citation, ProcedureCitation, text } from './common.js';
import { Excerpt, Part, Step } from './diagnostic.js';
import { DocumentSummary, MatchKind, ModelSummary } from './documents.js';

export const ProductRequest = z.object({ brand: text(100), model: text(100) }).meta({ id: 'ProductRequest' });
export type ProductRequest = z.infer<typeof ProductRequest>;

export const ProductResponse = z
  .object({
    brand: z.string(),
    model: ModelSummary.extend({ match: MatchKind, query: z.string() }),
    documents: z.array(DocumentSummary),
    error_codes: z.number().int().describe('distinct codes documented by the manuals of the model'),
  })
  .meta({ id: 'ProductResponse' });
export type ProductResponse = z.infer<typeof ProductResponse>;

export const ErrorCodeRequest = z
  .object({ brand: text(100), code: text(32) })
  .meta({ id: 'ErrorCodeRequest' });
export type ErrorCodeRequest = z.infer<typeof ErrorCodeRequest>;

export const ErrorCodeEntry = z
  .object({
    error_code: z.string().describe('as printed'),
    title: z.string(),
    causes: z.array(z.string()),
    steps: z.array(Step),
    part: Part.nullable(),
    excerpt: Excerpt,
    models: z.array(z.string()).describe('models the manual lists'),
    document: DocumentSummary,
    citation: Citation,
    procedure: ProcedureCitation.nullable(),
  })
  .meta({ id: 'ErrorCodeEntry' });
export type ErrorCodeEntry = z.infer<typeof ErrorCodeEntry>;

export const ErrorCodeResponse = z
  .object({
    brand: z.string(),
    code: z.string().describe('the code as normalised for lookup'),
    entries: z.array(ErrorCodeEntry).describe('every manual of the brand documenting the code'),
  })
  .meta({ id: 'ErrorCodeResponse' });
export type ErrorCodeResponse = z.infer<typeof ErrorCodeResponse>;

export const ProcedureRequest = z.object({ chunk_id: text(300) }).meta({ id: 'ProcedureRequest' });
export type ProcedureRequest = z.infer<typeof ProcedureRequest>;

export const ProcedureResponse = z
  .object({
    chunk_id: z.string(),
    document_id: z.string(),
    kind: z.enum(['text', 'table', 'procedure']),
    section_path: z.array(z.string()),
    page_start: z.number().int(),
    page_end: z.number().int(),
    text: z.string(),
    citation: Citation,
    error_codes: z
      .array(z.object({ error_code: z.string(), title: z.string() }))
      .describe('codes whose detailed procedure this is'),
  })
  .meta({ id: 'ProcedureResponse' });
export type ProcedureResponse = z.infer<typeof ProcedureResponse>;

export const RegistryRequest = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50).describe('brands per page'),
    cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page'),
  })
  .meta({ id: 'RegistryRequest' });
export type RegistryRequest = z.infer<typeof RegistryRequest>;

export const RegistryBrand = z
  .object({
    name: z.string(),
    aliases: z.array(z.string()).describe('other names that resolve to this brand (normalised)'),
    models: z.array(ModelSummary),
    documents: z.array(DocumentSummary),
    error_codes: z.number().int().describe('distinct codes documented for the brand'),
  })
  .meta({ id: 'RegistryBrand' });

export const RegistryResponse = z
  .object({
    brands: z.array(RegistryBrand),
    totals: z.object({
      brands: z.number().int(),
      models: z.number().int(),
      documents: z.number().int(),
      pages: z.number().int(),
      error_codes: z.number().int(),
    }),
    bundle: z.object({ version: z.number().int(), built_at: z.string(), corpus_hash: z.string() }),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'RegistryResponse' });
export type RegistryResponse = z.infer<typeof RegistryResponse>;

export const SNAPSHOT_MIN_WIDTH = 100;
export const SNAPSHOT_MAX_WIDTH = 2000;

export const SnapshotRequest = z
  .object({
    document_id: text(300),
    page: z.coerce.number().int().min(1),
    width: z.coerce
      .number()
      .int()
      .min(SNAPSHOT_MIN_WIDTH)
      .max(SNAPSHOT_MAX_WIDTH)
      .optional()
      .describe('resize to this width in pixels (never enlarged)'),
    format: z
      .enum(['webp', 'png'])
      .optional()
      .describe('image format; over HTTP the Accept header chooses when this is absent'),
  })
  .meta({ id: 'SnapshotRequest' });
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

/** What a snapshot response describes; over HTTP the body is the image itself. */
export const SnapshotMeta = z
  .object({
    document_id: z.string(),
    page: z.number().int(),
    content_type: z.enum(['image/webp', 'image/png']),
    width: z.number().int(),
    height: z.number().int(),
    bytes: z.number().int(),
    etag: z.string(),
    citation: Citation,
  })
  .meta({ id: 'SnapshotMeta' });
export type SnapshotMeta = z.infer<typeof SnapshotMeta>;
