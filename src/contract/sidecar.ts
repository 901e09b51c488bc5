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
});

export type Sidecar = z.infer<typeof Sidecar>;
export type SidecarModel = z.infer<typeof SidecarModel>;
