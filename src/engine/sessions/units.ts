/**
 * Readings with a unit ("20 psi", "45 °F", "1.2 m³/h"): parsed and converted to the unit the step asks
 * for, from the table in data/units.yaml. Written by hand: the units of the trade are few and a
 * general unit library would still need our own spellings and the temperature-difference rule.
 */
import { z } from 'zod';
import { InvalidResponseError } from './errors.js';
import { readUnitsTable } from './units-table.js';

const UnitsFile = z.object({
  kinds: z.array(
    z.object({
      id: z.string(),
      base: z.string(),
      units: z.array(
        z.object({
          unit: z.string(),
          factor: z.number().positive(),
          offset: z.number().default(0),
          spellings: z.array(z.string()).min(1),
        }),
      ),
    }),
  ),
});
type UnitsFile = z.infer<typeof UnitsFile>;
type Kind = UnitsFile['kinds'][number];

let table: UnitsFile | undefined;

function units(): UnitsFile {
  table ??= UnitsFile.parse(readUnitsTable());
  return table;
}

/** A unit as compared: no case, no spaces, no dots, one degree sign. */
function fold(unit: string): string {
  return unit
    .replace(/[\s.]+/g, '')
    .replace(/º/g, '°')
    .replace(/³/g, '3')
    .toLowerCase();
}

/** The kind a step's unit belongs to: the kind whose base it is, else the first that lists it. */
function kindOf(stepUnit: string): Kind | undefined {
  const f = fold(stepUnit);
  const kinds = units().kinds;
  return (
    kinds.find((k) => fold(k.base) === f) ??
    kinds.find((k) => k.units.some((u) => fold(u.unit) === f || u.spellings.some((s) => fold(s) === f)))
  );
}

/** A reading as typed: a number (decimal comma or point, a sign) and what follows it. */
export function splitReading(text: string): { number: number; unit: string } | null {
  const m = /^\s*([-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*(.*?)\s*$/su.exec(text);
  if (!m) return null;
  const number = Number(m[1]!.replace(',', '.'));
  return Number.isFinite(number) ? { number, unit: m[2]! } : null;
}

export interface Converted {
  /** In the step's unit. */
  value: number;
  /** The reading as given ("20 psi"), when it named a unit other than the step's. */
  given: string | null;
}

/**
 * A reading in the step's unit: a number as it stands, or a string "value unit" converted from any
 * unit of the same kind. A unit of another kind or unknown is refused, naming it.
 */
export function toStepUnit(value: number | string, stepUnit: string): Converted {
  if (typeof value === 'number') return { value, given: null };
  const parsed = splitReading(value);
  if (!parsed) throw new InvalidResponseError(`"${value}" is not a number (in ${stepUnit})`);
  if (!parsed.unit || fold(parsed.unit) === fold(stepUnit)) return { value: parsed.number, given: null };
  const kind = kindOf(stepUnit);
  const from = kind?.units.find((u) => u.spellings.some((s) => fold(s) === fold(parsed.unit)));
  const to = kind?.units.find((u) => fold(u.unit) === fold(stepUnit));
  if (!kind || !from || !to) {
    const accepted = kind ? kind.units.map((u) => u.unit).join(', ') : stepUnit;
    throw new InvalidResponseError(
      `unknown unit "${parsed.unit}" for a reading in ${stepUnit} (accepted: ${accepted})`,
    );
  }
  const base = parsed.number * from.factor + from.offset;
  const converted = (base - to.offset) / to.factor;
  return { value: Math.round(converted * 1e4) / 1e4, given: `${parsed.number} ${from.unit}` };
}
