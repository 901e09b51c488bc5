import { z } from 'zod';
import { ErrorCodeField, text } from './common.js';
import { DiagnosticResponse, Language } from './diagnostic.js';
import { DocumentSummary, ModelSummary } from './documents.js';

export const ResolveModelRequest = z
  .strictObject({
    brand: text(100)
      .optional()
      .describe(
        'narrows the search to one brand; without it, a model name used by several brands is ambiguous',
      ),
    model: text(100).describe('exact model name or alias, as on the nameplate'),
  })
  .meta({ id: 'ResolveModelRequest' });
export type ResolveModelRequest = z.infer<typeof ResolveModelRequest>;

export const UnresolvedReason = z
  .enum(['unknown_brand', 'unknown_model', 'range_name', 'ambiguous_model'])
  .describe('ambiguous_model: without a brand, the name (or alias) is used by several brands: see candidates')
  .meta({ id: 'UnresolvedReason' });
export type UnresolvedReason = z.infer<typeof UnresolvedReason>;

export const StrictModelMatch = ModelSummary.extend({ match: z.enum(['exact', 'alias']) }).meta({
  id: 'StrictModelMatch',
});
export type StrictModelMatch = z.infer<typeof StrictModelMatch>;

/** Strict resolution: an exact name or alias, normalised; never fuzzy, never a range. */
export const ResolveModelResponse = z
  .object({
    status: z.enum(['resolved', 'unresolved']),
    reason: UnresolvedReason.nullable(),
    query: z.object({ brand: z.string().nullable(), model: z.string() }),
    brand: z.string().nullable(),
    model: StrictModelMatch.nullable(),
    candidates: z
      .array(ModelSummary)
      .describe(
        "for a range name, the range's models; for an ambiguous name, the models it names; for an unknown model, close names (not a match)",
      ),
  })
  .meta({ id: 'ResolveModelResponse' });
export type ResolveModelResponse = z.infer<typeof ResolveModelResponse>;

export const StrictDiagnosticRequest = z
  .strictObject({
    brand: text(100),
    model: text(100).describe('exact model name or alias from the nameplate'),
    error_code: ErrorCodeField,
    language: Language.optional(),
  })
  .meta({ id: 'StrictDiagnosticRequest' });
export type StrictDiagnosticRequest = z.infer<typeof StrictDiagnosticRequest>;

export const StrictStatus = z
  .enum(['exact_source', 'no_exact_source', 'code_not_in_source'])
  .meta({ id: 'StrictStatus' });
export type StrictStatus = z.infer<typeof StrictStatus>;

export const StrictDiagnosticResponse = z
  .object({
    status: StrictStatus,
    reason: UnresolvedReason.nullable().describe('why the model did not resolve, for `no_exact_source`'),
    model: StrictModelMatch.nullable(),
    sources: z.array(DocumentSummary).describe('approved manuals listing the exact model'),
    diagnostic: DiagnosticResponse.nullable().describe(
      'answered from `sources` only; null unless exact_source',
    ),
    billable: z.boolean(),
  })
  .meta({ id: 'StrictDiagnosticResponse' });
export type StrictDiagnosticResponse = z.infer<typeof StrictDiagnosticResponse>;

export const ModelCoverageRequest = z.object({ model_id: text(200) }).meta({ id: 'ModelCoverageRequest' });
export type ModelCoverageRequest = z.infer<typeof ModelCoverageRequest>;

export const CoverageDocument = DocumentSummary.extend({
  exact_source: z.boolean().describe('approved and listing this model: usable for strict answers'),
  error_codes: z.number().int().describe('codes this manual documents'),
}).meta({ id: 'CoverageDocument' });

export const ModelCoverageResponse = z
  .object({
    model: ModelSummary,
    exact_source: z.boolean().describe('whether strict (v2) diagnostics can answer for this model'),
    documents: z.array(CoverageDocument),
    error_codes: z.object({
      exact_source: z.number().int().describe('distinct codes documented by approved manuals of the model'),
      all_sources: z.number().int().describe('distinct codes documented by any manual of the model'),
    }),
  })
  .meta({ id: 'ModelCoverageResponse' });
export type ModelCoverageResponse = z.infer<typeof ModelCoverageResponse>;
