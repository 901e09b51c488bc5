import type { Action, Labels, Quantity } from './knowledge-schema.js';
import { manualRange } from './manual-ranges.js';
import { nominalFor } from './outcome-tables.js';
import { anyPhraseOccurs, tokens } from './text-match.js';
import type { ManualFact, RangeSource, SessionContext } from './types.js';

/** A repair's prompt with the range it restores, saying whether the manual or a general figure gives it. */
export function withRange(
  prompt: Labels,
  range: [number, number],
  unit: string,
  fromManual: boolean,
): Labels {
  const [lo, hi] = range;
  return {
    en: `${prompt.en} ${fromManual ? 'The manual gives' : 'General figure (the manual states no range):'} ${lo} to ${hi} ${unit}.`,
    fr: `${prompt.fr} ${fromManual ? 'Le manuel donne' : 'Valeur générale (le manuel n’indique pas de plage) :'} ${lo} à ${hi} ${unit}.`,
  };
}

/**
 * The nominal ranges the manual's entry for the code states, by quantity: they replace the knowledge's
 * general figures when they are usable (inside the plausible range, wider than the soft margins).
 */
export function manualRangesFor(
  facts: ManualFact[],
  actions: Action[],
  quantities: Map<string, Quantity>,
  model: string,
  context: SessionContext,
): Map<string, { range: [number, number]; source: Extract<RangeSource, { kind: 'manual' }> }> {
  const out = new Map<
    string,
    { range: [number, number]; source: Extract<RangeSource, { kind: 'manual' }> }
  >();
  if (facts.length === 0) return out;
  const numbers = [...new Set(actions.map((a) => a.quantity).filter((id): id is string => !!id))]
    .map((id) => quantities.get(id))
    .filter((q): q is Extract<Quantity, { type: 'number' }> => q?.type === 'number');
  for (const q of numbers) {
    const readers = actions.filter((a) => a.quantity === q.id);
    const found = manualRange(
      facts,
      {
        unit: q.unit,
        names: (sentence) => readers.some((a) => anyPhraseOccurs(a.keywords, tokens(sentence))),
        onlyOfUnit: numbers.filter((o) => o.unit === q.unit).length === 1,
      },
      model,
    );
    if (!found) continue;
    const general = nominalFor(q, context);
    const low = found.low ?? Math.min(general[0], (found.high ?? general[1]) - 4 * q.margin);
    const high = found.high ?? Math.max(general[1], low + 4 * q.margin);
    if (low < q.plausible[0] || high > q.plausible[1] || high - low <= 2 * q.margin) continue;
    out.set(q.id, {
      range: [low, high],
      source: { kind: 'manual', citation: found.citation, text: found.text, stated: [found.low, found.high] },
    });
  }
  return out;
}
