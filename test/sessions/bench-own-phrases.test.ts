import { describe, expect, it } from 'vitest';
import type { BenchCase } from '../../bench/sessions-cases.js';
import { ownPhrasesRemoved } from '../../bench/sessions-own-phrases.js';
import { loadKnowledge } from '../../src/engine/sessions/index.js';

// The bench's pessimistic bound: a case runs without the knowledge's phrases that its own description
// holds and no other installation's does; a phrase two installations share stays.
const k = loadKnowledge();

function benchCase(id: string, format: BenchCase['format'], symptom: string): BenchCase {
  return {
    key: `${format}:${id}`,
    id,
    format,
    family: 'pac_air_eau',
    outOfFamily: false,
    init: { equipment: 'air_water', brand: 'Acme', model: 'HP-1', symptom },
    narrative: symptom,
    ageYears: null,
    truthLabel: 'x',
    trueCauses: [],
    expectEscalation: false,
    expertPath: [],
    steps: [],
    initialReadings: {},
    am: null,
  };
}

const airNoise = (kn: typeof k) => kn.symptoms.find((s) => s.id === 'air_noise')!.all[0]!.fr;

describe("the knowledge without a case's own phrases", () => {
  it("removes a phrase only that installation's description holds, and keeps one two installations share", () => {
    const cases = [
      benchCase('a', 'v2', "Bruit d'air dans le circuit depuis la vidange"),
      benchCase('a', 'v3', "Bruit d'air dans le circuit depuis la vidange"), // the same installation
      benchCase('b', 'v2', 'Circulateur bloqué, vidange faite hier'),
    ];
    const forCase = ownPhrasesRemoved(k, cases);
    expect(airNoise(k)).toContain('bruit d air');
    expect(airNoise(forCase(cases[0]!))).not.toContain('bruit d air');
    expect(airNoise(forCase(cases[1]!))).not.toContain('bruit d air');
    expect(airNoise(forCase(cases[2]!))).toContain('bruit d air');
    // "vidange*" (circuit drained) is in both installations' words: it stays for each.
    const drained = (kn: typeof k) => kn.symptoms.find((s) => s.id === 'after_draining')!.all[0]!.fr;
    expect(drained(forCase(cases[0]!))).toContain('vidange*');
    expect(drained(forCase(cases[2]!))).toContain('vidange*');
    // The knowledge itself is left as it was.
    expect(airNoise(k)).toContain('bruit d air');
  });
});
