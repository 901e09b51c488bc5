import fs from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { projectPath } from '../project-path.js';
import { LANGUAGES, type Language } from './stopwords.js';

/**
 * HVAC vocabulary in the five manual languages (data/search/glossary.yaml): each concept lists the words
 * and phrases a manual or a technician uses for the same thing. A question and a page that name one
 * concept in two languages meet on its index term, which is how a French or German question finds an
 * English page. Data, not code: a maintainer adds a word or a language's term without touching search.
 */
export type Concept = { id: string } & Record<Language, string[]>;

const terms = z.array(z.string().trim().min(1)).min(1);

const GlossaryFile = z
  .strictObject({
    concepts: z.array(
      z.strictObject({
        id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug such as "flow-switch"'),
        ...(Object.fromEntries(LANGUAGES.map((l) => [l, terms])) as Record<Language, typeof terms>),
      }),
    ),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.concepts.forEach((c, i) => {
      if (seen.has(c.id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['concepts', i, 'id'],
          message: `concept ${c.id} listed twice`,
        });
      }
      seen.add(c.id);
    });
  });

/** Reads and checks a glossary file; every problem names its place in the file. */
export function loadGlossary(file = projectPath('data', 'search', 'glossary.yaml')): readonly Concept[] {
  const parsed = GlossaryFile.safeParse(parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${file}: ${problems}`);
  }
  return parsed.data.concepts;
}

let cached: readonly Concept[] | undefined;

/** The glossary, read on first use: a terminal command that analyses no text does not pay for it. */
export function concepts(): readonly Concept[] {
  cached ??= loadGlossary();
  return cached;
}
