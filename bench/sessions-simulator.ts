/**
 * A simulated technician that cannot be fitted to the engine: it answers from a case's readings only
 * through the peer's public vocabulary (taxonomy action ids, quantity ids with their units, modalities
 * and nominal ranges, and the action-quantity map) and the vocabulary mapping of bench/sessions-mapping.ts,
 * which is keyed by those ids alone. A reading of one of their quantities answers every one of our
 * actions that measures it; anything else is "unknown".
 *
 * The installation is a world of readings. Readings taken by their reading actions (MES, OBS, TEST ...)
 * before any work describe it as found; the readings recorded with a piece of work (a repair, a
 * dismantling) become the world once the engine asks for that work. A v2 case records no structured
 * readings: a number followed by the unit the taxonomy gives for the quantity its action reads, or a
 * modality of that quantity written out, is the reading. An AM case names its ground state by quantity
 * id (a unit may follow the id) and its evolution steps in snake case: a step stands for the action ids
 * whose words it contains, the kind word (MES, REM ...) as a prefix.
 */
import { normaliseText } from '../src/engine/sessions/text-match.js';
import type { AnswerValue, ExpectedNumber, ModelAction } from '../src/engine/sessions/types.js';
import type { BenchCase } from './sessions-cases.js';
import {
  ACTION_MAP,
  type Band,
  QUANTITY_MAP,
  type QuantitySource,
  type Reading,
} from './sessions-mapping.js';
import { kindOf, READING_KINDS, type Taxonomy } from './sessions-taxonomy.js';

export type SimulatedAnswer = AnswerValue | { unknown: true };
const UNKNOWN = { unknown: true } as const;

type World = Map<string, Reading>;

/** A piece of work the case records: the readings after it and whether the fault cleared. */
interface Change {
  /** Their action ids the work stands for. */
  ids: string[];
  readings: World;
  resolves: boolean;
  /** Position in the case's sequence, to credit a later check that shows the fault cleared. */
  at: number;
}

/** Unit spellings in a written observation, by the taxonomy's unit. */
const UNIT_PATTERNS: Record<string, string> = {
  bar: 'bar',
  K: 'k|°c',
  '°C': '°c|°',
  'l/min': 'l\\s*/\\s*min|l/mn',
  A: 'a',
  ohm: 'ohms?|Ω',
};

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

/** Their modality of a raw value: exactly, or as the first words of a longer snake-case value. */
function modalityIn(table: Record<string, string>, raw: string): string | undefined {
  const value = raw.trim().toLowerCase();
  if (table[value] !== undefined) return table[value];
  for (const [modality, ours] of Object.entries(table)) if (value.startsWith(`${modality}_`)) return ours;
  return undefined;
}

export class SimulatedTechnician {
  private readonly world: World = new Map();
  private readonly initial: World = new Map();
  private readonly changes: Change[] = [];
  private readonly done = new Set<number>();

  constructor(
    private readonly c: BenchCase,
    private readonly taxonomy: Taxonomy,
  ) {
    if (c.am) this.fromAm();
    else this.fromSteps();
    for (const [k, v] of this.initial) this.world.set(k, v);
  }

  /** The case's readings known when the session opens (numbers only), as engine readings. */
  initialReadings(
    actionFor: (quantity: string) => ModelAction | undefined,
  ): { quantity: string; value: AnswerValue }[] {
    const out: { quantity: string; value: AnswerValue }[] = [];
    const given = this.fromKeys(this.c.initialReadings);
    for (const [quantity, source] of Object.entries(QUANTITY_MAP)) {
      const action = actionFor(quantity);
      if (action?.expected.type !== 'number') continue;
      const value = this.read(action, source, given);
      if (value !== undefined) out.push({ quantity, value });
    }
    return out;
  }

  answer(action: ModelAction): SimulatedAnswer {
    if (action.quantity === 'under_warranty') return this.warranty();
    if (action.kind === 'repair') return this.repairResult(action);
    if (!action.quantity) return UNKNOWN;
    // Dismantling to check a part is work the case may record; what it shows joins the world.
    for (const change of this.changesFor(action)) this.apply(change);
    const source = QUANTITY_MAP[action.quantity];
    const value = source ? this.read(action, source, this.world) : undefined;
    return value === undefined ? UNKNOWN : value;
  }

  private band(theirs: string, value: number): Band | undefined {
    const range = this.taxonomy.quantities[theirs]?.nominal.default;
    if (!range) return undefined;
    if (value < range[0]) return 'low';
    if (value > range[1]) return 'high';
    return 'normal';
  }

  private read(action: ModelAction, source: QuantitySource, world: World): AnswerValue | undefined {
    const get = (q: string) => world.get(q);
    const expected = action.expected;
    let raw: Reading | undefined;
    if (source.derive) raw = source.derive({ get, band: (q, v) => this.band(q, v) });
    if (raw === undefined && !source.derive) {
      for (const q of source.theirs) {
        raw = get(q);
        if (raw !== undefined) break;
      }
    }
    if (raw === undefined) return undefined;
    if (expected.type === 'number') {
      if (typeof raw === 'number') return raw;
      const band = source.modalities ? modalityIn(source.modalities, raw) : undefined;
      return band ? representative(expected, band) : undefined;
    }
    if (expected.type === 'choice') {
      const choice = typeof raw === 'string' && source.modalities ? modalityIn(source.modalities, raw) : raw;
      return typeof choice === 'string' && expected.choices.some((c) => c.id === choice) ? choice : undefined;
    }
    return undefined;
  }

  /** Readings keyed by their quantity id, or by the id followed by a unit ("delta_t_eau_K"). */
  private fromKeys(source: Record<string, unknown>): World {
    const out: World = new Map();
    for (const [key, value] of Object.entries(source)) {
      if (typeof value !== 'number' && typeof value !== 'string') continue;
      const id = this.quantityOfKey(key);
      if (id && !out.has(id)) out.set(id, value);
    }
    return out;
  }

  private quantityOfKey(key: string): string | undefined {
    if (this.taxonomy.quantities[key] || this.isMapped(key)) return key;
    const cut = key.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const id = key.slice(0, cut);
    const unit = this.taxonomy.quantities[id]?.unit;
    return unit && unit.toLowerCase() === key.slice(cut + 1).toLowerCase() ? id : undefined;
  }

  /** A quantity id of theirs that the action-quantity map names (not all are in the quantity list). */
  private isMapped(id: string): boolean {
    return Object.values(this.taxonomy.actionQuantities).some((qs) => qs.includes(id));
  }

  /** A reading written in an observation of one of their actions, in the taxonomy's own terms. */
  private fromText(actionId: string, text: string): World {
    const out: World = new Map();
    const quantities = this.taxonomy.actionQuantities[actionId] ?? [];
    const byUnit = new Map<string, string[]>();
    for (const q of quantities) {
      const unit = this.taxonomy.quantities[q]?.unit;
      if (unit) byUnit.set(unit, [...(byUnit.get(unit) ?? []), q]);
    }
    for (const [unit, qs] of byUnit) {
      const pattern = UNIT_PATTERNS[unit];
      // Two quantities of one unit in one action (HP and LP) cannot be told apart in free text.
      if (!pattern || qs.length !== 1) continue;
      const m = new RegExp(`(-?\\d+(?:[.,]\\d+)?)\\s*(?:${pattern})(?![a-zà-ü])`, 'i').exec(text);
      if (m) out.set(qs[0]!, Number(m[1]!.replace(',', '.')));
    }
    const words = ` ${normaliseText(text)} `;
    for (const q of quantities) {
      const found = (this.taxonomy.quantities[q]?.modalities ?? []).filter((m) =>
        words.includes(` ${normaliseText(m.replace(/_/g, ' '))} `),
      );
      if (found.length === 1) out.set(q, found[0]!);
    }
    return out;
  }

  private fromSteps(): void {
    for (const [k, v] of this.fromKeys(this.c.initialReadings)) this.initial.set(k, v);
    let current: Change | undefined;
    this.c.steps.forEach((step, at) => {
      const readings: World = step.reading
        ? new Map(
            [[step.reading.quantity, step.reading.value ?? step.reading.modality]].filter(
              (e): e is [string, Reading] => e[1] !== undefined,
            ),
          )
        : this.fromText(step.action, step.text);
      if (READING_KINDS.has(kindOf(step.action))) {
        for (const [q, v] of readings) {
          // A reading after unsuccessful work elsewhere still describes the installation as found.
          if (current) current.readings.set(q, v);
          if (!current?.resolves && !this.initial.has(q)) this.initial.set(q, v);
        }
        if (current && step.resolves) current.resolves = true;
        return;
      }
      current = { ids: [step.action], readings, resolves: step.resolves, at };
      this.changes.push(current);
    });
  }

  /** Their action ids an AM evolution step stands for: all words of the id, the kind word as a prefix. */
  private idsOfStep(name: string): string[] {
    const words = name
      .toLowerCase()
      .split(/[_\s-]+/)
      .filter(Boolean);
    const hasKind = words.some((w) => [...this.taxonomy.kinds].some((k) => w.startsWith(k)));
    let best: string[] = [];
    let bestCount = 0;
    for (const id of Object.keys(this.allIds())) {
      const [kind, ...rest] = id.toLowerCase().split('-');
      if (rest.length === 0 || !rest.every((t) => words.some((w) => w.startsWith(t)))) continue;
      const kindMatch = words.some((w) => w.startsWith(kind!));
      if (hasKind && !kindMatch) continue;
      const count = rest.length + (kindMatch ? 1 : 0);
      if (count > bestCount) {
        best = [id];
        bestCount = count;
      } else if (count === bestCount) best.push(id);
    }
    return best;
  }

  private allIds(): Record<string, true> {
    const ids: Record<string, true> = {};
    for (const id of Object.keys(this.taxonomy.actionQuantities)) ids[id] = true;
    for (const list of Object.values(ACTION_MAP)) for (const id of list) ids[id] = true;
    return ids;
  }

  private fromAm(): void {
    const am = this.c.am!;
    for (const [k, v] of this.fromKeys(am.ground)) this.initial.set(k, v);
    am.evolution.forEach((e, at) => {
      const ids = this.idsOfStep(e.action);
      const readings = this.fromKeys(e.result);
      const resolves = e.result.resout === true;
      const kinds = ids.map(kindOf);
      if (kinds.every((k) => READING_KINDS.has(k))) {
        // A check after work (or a step the taxonomy has no id for, such as a test cycle): it shows
        // whether the work just before it cleared the fault.
        const last = this.changes[this.changes.length - 1];
        if (last && resolves && last.at === at - 1) last.resolves = true;
      }
      this.changes.push({ ids, readings, resolves, at });
    });
  }

  private changesFor(action: ModelAction): Change[] {
    const theirs = ACTION_MAP[action.id] ?? [];
    return this.changes.filter((ch) => ch.ids.some((id) => theirs.includes(id)));
  }

  private apply(change: Change): void {
    const i = this.changes.indexOf(change);
    if (this.done.has(i)) return;
    this.done.add(i);
    for (const [k, v] of change.readings) this.world.set(k, v);
  }

  private repairResult(action: ModelAction): SimulatedAnswer {
    const mine = this.changesFor(action);
    if (mine.length === 0) return UNKNOWN;
    for (const change of mine) this.apply(change);
    return mine.some((ch) => ch.resolves);
  }

  /** The legal guarantee covers the first two years; beyond eight, no maker's warranty does. */
  private warranty(): SimulatedAnswer {
    if (this.c.ageYears !== null && this.c.ageYears <= 2) return true;
    if (this.c.ageYears !== null && this.c.ageYears >= 8) return false;
    return UNKNOWN;
  }
}
