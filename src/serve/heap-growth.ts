import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived the last major collection before it
 * collects again, in percent. V8's own factor is chosen from the allocation rate and reaches 4x under a
 * steady load, so a server with ~90 MB of live data let its heap reach 300 MB of mostly garbage between
 * collections (see BENCHMARKS.md, soak). 25 % keeps the garbage to about a quarter of the live data, at
 * the price of more frequent major collections (most of their marking runs on V8's helper threads).
 */
export const DEFAULT_HEAP_GROWTH_PERCENT = 25;

/**
 * Sets V8's heap growing factor for this process: `--heap-growing-percent` is read at every major
 * collection, so unlike `--max-old-space-size` it takes effect when set in a running process and needs
 * no restart or NODE_OPTIONS. 0 leaves V8's own choice.
 */
export function applyHeapGrowth(percent: number): void {
  if (!Number.isInteger(percent) || percent < 0)
    throw new RangeError(`heap growth must be a whole number >= 0, got ${percent}`);
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
