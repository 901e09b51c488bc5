/**
 * The words of the layout zoo (data/demo/zoo): per language the furniture words, some prose and the fault
 * readings; per layout the family of codes its displays print. Loaded and checked here, never written in code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { demoDataDir } from './manual-source.js';

export const ZOO_LANGUAGES = ['en', 'fr', 'de', 'es', 'nl'] as const;
export type ZooLanguage = (typeof ZOO_LANGUAGES)[number];

/**
 * Layouts added after the reader's rules were written, and measured before it met them; listed after the
 * first eight so that those keep their seeds' drawings.
 */
export const ADDED_ZOO_LAYOUTS = [
  'continued',
  'three_column',
  'subrows',
  'summary',
  'navigation',
  'mixed_case',
  'bilingual',
] as const;
export type AddedLayout = (typeof ADDED_ZOO_LAYOUTS)[number];

export const ZOO_LAYOUTS = [
  'wrapped',
  'unruled',
  'procedures',
  'margin',
  'side_by_side',
  'rotated',
  'cards',
  'lowercase',
  ...ADDED_ZOO_LAYOUTS,
] as const;
export type ZooLayout = (typeof ZOO_LAYOUTS)[number];

const WORDS = [
  'title',
  'kicker',
  'subtitle',
  'models_heading',
  'notice',
  'company',
  'contents',
  'continued',
  'page',
  'safety',
  'models',
  'operation',
  'codes',
  'procedures',
  'maintenance',
  'indoor',
  'outdoor',
  'model',
  'capacity',
  'supply',
  'code',
  'display',
  'meaning',
  'cause',
  'remedy',
  'card_code',
  'card_meaning',
  'card_cause',
  'card_remedy',
  'steps',
  /** How a label meets its value: ":" or, in French typography, " :". */
  'colon',
  /** The heading of a manual's index of terms. */
  'index',
  /** A short name of a fault, as a column header. */
  'name',
  /** A column pointing to the section that treats a code ("See section"). */
  'see',
  /** The caption of a drawing of the controller's display. */
  'panel',
  /** A cause and remedy many faults share, printed as a sub-row of its own. */
  'board_cause',
  'board_remedy',
] as const;

const faultSchema = z.strictObject({
  meaning: z.string().min(3),
  cause: z.string().min(3),
  /** Two clauses parted by "; ": a remedy cell prints them as one text, a procedure as two steps. */
  remedy: z.string().min(3),
});

const languageSchema = z.strictObject({
  language: z.enum(ZOO_LANGUAGES),
  words: z.strictObject(
    Object.fromEntries(WORDS.map((w) => [w, z.string().min(1)])) as Record<
      (typeof WORDS)[number],
      z.ZodString
    >,
  ),
  prose: z.strictObject({
    safety: z.string(),
    operation: z.string(),
    codes: z.string(),
    procedures: z.string(),
    maintenance: z.string(),
  }),
  faults: z.array(faultSchema).min(12),
});

const codesSchema = z.strictObject({
  brands: z.array(z.string()).min(1),
  model_prefixes: z.array(z.string()).min(1),
  layouts: z.strictObject(
    Object.fromEntries(
      ZOO_LAYOUTS.map((l) => [
        l,
        z.strictObject({ codes: z.array(z.string()).min(8), negatives: z.array(z.string()).min(3) }),
      ]),
    ) as Record<
      ZooLayout,
      z.ZodObject<{ codes: z.ZodArray<z.ZodString>; negatives: z.ZodArray<z.ZodString> }>
    >,
  ),
});

export type ZooWords = z.infer<typeof languageSchema>;
export type ZooFault = z.infer<typeof faultSchema>;
export type ZooCodes = z.infer<typeof codesSchema>;

function zooDir(): string {
  return path.join(demoDataDir(), 'zoo');
}

export function loadZooWords(language: ZooLanguage): ZooWords {
  const words = languageSchema.parse(parse(readFileSync(path.join(zooDir(), `${language}.yaml`), 'utf8')));
  if (words.language !== language) throw new Error(`zoo/${language}.yaml declares ${words.language}`);
  return words;
}

export function loadZooCodes(): ZooCodes {
  return codesSchema.parse(parse(readFileSync(path.join(zooDir(), 'codes.yaml'), 'utf8')));
}

export function shuffled<T>(list: readonly T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function between(random: () => number, lo: number, hi: number): number {
  return lo + (hi - lo) * random();
}

export function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)]!;
}

/** A size to a tenth of a point, as the drawings print them. */
export function round(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Column widths drawn around `base`, each between 0.78 and 1.25 of it. */
export function jitter(base: number[], random: () => number): number[] {
  return base.map((w) => round(w * between(random, 0.78, 1.25)));
}
