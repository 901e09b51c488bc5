import { z } from 'zod';
import { DOC_TYPES, EQUIPMENT } from './sidecar.js';

/** A manual in the bundle, as listings show it. */
export const DocumentSummary = z
  .object({
    document_id: z.string(),
    title: z.string(),
    brand: z.string(),
    doc_type: z.enum(DOC_TYPES),
    language: z.string().describe('ISO 639-1 code, or "mul"'),
    equipment: z.enum(EQUIPMENT),
    edition: z.string().nullable(),
    approved: z.boolean().describe('approved as an exact-model source for strict (v2) answers'),
    page_count: z.number().int(),
    has_snapshots: z.boolean(),
  })
  .meta({ id: 'DocumentSummary' });
export type DocumentSummary = z.infer<typeof DocumentSummary>;

/** A model of the corpus with its stable identifier. */
export const ModelSummary = z
  .object({
    model_id: z.string().describe('stable identifier: brand slug, a colon, the normalised model name'),
    brand: z.string(),
    name: z.string(),
    range: z.string().nullable(),
    aliases: z.array(z.string()),
    equipment: z.enum(EQUIPMENT),
  })
  .meta({ id: 'ModelSummary' });
export type ModelSummary = z.infer<typeof ModelSummary>;

export const MatchKind = z.enum(['exact', 'alias', 'fuzzy']).meta({ id: 'MatchKind' });
export type MatchKind = z.infer<typeof MatchKind>;

/** A model as a request resolved it: which one, and how the name given matched it. */
export const ModelMatch = ModelSummary.extend({
  match: MatchKind,
  query: z.string().describe('the model name as given'),
}).meta({ id: 'ModelMatch' });
export type ModelMatch = z.infer<typeof ModelMatch>;
