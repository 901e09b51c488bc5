import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge } from '../../src/engine/sessions/index.js';
import type { ModelAction } from '../../src/engine/sessions/types.js';

/**
 * The conclusion rule waits for a check that tells the leader from the causes explaining the same
 * evidence; it can only be kept if such a check exists. This audits the knowledge as a whole: every two
 * causes of the fault tree that name the same outcome of the same quantity (siblings: one reading
 * fits both) are told apart by at least one check, whose outcome rows differ by the separation rule's
 * distance.
 */
const k = loadKnowledge();
const model = createSession(k, {
  equipment: 'air_water',
  brand: 'Acme',
  model: 'HP-1',
  symptom: 'unit stops',
}).model;
const minDistance = k.settings.conclusion.separation!.min_distance;
const checks = model.actions.filter(
  (a) => a.table && (a.kind === 'observe' || a.kind === 'measure' || a.kind === 'check'),
);

function row(a: ModelAction, id: string): number[] {
  return a.table!.rows[id] ?? a.table!.baseline;
}

function distance(x: number[], y: number[]): number {
  return x.reduce((sum, v, i) => sum + Math.abs(v - (y[i] ?? 0)), 0) / 2;
}

function siblings(): [string, string][] {
  const effects = new Map(k.causes.map((c) => [c.id, c.effects]));
  const ids = model.hypotheses.filter((h) => effects.has(h.id)).map((h) => h.id);
  const pairs: [string, string][] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = effects.get(ids[i]!)!;
      const b = effects.get(ids[j]!)!;
      const same = Object.entries(a).some(([q, outcomes]) =>
        Object.keys(outcomes).some((o) => b[q]?.[o] !== undefined),
      );
      if (same) pairs.push([ids[i]!, ids[j]!]);
    }
  }
  return pairs;
}

describe('causes that explain the same evidence', () => {
  const pairs = siblings();

  it('are many in the fault tree (the audit covers something)', () => {
    expect(pairs.length).toBeGreaterThan(20);
  });

  it('are each told apart by at least one check', () => {
    const untold = pairs.filter(
      ([a, b]) => !checks.some((c) => distance(row(c, a), row(c, b)) >= minDistance),
    );
    expect(untold).toEqual([]);
  });

  it('are mostly told apart by a check that needs no instrument', () => {
    const instrumentOnly = pairs.filter(
      ([a, b]) => !checks.some((c) => !c.instrument && distance(row(c, a), row(c, b)) >= minDistance),
    );
    // Two pairs of the knowledge need a meter to tell apart (a flow switch from a passing fault, a
    // fouled plate exchanger from an undersized circuit); more would mean checks by eye are missing.
    expect(instrumentOnly.length).toBeLessThanOrEqual(2);
  });
});
