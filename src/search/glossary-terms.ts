import { z } from 'zod';
import { checkJsonSource } from '../json-check.js';
import { LANGUAGES, type Language } from '../text/stopwords.js';
import { readGlossarySource } from './glossary-source.js';

/**
 * HVAC vocabulary in the five manual languages (data/search/glossary.json): each concept lists the words
 * and phrases a manual or a technician uses for the same thing. A question and a page that name one
 * concept in two languages meet on its index term, which is how a French or German question finds an
 * English page. Data, not code: a maintainer adds a word or a language's term without touching search.
 * JSON rather than YAML: the yaml parser took about ten times as long on this file as JSON parsing and
 * the zod check together, paid by a process's first search.
 */
export type Concept = { id: string } & Record<Language, string[]>;

const terms = z.array(z.string().trim().min(1)).min(1);

const ConceptEntry = z.strictObject({
  id: z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lower-case slug such as "flow-switch"'),
  ...(Object.fromEntries(LANGUAGES.map((l) => [l, terms])) as Record<Language, typeof terms>),
});

const GlossaryFile = z
  .strictObject({
    about: z.array(z.string()).optional(),
    groups: z.array(z.strictObject({ name: z.string().min(1), concepts: z.array(ConceptEntry) })),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.groups.forEach((group, g) => {
      group.concepts.forEach((c, i) => {
        if (seen.has(c.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['groups', g, 'concepts', i, 'id'],
            message: `concept ${c.id} listed twice`,
          });
        }
        seen.add(c.id);
      });
    });
  });

/** Reads and checks a glossary file; every problem names its place in the file. */
export function loadGlossary(path?: string): readonly Concept[] {
  return checkJsonSource(readGlossarySource(path), GlossaryFile).groups.flatMap((g) => g.concepts);
}

let cached: readonly Concept[] | undefined;

/** The glossary, read on first use: a terminal command that analyses no text does not pay for it. */
export function concepts(): readonly Concept[] {
  cached ??= loadGlossary();
  return cached;
}
