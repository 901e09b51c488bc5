import { z } from 'zod';

export const DOC_TYPES = [
  'service_manual',
  'installer_manual',
  'installation_manual',
  'user_manual',
  'technical_manual',
  'interface_manual',
] as const;
export const EQUIPMENT = ['air_water', 'air_air'] as const;

const nonBlank = z.string().trim().min(1, 'must not be empty');

export const SidecarModel = z.strictObject({
  name: nonBlank,
  range: nonBlank.optional(),
  aliases: z.array(nonBlank).default([]),
});

/**
 * A code the table reader missed or read wrong, listed by the corpus maintainer: the code and the page it
 * is defined on, and optionally its meaning as printed there. Ingest checks that both stand verbatim on
 * that page (white space aside) and refuses the file otherwise.
 */
export const SidecarCorrection = z.strictObject({
  code: nonBlank.pipe(z.string().max(40, 'must be at most 40 characters')),
  page: z.number().int('must be a whole page number').min(1, 'pages are counted from 1'),
  meaning: nonBlank.pipe(z.string().max(2000, 'must be at most 2000 characters')).optional(),
});

/** The YAML sidecar a corpus maintainer writes next to each manual. */
export const Sidecar = z.strictObject({
  title: nonBlank,
  brand: nonBlank,
  doc_type: z.enum(DOC_TYPES),
  language: z
    .string()
    .regex(/^([a-z]{2}|mul)$/, 'must be an ISO 639-1 code such as "en", or "mul" for multilingual'),
  equipment: z.enum(EQUIPMENT),
  approved: z.boolean(),
  edition: z.union([nonBlank, z.number().transform(String)]).optional(),
  models: z.array(SidecarModel).default([]),
  /** Codes answered as listed here (origin `maintainer`), before anything the reader read for them. */
  corrections: z.array(SidecarCorrection).optional(),
});

export type Sidecar = z.infer<typeof Sidecar>;
export type SidecarModel = z.infer<typeof SidecarModel>;
export type SidecarCorrection = z.infer<typeof SidecarCorrection>;
