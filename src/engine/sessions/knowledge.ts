import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { z } from 'zod';
import { projectPath } from '../../project-path.js';
import { KnowledgeError } from './errors.js';
import {
  ActionsFile,
  CausesFile,
  checkKnowledgeReferences,
  type Knowledge,
  QuantitiesFile,
  Settings,
  StatementsFile,
  SymptomsFile,
} from './knowledge-schema.js';

export const KNOWLEDGE_FILES = {
  settings: 'settings.yaml',
  quantities: 'quantities.yaml',
  actions: 'actions.yaml',
  causes: 'causes.yaml',
  symptoms: 'symptoms.yaml',
  statements: 'statements.yaml',
} as const;

export interface RawKnowledge {
  settings: unknown;
  quantities: unknown;
  actions: unknown;
  causes: unknown;
  symptoms: unknown;
  /** Absent: no readings are taken from descriptions. */
  statements?: unknown;
}

function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: string,
  problems: string[],
): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      problems.push(`${where}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return undefined as z.infer<S>;
  }
  return result.data;
}

/** Validates knowledge given as parsed objects (one per file) and checks the files against each other. */
export function validateKnowledge(raw: RawKnowledge): Knowledge {
  const problems: string[] = [];
  const settings = check(Settings, raw.settings, KNOWLEDGE_FILES.settings, problems);
  const quantities = check(QuantitiesFile, raw.quantities, KNOWLEDGE_FILES.quantities, problems);
  const actions = check(ActionsFile, raw.actions, KNOWLEDGE_FILES.actions, problems);
  const causes = check(CausesFile, raw.causes, KNOWLEDGE_FILES.causes, problems);
  const symptoms = check(SymptomsFile, raw.symptoms, KNOWLEDGE_FILES.symptoms, problems);
  const statements = check(
    StatementsFile,
    raw.statements ?? { statements: [] },
    KNOWLEDGE_FILES.statements,
    problems,
  );
  if (problems.length > 0) throw new KnowledgeError(problems);

  const content = {
    settings,
    quantities: quantities.quantities,
    actions: actions.actions,
    causes: causes.causes,
    symptoms: symptoms.symptoms,
    statements: statements.statements,
  };
  const version = createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 16);
  const knowledge: Knowledge = { version, ...content };
  const references = checkKnowledgeReferences(knowledge);
  if (references.length > 0) throw new KnowledgeError(references);
  return knowledge;
}

export function defaultKnowledgeDir(): string {
  return projectPath('data', 'knowledge');
}

/** Reads and validates the troubleshooting knowledge (default: data/knowledge of the project). */
export function loadKnowledge(dir: string = defaultKnowledgeDir()): Knowledge {
  // yaml is loaded with the knowledge (the first guided session), not when the server starts; a failure
  // to load it is thrown as it is, never reported as a file that is not valid YAML.
  const { parse: parseYaml } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const read = (name: string): unknown => {
    const file = path.join(dir, name);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new KnowledgeError([`${name}: cannot be read (${(error as Error).message})`]);
    }
    try {
      return parseYaml(text);
    } catch (error) {
      throw new KnowledgeError([`${name}: not valid YAML (${(error as Error).message})`]);
    }
  };
  return validateKnowledge({
    settings: read(KNOWLEDGE_FILES.settings),
    quantities: read(KNOWLEDGE_FILES.quantities),
    actions: read(KNOWLEDGE_FILES.actions),
    causes: read(KNOWLEDGE_FILES.causes),
    symptoms: read(KNOWLEDGE_FILES.symptoms),
    statements: read(KNOWLEDGE_FILES.statements),
  });
}
