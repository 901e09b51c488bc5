import { z } from 'zod';

export const Quota = z
  .object({
    limit: z.number().int().nullable().describe('billable units per period; null when unlimited'),
    used: z.number().int(),
    remaining: z.number().int().nullable(),
    period: z.string().describe('calendar month in UTC, YYYY-MM'),
    period_start: z.string(),
    resets_at: z.string(),
  })
  .meta({ id: 'Quota' });

export const MeResponse = z
  .object({
    account: z.object({ id: z.string(), name: z.string(), created_at: z.string() }),
    key: z
      .object({ id: z.string(), prefix: z.string(), mode: z.enum(['live', 'test']), created_at: z.string() })
      .nullable()
      .describe('null when the server runs without keys'),
    quota: Quota,
    rate_limit: z.object({ requests_per_minute: z.number().int().nullable() }),
  })
  .meta({ id: 'MeResponse' });
export type MeResponse = z.infer<typeof MeResponse>;

export const EmptyRequest = z.object({}).meta({ id: 'EmptyRequest' });
