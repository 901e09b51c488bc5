/**
 * Ranges and thresholds a manual's entry for the code states for a quantity ("between 1.0 and 2.5 bar",
 * "at least 12 l/min for DT-AW080-M, 17 l/min for DT-AW120-M"). They replace the knowledge's general
 * nominal range for the session, with the citation of the page. A sentence speaks of a quantity when
 * it gives a number in the quantity's unit and either names the quantity's reading (the keywords of an
 * action that reads it) or no other quantity of the session has that unit. Written by hand: no library
 * reads ranges out of technical prose in five languages, and the forms are few.
 */
import type { Citation } from '../../contract/common.js';
import type { ManualFact } from './types.js';

export interface ManualRange {
  /** Either end may be open: "at least 12 l/min" gives only a lower end. */
  low: number | null;
  high: number | null;
  citation: Citation;
  text: string;
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const BETWEEN = '(?:between|entre|zwischen|tussen)';
const AND = '(?:and|et|und|y|en)';
const TO = '(?:to|à|a|bis|tot|-|–)';
const AT_LEAST =
  '(?:at least|minimum of|minimum|min\\.|no less than|au moins|au minimum|minimum de|mindestens|al menos|como mínimo|minimaal|minstens)';
const AT_MOST =
  '(?:at most|maximum of|maximum|max\\.|no more than|au plus|au maximum|maximum de|höchstens|maximal|como máximo|maximaal|hoogstens)';
const FOR = '(?:for|pour|für|para|voor)';

/** Ways of writing a unit in a manual. */
const UNIT_SPELLINGS: Record<string, string> = {
  bar: 'bar',
  'l/min': String.raw`l\s*/\s*min|l/mn|lpm`,
  K: 'K',
  A: 'A',
  V: 'V',
  MOhm: 'MΩ|MOhm|M ohm',
  '%': '%',
};

function unitPattern(unit: string): string {
  return UNIT_SPELLINGS[unit] ?? unit.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function toNumber(text: string): number {
  return Number(text.replace(',', '.'));
}

/** Sentences of a manual text; a decimal comma or point does not end one. */
function sentences(text: string): string[] {
  return text
    .split(/(?<=[.;!?])\s+(?=[A-ZÀ-Ý(])|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The model a value is given for ("17 l/min for DT-AW120-M"), read right after it, and its length. */
function modelAfter(text: string, from: number): { model: string | null; length: number } {
  const m = new RegExp(
    String.raw`^\s*${FOR}\s+(?:the\s+|le\s+|la\s+|les\s+)?([A-Za-z0-9][\w\-/.]*\d[\w\-/.]*)`,
    'iu',
  ).exec(text.slice(from));
  return m ? { model: m[1]!.replace(/[.,;]+$/, ''), length: m[0].length } : { model: null, length: 0 };
}

function sameModel(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  return norm(a) === norm(b);
}

interface Candidate {
  low: number | null;
  high: number | null;
  model: string | null;
}

/** Every range or threshold in the unit that one sentence states, with the model it is given for. */
function candidatesIn(sentence: string, unit: string): Candidate[] {
  const u = unitPattern(unit);
  const end = String.raw`(?![\p{L}])`;
  const out: Candidate[] = [];
  const spans: [number, number][] = [];
  const taken = (at: number) => spans.some(([a, b]) => at >= a && at < b);
  const patterns: { re: RegExp; make: (m: RegExpExecArray) => Omit<Candidate, 'model'> }[] = [
    {
      re: new RegExp(
        String.raw`${BETWEEN}\s+${NUMBER}\s*(?:${u})?\s+${AND}\s+${NUMBER}\s*(?:${u})${end}`,
        'giu',
      ),
      make: (m) => ({ low: toNumber(m[1]!), high: toNumber(m[2]!) }),
    },
    {
      re: new RegExp(String.raw`${NUMBER}\s*(?:${u})?\s*${TO}\s*${NUMBER}\s*(?:${u})${end}`, 'giu'),
      make: (m) => ({ low: toNumber(m[1]!), high: toNumber(m[2]!) }),
    },
  ];
  for (const { re, make } of patterns) {
    for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
      if (taken(m.index)) continue;
      spans.push([m.index, m.index + m[0].length]);
      out.push({ ...make(m), model: modelAfter(sentence, m.index + m[0].length).model });
    }
  }
  // A threshold, and the same threshold for other models listed after it ("…, 17 l/min for X").
  for (const [word, side] of [
    [AT_LEAST, 'low'],
    [AT_MOST, 'high'],
  ] as const) {
    const re = new RegExp(String.raw`${word}\s+${NUMBER}\s*(?:${u})${end}`, 'giu');
    for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
      if (taken(m.index)) continue;
      let at = m.index + m[0].length;
      const first = toNumber(m[1]!);
      let tag = modelAfter(sentence, at);
      out.push({
        low: side === 'low' ? first : null,
        high: side === 'high' ? first : null,
        model: tag.model,
      });
      at += tag.length;
      const more = new RegExp(String.raw`^\s*(?:,|or|ou|oder|o|of)\s*${NUMBER}\s*(?:${u})${end}`, 'iu');
      for (let n = more.exec(sentence.slice(at)); n; n = more.exec(sentence.slice(at))) {
        at += n[0].length;
        const value = toNumber(n[1]!);
        tag = modelAfter(sentence, at);
        out.push({
          low: side === 'low' ? value : null,
          high: side === 'high' ? value : null,
          model: tag.model,
        });
        at += tag.length;
      }
    }
  }
  return out.filter((c) => c.low === null || c.high === null || c.low < c.high);
}

/**
 * The range the manual's entry states for a quantity, for this model: a value given for another model
 * is never used, and a value given for no model in particular holds for every model the entry covers.
 */
export function manualRange(
  facts: ManualFact[],
  quantity: { unit: string; names: (sentence: string) => boolean; onlyOfUnit: boolean },
  model: string,
): ManualRange | undefined {
  for (const fact of facts) {
    // Each text with the page that holds it: a range is cited on the page where it is printed, and a
    // text no page was found to hold gives no manual range (the general figure stands, said as such).
    const texts = [
      ...[...fact.steps]
        .sort((a, b) => a.order - b.order)
        .map((s) => ({ text: s.text, citation: s.citation === undefined ? fact.citation : s.citation })),
      ...fact.causes.map((text, i) => {
        const at = fact.causeQuotes?.[i];
        return { text, citation: at === undefined ? fact.citation : (at?.citation ?? null) };
      }),
    ];
    for (const { text, citation } of texts) {
      if (!citation) continue;
      for (const sentence of sentences(text)) {
        if (!quantity.onlyOfUnit && !quantity.names(sentence)) continue;
        const found = candidatesIn(sentence, quantity.unit);
        const chosen =
          found.find((c) => c.model !== null && sameModel(c.model, model)) ??
          found.find((c) => c.model === null);
        if (chosen) return { low: chosen.low, high: chosen.high, citation, text: sentence };
      }
    }
  }
  return undefined;
}
