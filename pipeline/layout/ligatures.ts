/**
 * Ligature glyphs a font's ToUnicode CMap maps to nothing. pdfjs then gives the glyph's character code as
 * its text, an arbitrary character wedged between letters ("Re6t", "Signi6cation", "<ow" for "Refit",
 * "Signification", "flow"). Per font, a character printed inside lower-case words is read as the ligature
 * (fi, fl, ff, ffi, ffl) that turns the most of those words into words of data/text/ligature-words.json,
 * and then in every word of that font where it stands between letters. A font whose text never makes such
 * a word is left as it is: the page text stays what pdfjs reads.
 *
 * Ligatures mapped to their presentation-form code point (U+FB01 "ﬁ") need no rule here: pdfjs's text
 * content normalises them to their letters (NFKC of the presentation forms).
 */
import { z } from 'zod';
import { checkJsonSource } from '../../src/json-check.js';
import { readJsonSource } from '../../src/json-source.js';
import { projectPath } from '../../src/project-path.js';
import { fold } from '../../src/text/normalise.js';
import type { TextRun } from './types.js';

const LIGATURES = ['ffi', 'ffl', 'fi', 'fl', 'ff'] as const;

const WordsFile = z.strictObject({
  about: z.array(z.string()).optional(),
  words: z.array(z.string().refine((w) => /^\p{Ll}+$/u.test(w) && fold(w) === w, 'one accent-folded word')),
});

let lexicon: ReadonlySet<string> | undefined;

function ligatureWords(): ReadonlySet<string> {
  if (lexicon) return lexicon;
  const file = projectPath('data', 'text', 'ligature-words.json');
  lexicon = new Set(checkJsonSource(readJsonSource(file), WordsFile).words);
  return lexicon;
}

/**
 * A character standing between two lower-case letters that is not one of them, a space or a mark that
 * joins words (hyphen, apostrophe, full stop, slash): a capital ("WasserdurchGuss") or any other sign
 * ("Signi)cation"); or a sign opening a word of lower-case letters ("6lter"), but not a capital, which
 * opens words, nor a bracket or quotation mark, which opens them too ("(low" is not "flow"). Only the
 * word list decides that a character stands in for a ligature.
 */
const STAND_IN =
  /(?<=\p{Ll})([^\p{Ll}\s'’\-‐./])(?=\p{Ll})|(?<![\p{L}\p{N}])([^\p{L}\s'’\-‐./([{"«“‘‚„¿¡])(?=\p{Ll}{2})/gu;
const WORD = /[^\s]+/gu;
const DIGIT = /^\p{N}$/u;

function bare(word: string): string {
  return fold(word).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
}

/** For each font, the character standing in for a ligature and the ligature it stands for. */
export function findLigatureStandIns(runs: readonly TextRun[]): Map<string, Map<string, string>> {
  const words = ligatureWords();
  const scores = new Map<string, Map<string, Map<string, number>>>();
  for (const run of runs) {
    for (const [word] of run.str.matchAll(WORD)) {
      for (const m of word.matchAll(STAND_IN)) {
        const ch = m[1] ?? m[2]!;
        for (const lig of LIGATURES) {
          if (!words.has(bare(word.split(ch).join(lig)))) continue;
          const byFont = scores.get(run.font) ?? new Map<string, Map<string, number>>();
          const byChar = byFont.get(ch) ?? new Map<string, number>();
          byChar.set(lig, (byChar.get(lig) ?? 0) + 1);
          byFont.set(ch, byChar);
          scores.set(run.font, byFont);
        }
      }
    }
  }
  const out = new Map<string, Map<string, string>>();
  for (const [font, byFont] of scores) {
    const chosen = new Map<string, string>();
    for (const [ch, byLig] of byFont) {
      const ranked = [...byLig.entries()].sort((a, b) => b[1] - a[1]);
      // A tie says nothing of which ligature the glyph is.
      if (ranked[1] && ranked[1][1] === ranked[0]![1]) continue;
      chosen.set(ch, ranked[0]![0]);
    }
    if (chosen.size > 0) out.set(font, chosen);
  }
  return out;
}

/**
 * Reads each stand-in character of a run's font as its ligature where it stands between letters or
 * opens a word. A digit opening a word is read so only where that makes a word of the list: "6lter" is
 * "filter", but "6mm" stays a size even where 6 stands in for "fi" in the same font.
 */
export function readLigatureStandIns(runs: TextRun[], standIns: Map<string, Map<string, string>>): void {
  if (standIns.size === 0) return;
  const words = ligatureWords();
  for (const run of runs) {
    const chosen = standIns.get(run.font);
    if (!chosen) continue;
    run.str = run.str.replace(WORD, (word: string) =>
      word.replace(STAND_IN, (all: string, inside?: string, opening?: string) => {
        const lig = chosen.get(inside ?? opening ?? '');
        if (lig === undefined) return all;
        if (opening !== undefined && DIGIT.test(opening) && !words.has(bare(word.split(opening).join(lig))))
          return all;
        return lig;
      }),
    );
  }
}
