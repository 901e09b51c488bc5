import { describe, expect, it } from 'vitest';
import { applyCompilerThreads, defaultCompilerThreads } from '../../src/serve/compiler-threads.js';
import { applyRuntimeSettings } from '../../src/serve/runtime-settings.js';

describe("serve's bound on V8's optimising compiler threads", () => {
  it('keeps one core for the thread that answers requests, and leaves at least one thread', () => {
    expect(defaultCompilerThreads(1)).toBe(1);
    expect(defaultCompilerThreads(2)).toBe(1);
    expect(defaultCompilerThreads(8)).toBe(7);
  });

  it("leaves the operator's own setting alone, from the command line or NODE_OPTIONS", () => {
    expect(applyCompilerThreads(1, ['--concurrent-turbofan-max-threads=3'])).toBeNull();
    expect(applyCompilerThreads(1, ['--concurrent_turbofan_max_threads=2'])).toBeNull();
    expect(
      applyCompilerThreads(1, ['--max-semi-space-size=8', '--concurrent-turbofan-max-threads=0']),
    ).toBeNull();
    expect(applyCompilerThreads(2, ['--max-semi-space-size=8'])).toBe(2);
  });

  it('refuses a bound that is not a whole number of threads', () => {
    expect(() => applyCompilerThreads(0, [])).toThrow(RangeError);
    expect(() => applyCompilerThreads(1.5, [])).toThrow(/whole number/);
  });

  it("is applied with the heap growth by serve's one runtime-settings call, which refuses bad values of either", () => {
    expect(() => applyRuntimeSettings({ heapGrowthPercent: -1 })).toThrow(RangeError);
    expect(() => applyRuntimeSettings({ compilerThreads: 0 })).toThrow(/whole number/);
    expect(() => applyRuntimeSettings({ heapGrowthPercent: 25, compilerThreads: null })).not.toThrow();
  });
});
