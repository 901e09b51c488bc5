import { describe, expect, it } from 'vitest';
import { Admission } from '../../src/engine/admission.js';

describe('Admission', () => {
  it('admits a key on its second ask, not its first', () => {
    const admission = new Admission();
    expect(admission.admit('heat pump E03')).toBe(false);
    expect(admission.admit('heat pump E03')).toBe(true);
    expect(admission.admit('heat pump E03')).toBe(true);
    // Another key is its own first ask, whatever was asked before.
    expect(admission.admit('heat pump E04')).toBe(false);
  });

  it('forgets a key once as many other keys as it has slots were asked, in bounded memory', () => {
    const admission = new Admission(64);
    expect(admission.admit('first')).toBe(false);
    for (let i = 0; i < 10_000; i++) admission.admit(`other ${i}`);
    // Its slot was taken since: it counts as asked once more.
    expect(admission.admit('first')).toBe(false);
    expect(admission.admit('first')).toBe(true);
  });
});
