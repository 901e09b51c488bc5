/**
 * A simulated technician: answers the engine's actions from a case's readings, through the vocabulary
 * mapping, and answers "unknown" whenever the case holds no reading for the action.
 */
import { normaliseText } from '../src/engine/sessions/text-match.js';
import type { AnswerValue, ExpectedNumber, ModelAction } from '../src/engine/sessions/types.js';
import type { BenchCase } from './sessions-cases.js';
import {
  ACTION_MAP,
  AM_ACTION_PATTERNS,
  AM_REPAIR_WORDS,
  AM_VERIFICATION_WORDS,
  QUANTITY_MAP,
  type QuantitySource,
  STEP_VERIFICATION_PREFIXES,
  WARRANTY_WORDS,
} from './sessions-mapping.js';

export type SimulatedAnswer = AnswerValue | { unknown: true };
const UNKNOWN = { unknown: true } as const;

const UNIT_WORDS: Record<string, string> = {
  bar: 'bar',
  K: 'k|°c|degr[ée]s?',
  'l/min': 'l\\s*/\\s*min|l/mn|lpm',
  A: 'a',
  V: 'v',
  MOhm: 'm[ΩΩ]|mohm|m ohm',
  '%': '%',
};

function phraseIn(text: string, phrase: string): boolean {
  return ` ${normaliseText(text)} `.includes(` ${normaliseText(phrase)}`);
}

/** The first outcome whose phrases occur in the text, in the order the mapping lists them. */
function outcomeFromWords(source: QuantitySource, text: string): string | undefined {
  for (const [phrases, outcome] of source.words ?? []) {
    if (phrases.some((p) => phraseIn(text, p))) return outcome;
  }
  return undefined;
}

/** A number standing for a band, from the nominal range the engine gave. */
function representative(expected: ExpectedNumber, band: string): number | undefined {
  const [lo, hi] = expected.nominal_range;
  const step = Math.max(3 * expected.margin, 0.25 * (hi - lo));
  if (band === 'zero') return expected.zero !== null ? expected.zero / 2 : 0;
  if (band === 'low') return expected.sided === 'upper' ? undefined : lo - step;
  if (band === 'high') return expected.sided === 'lower' ? undefined : hi + step;
  if (band === 'normal') return (lo + hi) / 2;
  return undefined;
}

function numberInText(text: string, unit: string): number | undefined {
  const unitPattern = UNIT_WORDS[unit];
  if (!unitPattern) return undefined;
  const match = new RegExp(`(-?\\d+(?:[.,]\\d+)?)\\s*(?:${unitPattern})(?![a-zà-ü])`, 'i').exec(text);
  return match ? Number(match[1]!.replace(',', '.')) : undefined;
}

function firstNumber(text: string): number | undefined {
  const match = /-?\d+(?:[.,]\d+)?/.exec(text);
  return match ? Number(match[0].replace(',', '.')) : undefined;
}

/** Converts one raw reading (number or word) of the case into an answer of the action's type. */
function convert(action: ModelAction, source: QuantitySource, raw: unknown): AnswerValue | undefined {
  const expected = action.expected;
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw === 'boolean') return expected.type === 'boolean' ? raw : undefined;
  if (expected.type === 'number') {
    if (typeof raw === 'number') return raw;
    const text = String(raw);
    const band = outcomeFromWords(source, text);
    if (band) return representative(expected, band);
    return /\d/.test(text) ? firstNumber(text) : undefined;
  }
  if (expected.type === 'choice') {
    const choice = typeof raw === 'number' ? source.fromNumber?.(raw) : outcomeFromWords(source, String(raw));
    return choice && expected.choices.some((c) => c.id === choice) ? choice : undefined;
  }
  return undefined;
}

/** Reads a quantity from a set of keys (their quantity ids or state keys), then from its derivation. */
function readFrom(
  action: ModelAction,
  source: QuantitySource,
  get: (key: string) => unknown,
): AnswerValue | undefined {
  for (const key of source.keys) {
    const value = convert(action, source, get(key));
    if (value !== undefined) return value;
  }
  if (!source.derive) return undefined;
  const derived = source.derive(get);
  // A derivation yields either a number or one of our own outcome ids.
  if (typeof derived === 'string' && action.expected.type === 'choice') {
    return action.expected.choices.some((c) => c.id === derived) ? derived : undefined;
  }
  return convert(action, source, derived);
}

function amMatches(patterns: string[][] | undefined, name: string): boolean {
  if (!patterns) return false;
  const words = normaliseText(name).split(' ');
  return patterns.some((pattern) =>
    pattern.every((p) =>
      p.startsWith('!') ? !words.some((w) => w.startsWith(p.slice(1))) : words.some((w) => w.startsWith(p)),
    ),
  );
}

export class SimulatedTechnician {
  private readonly world: Record<string, unknown>;

  constructor(private readonly c: BenchCase) {
    this.world = { ...(c.am?.ground ?? {}) };
  }

  /** The case's readings already known when the session opens, as engine readings. */
  initialReadings(
    actionFor: (quantity: string) => ModelAction | undefined,
  ): { quantity: string; value: AnswerValue }[] {
    const out: { quantity: string; value: AnswerValue }[] = [];
    for (const [quantity, source] of Object.entries(QUANTITY_MAP)) {
      const action = actionFor(quantity);
      if (action?.expected.type !== 'number') continue;
      const value = readFrom(action, source, (key) => this.c.initialReadings[key]);
      if (value !== undefined) out.push({ quantity, value });
    }
    return out;
  }

  answer(action: ModelAction): SimulatedAnswer {
    if (action.quantity === 'under_warranty') return this.warranty();
    if (action.kind === 'repair') return this.repairResult(action);
    if (!action.quantity) return UNKNOWN;
    const source = QUANTITY_MAP[action.quantity];
    if (!source) return UNKNOWN;
    const value =
      (this.c.am ? this.readAm(action, source) : this.readSteps(action, source)) ??
      this.readTexts(action, source);
    return value === undefined ? UNKNOWN : value;
  }

  /** A reading stated anywhere in the case's texts, for quantities whose mapping can read one. */
  private readTexts(action: ModelAction, source: QuantitySource): AnswerValue | undefined {
    if (!source.fromText || action.expected.type !== 'choice') return undefined;
    const texts = [this.c.narrative, ...this.c.steps.map((s) => s.text)];
    for (const text of texts) {
      const outcome = source.fromText(text);
      if (outcome && action.expected.choices.some((c) => c.id === outcome)) return outcome;
    }
    return undefined;
  }

  private stepsFor(action: ModelAction) {
    const theirs = ACTION_MAP[action.id] ?? [];
    return this.c.steps.filter((s) => theirs.includes(s.action));
  }

  /** v2 and v3: the readings of their actions that stand for ours, then the readings given up front. */
  private readSteps(action: ModelAction, source: QuantitySource): AnswerValue | undefined {
    for (const step of this.stepsFor(action)) {
      const structured = step.reading && source.keys.includes(step.reading.quantity) ? step.reading : null;
      const fromReading = structured
        ? convert(action, source, structured.value ?? structured.modality)
        : undefined;
      let fromText: AnswerValue | undefined;
      if (action.expected.type === 'number') {
        const n = numberInText(step.text, action.expected.unit);
        fromText =
          n !== undefined
            ? n
            : convert(action, source, outcomeFromWords(source, step.text) ? step.text : undefined);
      } else {
        fromText = convert(action, source, step.text);
      }
      // Numbers come from the structured reading; a choice from the words the case author wrote.
      const value = action.expected.type === 'number' ? (fromReading ?? fromText) : (fromText ?? fromReading);
      if (value !== undefined) return value;
    }
    return readFrom(action, source, (key) => this.c.initialReadings[key]);
  }

  private matchingEvolution(action: ModelAction): number[] {
    const patterns = AM_ACTION_PATTERNS[action.id];
    const out: number[] = [];
    this.c.am?.evolution.forEach((e, i) => {
      if (amMatches(patterns, e.action)) out.push(i);
    });
    return out;
  }

  /** AM: the result of the matching step (the world changes as it is carried out), then the world. */
  private readAm(action: ModelAction, source: QuantitySource): AnswerValue | undefined {
    for (const i of this.matchingEvolution(action)) {
      const result = this.c.am!.evolution[i]!.result;
      Object.assign(this.world, result);
      const value = readFrom(action, source, (key) => result[key]);
      if (value !== undefined) return value;
    }
    return readFrom(action, source, (key) => this.world[key]);
  }

  private repairResult(action: ModelAction): SimulatedAnswer {
    if (this.c.am) {
      const evolution = this.c.am.evolution;
      const [i] = this.matchingEvolution(action);
      if (i === undefined) return UNKNOWN;
      const result = evolution[i]!.result;
      Object.assign(this.world, result);
      if (result.resout === true) return true;
      // A repair whose success a later verification step shows (a test, a full cycle) counts as fixed.
      for (let j = i + 1; j < evolution.length; j++) {
        const words = normaliseText(evolution[j]!.action).split(' ');
        const has = (list: string[]) => words.some((w) => list.some((p) => w.startsWith(p)));
        if (has(AM_REPAIR_WORDS)) break;
        if (has(AM_VERIFICATION_WORDS) && evolution[j]!.result.resout === true) return true;
      }
      return false;
    }
    const steps = this.stepsFor(action);
    if (steps.length === 0) return UNKNOWN;
    if (steps.some((s) => s.resolves)) return true;
    // As in the AM format: a repair whose success a later check or reset shows counts as fixed, unless
    // other work came in between.
    const all = this.c.steps;
    for (let j = all.indexOf(steps[steps.length - 1]!) + 1; j < all.length; j++) {
      const later = all[j]!;
      if (!STEP_VERIFICATION_PREFIXES.some((prefix) => later.action.startsWith(prefix))) break;
      if (later.resolves) return true;
    }
    return false;
  }

  private warranty(): SimulatedAnswer {
    const texts = [this.c.narrative];
    if (this.c.am) texts.push(String(this.c.am.ground.garantie_constructeur ?? ''));
    for (const text of texts) {
      if (WARRANTY_WORDS.no.some((p) => phraseIn(text, p))) return false;
      if (WARRANTY_WORDS.yes.some((p) => phraseIn(text, p))) return true;
    }
    // The legal guarantee covers the first two years; beyond eight, no maker's warranty does.
    if (this.c.ageYears !== null && this.c.ageYears <= 2) return true;
    if (this.c.ageYears !== null && this.c.ageYears >= 8) return false;
    return UNKNOWN;
  }
}
