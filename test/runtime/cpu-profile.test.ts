import { describe, expect, it } from 'vitest';
import { summariseProfile } from '../../bench/cpu-profile.js';

/** A profile node as V8's inspector gives it. */
function node(id: number, functionName: string, url: string, lineNumber: number, children: number[] = []) {
  return { id, callFrame: { functionName, url, lineNumber }, children };
}

// (root) -> flush (a script) -> run (native, line -1) ; flush -> (anonymous) generated (no url, line 2)
// (root) -> (garbage collector) ; (root) -> (idle)
const profile = {
  startTime: 0,
  nodes: [
    node(1, '(root)', '', -1, [2, 5, 6]),
    node(2, 'flush', 'file:///srv/app/dist/src/state/sqlite/completions.js', 38, [3, 4]),
    node(3, 'bind', '', -1),
    node(4, '', '', 2),
    node(5, '(garbage collector)', '', -1),
    node(6, '(idle)', '', -1),
  ],
  // 4 samples in the native call, 2 in generated code, 1 in flush itself, 3 in GC, 10 idle
  samples: [3, 3, 3, 3, 4, 4, 2, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
  timeDeltas: Array.from({ length: 20 }, () => 1),
};

describe('summariseProfile', () => {
  const summary = summariseProfile(profile);
  const share = (frame: string) => summary.top_frames.find((f) => f.frame === frame)?.self_pct;

  it('lists a native frame under its nearest caller with a script, whatever V8 named it', () => {
    expect(share('bind (native) < flush src/state/sqlite/completions.js:39')).toBe(40);
  });

  it('lists code generated at run time under its caller, apart from native code', () => {
    expect(share('(anonymous) (generated code) < flush src/state/sqlite/completions.js:39')).toBe(20);
  });

  it("keeps V8's own frames and scripted frames as they are, and leaves idle samples out of the shares", () => {
    expect(share('(garbage collector)')).toBe(30);
    expect(share('flush src/state/sqlite/completions.js:39')).toBe(10);
    expect(summary.top_frames.some((f) => f.frame.startsWith('(idle)'))).toBe(false);
    expect(summary.samples).toBe(20);
  });
});
