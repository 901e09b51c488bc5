import type { z } from 'zod';
import type { JsonSource } from './json-source.js';

/**
 * A data file checked against its schema: the parsed value, or one error naming the file and every field
 * at fault (`file: words.fr.0: ...; quantity.en: ...`), so that a maintainer who broke it sees where.
 * Kept apart from json-source.ts, which reads files, because the field app's browser build uses this too.
 */
export function checkJsonSource<T>({ name, raw }: JsonSource, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  throw new Error(`${name}: ${problems}`);
}
