import type { Citation } from '../../contract/common.js';
import type { Action, Cause } from './knowledge-schema.js';
import { addQuote, citationsOf, placed, sameCitation } from './quotes.js';
import { designatorsOf, stepActions } from './step-actions.js';
import { bestMatches, normaliseText } from './text-match.js';
import type { ManualFact, ManualPart, ModelHypothesis, Quote } from './types.js';

export interface ManualHypothesis {
  hypothesis: ModelHypothesis;
  /** Indices of the facts that list it. */
  facts: number[];
}

export interface ManualAnalysis {
  /** Knowledge cause id -> the manual's causes that name it, each on its page. */
  matched: Map<string, Quote[]>;
  /** Knowledge cause ids the entries list (whether or not a page was found for the words). */
  listed: Set<string>;
  /** Knowledge cause id -> the steps that speak of it, on their pages (no effect on its prior). */
  mentioned: Map<string, Quote[]>;
  unmatched: ManualHypothesis[];
  /** Knowledge action id -> the steps that describe it, on their pages. */
  actionQuotes: Map<string, Quote[]>;
  /** Knowledge action id -> the warnings the manual prints for the steps that describe it. */
  actionSafety: Map<string, string[]>;
  steps: {
    factIndex: number;
    order: number;
    text: string;
    safety: string | null;
    citation: Citation | null;
  }[];
  /** Fact index -> ids of every hypothesis the fact lists. */
  listedBy: Map<number, string[]>;
  /** Knowledge cause id -> the part the manual names for it. */
  parts: Map<string, ManualPart>;
}

export function analyseManual(facts: ManualFact[], causes: Cause[], actions: Action[]): ManualAnalysis {
  const matched = new Map<string, Quote[]>();
  const listedCauses = new Set<string>();
  const mentioned = new Map<string, Quote[]>();
  const actionQuotes = new Map<string, Quote[]>();
  const actionSafety = new Map<string, string[]>();
  const byText = new Map<string, ManualHypothesis>();
  const unmatched: ManualHypothesis[] = [];
  const steps: ManualAnalysis['steps'] = [];
  const listedBy = new Map<number, string[]>();
  const parts = new Map<string, ManualPart>();

  facts.forEach((fact, factIndex) => {
    const names = designatorsOf(fact);
    const listed: string[] = [];
    fact.causes.forEach((text, i) => {
      if (!text.trim()) return;
      const printed = fact.causeQuotes?.[i];
      const at = printed === undefined ? fact.citation : (printed?.citation ?? null);
      const quoted = printed?.text ?? text.trim();
      const winners = bestMatches(causes, text);
      if (winners.length > 0) {
        for (const cause of winners) {
          addQuote(matched, cause.id, quoted, at);
          listedCauses.add(cause.id);
          listed.push(cause.id);
        }
        return;
      }
      const key = normaliseText(text);
      let entry = byText.get(key);
      if (!entry) {
        entry = {
          hypothesis: {
            id: `manual-${unmatched.length + 1}`,
            label: { en: text.trim(), fr: text.trim() },
            source: 'manual',
            prior: 0,
            remedy: null,
            citations: [],
            quotes: [],
          },
          facts: [],
        };
        byText.set(key, entry);
        unmatched.push(entry);
      }
      const quotes = entry.hypothesis.quotes!;
      if (at && !quotes.some((q) => sameCitation(q.citation, at)))
        quotes.push({ text: quoted, citation: at });
      entry.hypothesis.citations = citationsOf(quotes);
      entry.facts.push(factIndex);
      listed.push(entry.hypothesis.id);
    });
    listedBy.set(factIndex, listed);

    for (const step of [...fact.steps].sort((a, b) => a.order - b.order)) {
      if (!step.text.trim()) continue;
      const at = placed(step.citation, fact);
      const text = step.text.trim();
      // A step that names a cause ("points to a blocked circulator") is the page that supports it.
      for (const cause of bestMatches(causes, step.text)) addQuote(mentioned, cause.id, text, at);
      const winners = stepActions(actions, step, names);
      if (winners.length > 0) {
        for (const action of winners) {
          addQuote(actionQuotes, action.id, text, at);
          // The manual's warning for the step goes with the action that stands for it.
          if (step.safety) {
            const list = actionSafety.get(action.id) ?? [];
            if (!list.includes(step.safety)) list.push(step.safety);
            actionSafety.set(action.id, list);
          }
        }
      } else {
        steps.push({ factIndex, order: step.order, text, safety: step.safety, citation: at });
      }
    }
    // The part the entry names goes with the cause its name speaks of (a flow switch, a circulator).
    if (fact.part)
      for (const cause of bestMatches(causes, fact.part.name)) {
        if (!parts.has(cause.id)) parts.set(cause.id, fact.part);
      }
  });
  return {
    matched,
    listed: listedCauses,
    mentioned,
    unmatched,
    actionQuotes,
    actionSafety,
    steps,
    listedBy,
    parts,
  };
}
