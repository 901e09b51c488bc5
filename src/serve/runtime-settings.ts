import { applyCompilerThreads } from './compiler-threads.js';
import { applyHeapGrowth, DEFAULT_HEAP_GROWTH_PERCENT } from './heap-growth.js';

/** The V8 settings `serve` gives its own process; unset fields take `serve`'s defaults. */
export interface RuntimeSettings {
  /** `serve --heap-growth` (heap-growth.ts); 0 leaves V8's own factor. */
  heapGrowthPercent?: number;
  /** The optimising compiler's threads (compiler-threads.ts); null leaves V8's own (unbounded). */
  compilerThreads?: number | null;
}

/**
 * Applies `serve`'s V8 settings to the running process: called by `startServer` and by the benchmarks
 * that measure a server (bench:scale, bench:http), so that they measure the process `serve` runs.
 */
export function applyRuntimeSettings(settings: RuntimeSettings = {}): void {
  applyHeapGrowth(settings.heapGrowthPercent ?? DEFAULT_HEAP_GROWTH_PERCENT);
  if (settings.compilerThreads !== null) applyCompilerThreads(settings.compilerThreads);
}
