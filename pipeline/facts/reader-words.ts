import fs from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { checkJsonSource } from '../../src/json-check.js';
import { projectPath } from '../../src/project-path.js';

/*
 * The multilingual words the fault-table and procedure readers match live in data/layout/reader-words.yaml,
 * each as one alternative of a regular expression. The readers keep the shape of each expression (anchors,
 * captures, what may stand around a word) in code and take the words from here.
 */

const Alternative = z
  .string()
  .min(1)
  .refine(
    (entry) => {
      try {
        new RegExp(`(?:${entry})`, 'u');
        return true;
      } catch {
        return false;
      }
    },
    { message: 'not a regular expression' },
  );
const List = z.array(Alternative).min(1);

const ReaderWords = z
  .object({
    column_headers: z
      .object({
        names_codes: List,
        names_codes_except: List,
        not_code: List,
        strong_title: List,
        part: List,
        cause: List,
        step: List,
        weak_title: List,
        code: List,
      })
      .strict(),
    fault_context: List,
    safety: z.object({ labels: List, phrases: List }).strict(),
    procedure: z
      .object({
        step_labels: List,
        warning_labels: List,
        part_labels: List,
        reference_labels: List,
        step_names: List,
        step_name_joins: List,
        electrical: List,
        pointer_verbs: List,
        pointer_places: List,
      })
      .strict(),
    code_titles: z.object({ labels: List, number_words: List }).strict(),
    parts: z
      .object({ names: List, compound_endings: List, stop_words: List, qualifier_openers: List })
      .strict(),
    instructions: List,
  })
  .strict();

function readReaderWords(): z.infer<typeof ReaderWords> {
  const file = projectPath('data', 'layout', 'reader-words.yaml');
  let raw: unknown;
  try {
    raw = parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  // A broken file names itself and the entry at fault, at load: the readers cannot run without it.
  return checkJsonSource({ name: file, raw }, ReaderWords);
}

export const readerWords = readReaderWords();

/** A list's entries as the body of one non-capturing group's alternation. */
export function anyOf(list: readonly string[]): string {
  return list.join('|');
}
