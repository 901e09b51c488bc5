import { z } from 'zod';
import { checkJsonSource } from '../json-check.js';
import { readJsonSource } from '../json-source.js';
import { projectPath } from '../project-path.js';

/** The words the troubleshooting prompt understands (data/cli/prompt-words.json), as sets to look a typed line up in. */
export interface PromptWords {
  unknown: ReadonlySet<string>;
  undo: ReadonlySet<string>;
  quit: ReadonlySet<string>;
  close: ReadonlySet<string>;
  help: ReadonlySet<string>;
  yes: ReadonlySet<string>;
  no: ReadonlySet<string>;
}

/** How a typed line is compared: accents off, lower case, no surrounding space. */
export function foldTyped(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();
}

// An entry written with a capital or an accent would never match a folded line: the file is refused
// rather than silently losing the word.
const words = z
  .array(
    z
      .string()
      .min(1)
      .refine((w) => foldTyped(w) === w, 'an entry is written accent-folded, lower case, trimmed'),
  )
  .min(1);

const schema = z.object({
  about: z.array(z.string()).optional(),
  unknown: words,
  undo: words,
  quit: words,
  close: words,
  help: words,
  yes: words,
  no: words,
});

type WordLists = z.infer<typeof schema>;

/**
 * Checks that no word means two things: a word in both `yes` and `no`, or a command that is also an
 * answer, would make the prompt's reading depend on the order of the look-ups.
 */
function checkDisjoint(lists: WordLists, name: string): void {
  const owner = new Map<string, string>();
  for (const key of ['unknown', 'undo', 'quit', 'close', 'help', 'yes', 'no'] as const) {
    for (const w of lists[key]) {
      const before = owner.get(w);
      if (before && before !== key) throw new Error(`${name}: "${w}" is in both ${before} and ${key}`);
      owner.set(w, key);
    }
  }
}

let cached: PromptWords | undefined;

/** The prompt's words, read and checked once per process. */
export function promptWords(file = projectPath('data', 'cli', 'prompt-words.json')): PromptWords {
  if (cached && file === projectPath('data', 'cli', 'prompt-words.json')) return cached;
  const source = readJsonSource(file);
  const lists = checkJsonSource(source, schema);
  checkDisjoint(lists, source.name);
  const loaded: PromptWords = {
    unknown: new Set(lists.unknown),
    undo: new Set(lists.undo),
    quit: new Set(lists.quit),
    close: new Set(lists.close),
    help: new Set(lists.help),
    yes: new Set(lists.yes),
    no: new Set(lists.no),
  };
  if (file === projectPath('data', 'cli', 'prompt-words.json')) cached = loaded;
  return loaded;
}
