import os from 'node:os';
import v8 from 'node:v8';

/**
 * How many of V8's helper threads may optimise code at once. V8 leaves it unbounded, and Node gives V8
 * four helper threads whatever the machine: on two cores, a fresh server's first searches then wait for
 * a core while up to four threads compile the search path beside them (at 100,000 pages the slowest
 * question's wall time was 8-10 ms above its own thread's CPU time). One core fewer than the machine
 * has (at least one) keeps a core for the thread that answers requests. BENCHMARKS.md, search at scale.
 */
export function defaultCompilerThreads(cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/** The flag, unless the operator set it already (NODE_OPTIONS or the command line): theirs stands. */
const FLAG = '--concurrent-turbofan-max-threads';

/**
 * Bounds V8's optimising compiler threads for this process. Set in a running process it was measured to
 * act as it does on the command line (BENCHMARKS.md, search at scale). Returns the bound now in force, or
 * null where the operator's own setting was left alone (V8 reads `_` and `-` alike in a flag's name).
 */
export function applyCompilerThreads(
  threads = defaultCompilerThreads(),
  given: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): number | null {
  if (!Number.isInteger(threads) || threads < 1)
    throw new RangeError(`compiler threads must be a whole number >= 1, got ${threads}`);
  if (given.some((arg) => arg.replaceAll('_', '-').startsWith(FLAG))) return null;
  v8.setFlagsFromString(`${FLAG}=${threads}`);
  return threads;
}
