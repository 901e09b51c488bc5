/**
 * Groups of manuals the quality harness reports apart (data/quality/manual-groups.yaml): manuals added
 * after the rules were written, or set aside unread while a round of rules was written. A group gated
 * `own` leaves the in-sample figures and is guarded by figures of its own; a group gated `in_sample`
 * stays in the in-sample figures and is only reported apart as well.
 */
import fs from 'node:fs';
import YAML from 'yaml';
import { z } from 'zod';
import { projectPath } from '../src/project-path.js';

const ManualGroup = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9_-]*$/),
    title: z.string().min(1),
    /** `own`: out of the in-sample figures, gated apart; `in_sample`: in them, and reported apart too. */
    gate: z.enum(['own', 'in_sample']).default('own'),
    measured_before: z.string().optional(),
    documents: z.array(z.string().min(1)).min(1),
  })
  .strict();
export type ManualGroup = z.infer<typeof ManualGroup>;

const GroupsFile = z.object({ groups: z.array(ManualGroup) }).strict();

export const MANUAL_GROUPS_FILE = projectPath('data', 'quality', 'manual-groups.yaml');

/** The groups of a groups file; a document in two groups gated `own` is an error (it would count twice). */
export function readManualGroups(file = MANUAL_GROUPS_FILE): ManualGroup[] {
  const parsed = GroupsFile.safeParse(YAML.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const owner = new Map<string, string>();
  for (const g of parsed.data.groups) {
    if (g.gate !== 'own') continue;
    for (const d of g.documents) {
      const other = owner.get(d);
      if (other) throw new Error(`${file}: ${d} is in two groups gated apart (${other}, ${g.id})`);
      owner.set(d, g.id);
    }
  }
  return parsed.data.groups;
}
