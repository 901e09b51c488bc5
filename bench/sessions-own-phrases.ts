/**
 * The knowledge a case would have been run with had its own description never been read: every phrase
 * that the technician's words read through (symptoms, stated readings, named causes) and that occurs in
 * the description of no other installation of the set is taken out before the case runs.
 *
 * Why: the phrases were written beside these descriptions, and a phrase met in one description only may
 * well have been written from it. A case written by someone else will not repeat it word for word, so
 * the figure with such phrases removed is a pessimistic bound on what unseen descriptions give (it also
 * takes out general words that happen to occur once, "purgeur" or "bypass"), to report beside the
 * figure with the descriptions as written and the one with the descriptions withheld.
 */
import type { Keywords, Knowledge } from '../src/engine/sessions/knowledge-schema.js';
import { phraseSpans, tokens } from '../src/engine/sessions/text-match.js';
import { LANGUAGES } from '../src/text/stopwords.js';
import type { BenchCase } from './sessions-cases.js';

/** Builds, for a set of cases, the knowledge each one runs with (one installation in two formats is one). */
export function ownPhrasesRemoved(knowledge: Knowledge, cases: BenchCase[]): (c: BenchCase) => Knowledge {
  const words = cases.map((c) => ({ installation: c.id, words: tokens(c.init.symptom ?? '') }));
  const installations = new Map<string, Set<string>>();
  const whereFound = (phrase: string): Set<string> => {
    let found = installations.get(phrase);
    if (!found) {
      found = new Set(
        words.filter((w) => phraseSpans([phrase], w.words).length > 0).map((w) => w.installation),
      );
      installations.set(phrase, found);
    }
    return found;
  };
  const cache = new Map<string, Knowledge>();
  return (c: BenchCase): Knowledge => {
    const known = cache.get(c.id);
    if (known) return known;
    const keep = (phrase: string) => {
      const found = whereFound(phrase);
      return !(found.size === 1 && found.has(c.id));
    };
    const prune = (kw: Keywords): Keywords =>
      Object.fromEntries(LANGUAGES.map((l) => [l, kw[l].filter(keep)])) as Keywords;
    const pruned: Knowledge = {
      ...knowledge,
      symptoms: knowledge.symptoms.map((s) => ({
        ...s,
        all: s.all.map(prune),
        ...(s.none ? { none: prune(s.none) } : {}),
      })),
      statements: knowledge.statements.map((st) => ({
        ...st,
        subject: prune(st.subject),
        outcomes: Object.fromEntries(Object.entries(st.outcomes).map(([o, kw]) => [o, prune(kw)])),
      })),
      causes: knowledge.causes.map((cause) => ({ ...cause, keywords: prune(cause.keywords) })),
    };
    cache.set(c.id, pruned);
    return pruned;
  };
}
