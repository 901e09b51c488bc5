import { z } from 'zod';
import type { SessionLanguage } from '../contract/sessions.js';
import { checkJsonSource } from '../json-check.js';
import { readSessionWordsSource } from './session-words-source.js';

/**
 * What the terminal and the field app print around a guided session (headings, notes, the answer hint), in the session's
 * language: data/cli/session-words.json. The steps, causes and remedies come translated in the payload;
 * these are the words around them. Written by hand rather than with an i18n library: two languages and
 * one flat table, filled by name, need nothing more.
 */
const Entry = z.object({ en: z.string().min(1), fr: z.string().min(1) }).strict();
const WordFile = z.record(z.string(), z.union([Entry, z.string()]));

type Entry = z.infer<typeof Entry>;

let table: Map<string, Entry> | undefined;

function words(): Map<string, Entry> {
  if (!table) {
    const raw = checkJsonSource(readSessionWordsSource(), WordFile);
    table = new Map(
      Object.entries(raw).flatMap(([key, value]) => (typeof value === 'string' ? [] : [[key, value]])),
    );
  }
  return table;
}

/** The entry `key` in `lang`, each `{name}` replaced by `vars[name]`. An unknown key is a defect: it throws. */
export function say(lang: SessionLanguage, key: string, vars: Record<string, string | number> = {}): string {
  const entry = words().get(key);
  if (!entry) throw new Error(`data/cli/session-words.json: no entry "${key}"`);
  return entry[lang].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** The entry for a value of an enum (`reason_budget_spent`), or the value in plain words when none. */
export function sayValue(lang: SessionLanguage, prefix: string, value: string): string {
  return words().has(`${prefix}_${value}`) ? say(lang, `${prefix}_${value}`) : value.replaceAll('_', ' ');
}
