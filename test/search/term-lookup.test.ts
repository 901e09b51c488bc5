import { describe, expect, it } from 'vitest';
import {
  decodeChunkTerms,
  encodeChunkTerms,
  INDEX_FIELDS,
  TermLookup,
} from '../../src/search/chunk-index.js';

/** A chunk whose views hold terms that are prefixes, suffixes and repeats of each other. */
function chunk() {
  const views = {
    terms: ['pump', 'pumps', 'heat', 'heat', 'heat', 'e9', 'e90', 'xe9', 'pump'],
    stems: ['en:pump', 'fr:pomp', 'en:pump', 'de:pump', 'en:heat'],
    concepts: ['~pump', '~heat-pump', '~pump'],
    pairs: ['en:heat+pump', 'en:pump+heat', 'en:heat+pump'],
    section: [],
  };
  return decodeChunkTerms(encodeChunkTerms(views));
}

describe('TermLookup', () => {
  it('counts every asked term of a view in one pass as the per-term lookup does', () => {
    const terms = chunk();
    const asked = [
      'pump',
      'pumps',
      'pum',
      'heat',
      'e9',
      'e90',
      'xe9',
      'en:pump',
      'de:pump',
      'fr:pomp',
      'pomp',
      '~pump',
      '~heat-pump',
      '~heat',
      'en:heat+pump',
      'en:pump+heat',
      'heat+pump',
      'missing',
    ];
    INDEX_FIELDS.forEach((_, field) => {
      const lookup = new TermLookup();
      const slots = asked.map((t) => lookup.slot(t));
      const counts = new Float64Array(lookup.terms.length);
      lookup.count(terms.lines[field]!, counts);
      const got = asked.map((_, i) => counts[slots[i]!]);
      expect(got).toEqual(asked.map((t) => terms.frequency(field, t)));
    });
    // The per-term lookup is right on this chunk: repeats are counted, prefixes are not matches.
    expect(terms.frequency(0, 'heat')).toBe(3);
    expect(terms.frequency(0, 'pump')).toBe(2);
    expect(terms.frequency(0, 'pum')).toBe(0);
    expect(terms.frequency(1, 'en:pump')).toBe(2);
  });

  it('gives one slot per distinct term and clears the counts of an earlier line', () => {
    const lookup = new TermLookup();
    expect(lookup.slot('pump')).toBe(lookup.slot('pump'));
    expect(lookup.slot('heat')).not.toBe(lookup.slot('pump'));
    const counts = new Float64Array(lookup.terms.length);
    lookup.count('3 pump*2 heat', counts);
    expect([...counts]).toEqual([2, 1]);
    lookup.count('1 heat', counts);
    expect([...counts]).toEqual([0, 1]);
    lookup.count('0', counts);
    expect([...counts]).toEqual([0, 0]);
  });
});
