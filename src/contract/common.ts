import { z } from 'zod';

/**
 * Refuses a string holding a lone UTF-16 surrogate: JSON can carry one (`"\ud800"`), but it has no UTF-8
 * form, so it cannot name anything in a URL, the bundle or a log. Identifiers and names check it, so that
 * REST and MCP both answer `validation_failed` instead of failing further in.
 */
export const wellFormed = [
  (s: string) => !/\p{Cs}/u.test(s),
  { message: 'must be well-formed Unicode (no lone surrogate)' },
] as const;

/** A name or identifier a request gives: trimmed, not empty, at most `max` characters, well-formed. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max)
    .refine(...wellFormed);

/** Where an answer comes from: a page of a document that exists in the bundle, with its snapshot. */
export const Citation = z
  .object({
    document_id: z.string(),
    title: z.string(),
    page: z.number().int().min(1),
    page_end: z.number().int().min(1),
    section: z.string().nullable(),
    snapshot_url: z.string(),
    resource_uri: z.string().describe('MCP resource URI of the cited page'),
  })
  .meta({ id: 'Citation' });
export type Citation = z.infer<typeof Citation>;

/** The citation of a code's detailed procedure, with the chunk to fetch it whole from GET /v1/procedure/{chunk_id}. */
export const ProcedureCitation = Citation.extend({
  chunk_id: z.string().describe('the procedure chunk: GET /v1/procedure/{chunk_id} returns it whole'),
}).meta({ id: 'ProcedureCitation' });
export type ProcedureCitation = z.infer<typeof ProcedureCitation>;

/** RFC 9457 problem document, with a stable machine code and per-field errors. */
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    code: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

export function snapshotUrl(documentId: string, page: number): string {
  return `/v1/pdf-snapshot/${encodeURIComponent(documentId)}/${page}`;
}

export function pageResourceUri(documentId: string, page: number): string {
  return `heatsource://documents/${encodeURIComponent(documentId)}/pages/${page}`;
}

/**
 * The request field that names an error code. The service document names it `error_code` ("The field is
 * named `error_code` in the request body"); every request that carries a code uses this one field.
 */
/** The longest error code a request may carry. */
export const ERROR_CODE_MAX = 32;

export const ErrorCodeField = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(ERROR_CODE_MAX)
  .refine(...wellFormed)
  .describe('error code as shown on the display ("E9", "A5-01", "P 12")');
