import { describe, expect, it } from 'vitest';
import { applyDelta, diff, type Json } from '../../src/state/json-delta.js';

const roundTrip = (a: Json, b: Json) => JSON.stringify(applyDelta(a, diff(a, b)));

describe('json-delta', () => {
  const base: Json = {
    version: 'k1',
    list: [1, 2, 3],
    actions: [
      { id: 'a', minutes: 1, tags: ['x'] },
      { id: 'b', minutes: 2, tags: [] },
    ],
    settings: { budget: 8, quick: 1 },
    note: null,
  };

  it('rebuilds the same JSON text, key order included', () => {
    const cases: Json[] = [
      base,
      { ...base, settings: { quick: 1, budget: 8 } },
      { note: 'x', version: 'k1' },
      { ...base, list: [1, 2], actions: [{ id: 'b', minutes: 2, tags: [] }] },
      {
        ...base,
        actions: [
          { id: 'c', minutes: 0, tags: [] },
          { id: 'b', minutes: 5, tags: ['y'] },
          { id: 'a', minutes: 1, tags: ['x'] },
        ],
      },
      { ...base, list: [3, 2, 1, 0], settings: null },
      [base, base],
      'a string',
      null,
    ];
    for (const b of cases) expect(roundTrip(base, b)).toBe(JSON.stringify(b));
  });

  it('is empty for equal values and small for a small change', () => {
    expect(diff(base, JSON.parse(JSON.stringify(base)) as Json)).toBeUndefined();
    const changed = { ...base, settings: { budget: 6, quick: 1 } };
    expect(JSON.stringify(diff(base, changed))).toBe('{"o":{"settings":{"o":{"budget":{"$":6}}}}}');
  });

  it('leaves the base as it was', () => {
    const before = JSON.stringify(base);
    applyDelta(base, diff(base, { ...base, actions: [] }));
    expect(JSON.stringify(base)).toBe(before);
  });
});
