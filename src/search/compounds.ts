import { z } from 'zod';
import { checkJsonSource } from '../json-check.js';
import { fold } from '../text/normalise.js';
import { readCompoundPartsSource } from './compound-parts-source.js';
import { concepts } from './glossary-terms.js';
import { stem } from './stemmers.js';

/**
 * German and Dutch write compounds as one word ("Wärmepumpenvorlauftemperatur", "lagedrukstoring"), so a
 * question naming a part ("Pumpe", "storing") would miss them. A compound is split against a lexicon of
 * known word parts (the glossary's single words plus the common parts of data/search/compound-parts.json,
 * zod-checked on first use): the head is the longest
 * known stem ending the word, the rest is split again; a leftover modifier of four letters or more is
 * kept, as it is usually a real word too ("stillstand|s|zeit"). A word with no known head is split after
 * its longest known modifier instead ("bediening|s|instructie").
 */
export type CompoundLanguage = 'de' | 'nl';

export function isCompoundLanguage(lang: string): lang is CompoundLanguage {
  return lang === 'de' || lang === 'nl';
}

/** One word of the parts file: letters only, three at least once folded (as the lexicon keeps). */
const part = z
  .string()
  .refine((w) => /^\p{L}+$/u.test(w) && fold(w).length >= 3, 'a part is one word of three letters or more');

const parts = z
  .array(part)
  .min(1)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((w, i) => {
      if (seen.has(fold(w))) ctx.addIssue({ code: 'custom', path: [i], message: `"${w}" is listed twice` });
      seen.add(fold(w));
    });
  });

const CompoundPartsFile = z.strictObject({
  about: z.array(z.string()).optional(),
  parts: z.strictObject({ de: parts, nl: parts }),
});

/** Reads and checks a compound-parts file; every problem names its place in the file. */
export function loadCompoundParts(file?: string): Readonly<Record<CompoundLanguage, readonly string[]>> {
  return checkJsonSource(readCompoundPartsSource(file), CompoundPartsFile).parts;
}

let commonParts: Readonly<Record<CompoundLanguage, readonly string[]>> | undefined;

const lexicons = new Map<CompoundLanguage, ReadonlySet<string>>();

/** Stems of the common parts and of every one-word glossary term of the language. */
function lexicon(lang: CompoundLanguage): ReadonlySet<string> {
  let set = lexicons.get(lang);
  if (!set) {
    const glossaryWords = concepts()
      .flatMap((c) => c[lang])
      .filter((t) => !/[\s\-'’]/.test(t));
    commonParts ??= loadCompoundParts();
    const all = [...commonParts[lang], ...glossaryWords].map(fold).filter((w) => w.length >= 3);
    set = new Set(all.map((w) => stem(w, lang)).filter((s) => s.length >= 3));
    lexicons.set(lang, set);
  }
  return set;
}

/** Whether a stem is a known word of the lexicon (a glossary word or a common part), compound or not. */
export function isKnownPart(stemmed: string, lang: CompoundLanguage): boolean {
  return lexicon(lang).has(stemmed);
}

const LINKS: Record<CompoundLanguage, readonly string[]> = {
  de: ['es', 'en', 's', 'n', 'e'],
  nl: ['en', 's', 'e'],
};

const MIN_MODIFIER = 3;

/** How a compound splits at its outermost joint, and every known part found in it (head first). */
export interface CompoundSplit {
  modifier: string;
  head: string;
  parts: string[];
}

/**
 * Splits a stemmed compound: at the longest known head ("warmepump" -> "warm" + "pump"), or, when no head
 * is known, after the longest known modifier ("bedieningsinstructie" -> "bediening" + "instructie").
 * Words shorter than seven letters are not split; null when nothing known is found.
 */
export function splitCompound(stemmed: string, lang: CompoundLanguage): CompoundSplit | null {
  const lex = lexicon(lang);
  const parts: string[] = [];
  const top = splitAtHead(stemmed, lang, lex, parts, 0) ?? splitAfterModifier(stemmed, lang, lex);
  if (!top) return null;
  if (parts.length === 0) parts.push(top.head, top.modifier);
  return { ...top, parts };
}

function splitAtHead(
  word: string,
  lang: CompoundLanguage,
  lex: ReadonlySet<string>,
  out: string[],
  depth: number,
): { modifier: string; head: string } | null {
  if (word.length < 7 || depth > 3) return null;
  for (let i = MIN_MODIFIER; i <= word.length - 3; i++) {
    const head = word.slice(i);
    if (!lex.has(head)) continue;
    out.push(head);
    const modifier = stripLink(word.slice(0, i), lang, lex);
    if (modifier.length >= 3 && (lex.has(modifier) || modifier.length >= 4)) out.push(modifier);
    splitAtHead(modifier, lang, lex, out, depth + 1);
    return { modifier, head };
  }
  return null;
}

/** A linking s follows these endings ("Bedienung|s|anleitung", "verwarming|s|modus"). */
const S_LINK_AFTER = /(?:ung|heit|keit|ion|tat|ing|schap|schaft|teit|iteit)$/;

function splitAfterModifier(
  word: string,
  lang: CompoundLanguage,
  lex: ReadonlySet<string>,
): { modifier: string; head: string } | null {
  if (word.length < 7) return null;
  for (let i = word.length - 4; i >= MIN_MODIFIER; i--) {
    const modifier = word.slice(0, i);
    if (!lex.has(modifier)) continue;
    let rest = word.slice(i);
    if (rest.startsWith('s') && S_LINK_AFTER.test(modifier) && rest.length > 4) rest = rest.slice(1);
    return { modifier, head: stem(rest, lang) };
  }
  return null;
}

/** The modifier without its linking element ("stillstands" -> "stillstand"), stemmed like a word. */
function stripLink(modifier: string, lang: CompoundLanguage, lex: ReadonlySet<string>): string {
  const own = stem(modifier, lang);
  if (lex.has(own)) return own;
  for (const link of LINKS[lang]) {
    if (modifier.endsWith(link) && modifier.length - link.length >= 3) {
      const bare = stem(modifier.slice(0, -link.length), lang);
      if (lex.has(bare)) return bare;
    }
  }
  for (const link of LINKS[lang]) {
    if (modifier.endsWith(link) && modifier.length - link.length >= 4) return modifier.slice(0, -link.length);
  }
  return own;
}
