import { EPSILON } from './repair-order.js';
import type { Reading } from './situation.js';
import type { ModelAction } from './types.js';

/**
 * Whether a reading has found the defect a repair mends (`locatedBy`): one of its quantities was
 * answered with a value that one of the repair's causes explains better than a sound installation does
 * (the cable seen damaged, not seen intact). A repair with no `locatedBy` needs nothing found.
 */
export function located(readings: ReadonlyMap<string, Reading>, repair: ModelAction): boolean {
  if (!repair.locatedBy) return true;
  return repair.locatedBy.some((q) => {
    const reading = readings.get(q);
    const table = reading?.action.table;
    if (!reading || !table) return false;
    const likelihood = (row: readonly number[]) =>
      row.reduce((sum, x, i) => sum + x * (reading.weights[i] ?? 0), 0);
    const sound = likelihood(table.baseline);
    return Object.keys(repair.fixes).some((id) => {
      const row = table.rows[id];
      return row !== undefined && likelihood(row) > sound + EPSILON;
    });
  });
}

/** The first quantity that could still find the repair's defect: one it locates by that has no reading. */
export function nextLocating(
  readings: ReadonlyMap<string, Reading>,
  repair: ModelAction,
): string | undefined {
  if (located(readings, repair)) return undefined;
  return repair.locatedBy?.find((q) => !readings.has(q));
}
