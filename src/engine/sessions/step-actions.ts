import type { Action } from './knowledge-schema.js';
import { allPhrases, normaliseText, phraseSpans, tokens } from './text-match.js';
import type { ManualFact } from './types.js';

/**
 * Which knowledge actions a manual step stands for. Written by hand (no library reads a service
 * manual's steps): plain keyword matching let a step's precautions and circumstances outvote its
 * subject ("isolate the power supply ... and measure FS1 with the circulator running" read as a
 * supply-voltage reading and listening to the pump), so the step's warning landed on those actions.
 */

/** A component designator as manuals print them: capitals then digits (FS1, P1, CN9) or two or more capitals (WP). */
const DESIGNATOR = /^(?:[A-Z]{1,4}\d{1,2}|[A-Z]{2,4})$/;

/**
 * Component names the entry gives with their designators, read from its part line ("flow switch FS1,
 * ref. 4012-220; circulator P1"): designator -> name. Steps often name the part by designator alone.
 */
export function designatorsOf(fact: ManualFact): Map<string, string> {
  const names = new Map<string, string>();
  for (const piece of (fact.part?.name ?? '').split(/[;,()]/)) {
    const words = piece.trim().split(/\s+/).filter(Boolean);
    words.forEach((word, i) => {
      if (i === 0 || !DESIGNATOR.test(word) || names.has(word)) return;
      const name = words.slice(Math.max(0, i - 3), i).filter((w) => !DESIGNATOR.test(w));
      if (name.length > 0 && name.every((w) => /^\p{Ll}/u.test(w))) names.set(word, name.join(' '));
    });
  }
  return names;
}

/** The step with each designator it names preceded by the component's name ("FS1" -> "flow switch FS1"). */
function expanded(text: string, names: Map<string, string>): string {
  if (names.size === 0) return text;
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => {
    const name = names.get(word);
    return name ? `${name} ${word}` : word;
  });
}

interface Match<T> {
  item: T;
  score: number;
  first: number;
}

/**
 * The actions the step stands for: the best summed length of the distinct keyword phrases it holds,
 * not counting a phrase its own warning also holds (the precaution, "isolate the power supply", is not
 * the check). On a tie the action named first wins: the step's subject comes before its circumstances
 * ("measure FS1 with the circulator running").
 */
export function stepActions<T extends Pick<Action, 'id' | 'keywords'>>(
  actions: T[],
  step: { text: string; safety: string | null },
  names: Map<string, string>,
): T[] {
  const warning = step.safety ? tokens(step.safety) : [];
  return best(actions, tokens(expanded(instructionOf(step.text), names)), warning);
}

/** Words that open a step's condition ("If the flow is correct but the code remains, ..."). */
const CONDITION =
  /^(?:if|when|once|si|lorsque|quand|wenn|falls|sobald|cuando|als|indien|zodra)\b[^,;:]*[,;:]\s*/iu;

/**
 * What the step asks: its first sentence without its opening condition or its asides. The sentences after it
 * explain ("A mesh more than half covered reduces the flow below the opening point of FS1"), and the
 * condition names what an earlier step found, not what this one checks.
 */
export function instructionOf(text: string): string {
  // An aside in brackets (a menu path, "Service > Actuator test") says where, not what.
  const plain = text.replace(/\([^()]*\)/g, ' ').trim();
  const first = plain.split(/(?<=[.!?])\s+(?=\p{Lu})/u)[0] ?? plain;
  const rest = first.replace(CONDITION, '');
  return rest.trim() ? rest : first;
}

function best<T extends Pick<Action, 'id' | 'keywords'>>(
  actions: T[],
  words: string[],
  warning: string[],
): T[] {
  let top: Match<T>[] = [];
  for (const item of actions) {
    const seen = new Set<string>();
    let score = 0;
    let first = Number.POSITIVE_INFINITY;
    for (const phrase of allPhrases(item.keywords)) {
      const key = normaliseText(phrase);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      const spans = phraseSpans([key], words);
      if (spans.length === 0 || phraseSpans([key], warning).length > 0) continue;
      score += spans[0]!.length;
      first = Math.min(first, ...spans.map((s) => s.start));
    }
    if (score === 0) continue;
    const lead = top[0];
    if (!lead || score > lead.score || (score === lead.score && first < lead.first))
      top = [{ item, score, first }];
    else if (score === lead.score && first === lead.first) top.push({ item, score, first });
  }
  return top.map((m) => m.item);
}
