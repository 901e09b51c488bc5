import { z } from 'zod';
import { Citation, wellFormed } from './common.js';

/** Free-text search over manual chunks. Query-string values arrive as strings, hence the coercion. */
export const SearchQuery = z
  .object({
    q: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .refine(...wellFormed)
      .describe('Free-text question or keywords, in any manual language'),
    brand: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Brand name or alias; unknown brands match nothing'),
    model: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .optional()
      .describe('Exact model name or alias: only documents covering that model are searched'),
    language: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2,3}$/)
      .optional()
      .describe('ISO 639-1 language of the manuals to search (multilingual manuals always qualify)'),
    limit: z.coerce.number().int().min(1).max(50).default(10),
    cursor: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('next_cursor of the previous page of the same query'),
  })
  .meta({ id: 'SearchQuery' });
export type SearchQuery = z.infer<typeof SearchQuery>;
export type SearchQueryInput = z.input<typeof SearchQuery>;

export const SearchResult = z
  .object({
    chunk_id: z.string(),
    document_id: z.string(),
    title: z.string().describe('Title of the document'),
    brand: z.string(),
    models: z.array(z.string()).describe('Models the document covers'),
    page: z.number().int().min(1).describe('Page on which the snippet stands'),
    section: z.string().nullable().describe('Section path of the chunk, outermost first, joined by " / "'),
    snippet: z.string().describe('The best-matching line(s) of the chunk, verbatim, at most 300 characters'),
    score: z
      .number()
      .describe("Orders this response's results, best first; not comparable between queries or releases"),
    citation: Citation,
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

export const SearchResponse = z
  .object({
    query: z.string(),
    results: z.array(SearchResult),
    next_cursor: z.string().nullable(),
    unmatched_filters: z
      .array(z.enum(['brand', 'model']))
      .describe(
        'Filters that name nothing the corpus holds (a brand it has no manual of, a model no manual covers): the reason there are no results',
      ),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponse>;
