import { describe, expect, it } from 'vitest';
import { zooManual } from '../../pipeline/demo/zoo.js';

/**
 * The layouts added to the zoo later, drawn without ingesting them (test/quality/zoo.test.ts measures the
 * layouts BENCHMARKS.md records): each key cites the pages its code landed on, as generated.
 */
describe('the layouts added to the layout zoo', () => {
  it('prints a manual in two languages one after the other, each half keyed in its own language', async () => {
    const m = await zooManual('bilingual', 'fr', 3);
    const first = m.key.filter((k) => k.expected_state === 'answer' && !k.language);
    const second = m.key.filter((k) => k.language === 'en');
    expect(first.length).toBeGreaterThanOrEqual(7);
    expect(second.map((k) => k.code)).toEqual(first.map((k) => k.code));
    const lastFirst = Math.max(...first.flatMap((k) => k.pages));
    for (const k of second) expect(Math.min(...k.pages)).toBeGreaterThan(lastFirst);
    // The same fault in both languages: the readings differ, the codes do not.
    expect(second[0]!.meaning).not.toBe(first[0]!.meaning);
  });

  it('lists both cases of a display code, and asks a code with no twin in capitals', async () => {
    const m = await zooManual('mixed_case', 'de', 1);
    const asked = m.key.filter((k) => k.expected_state === 'answer');
    const codes = asked.filter((k) => !k.id.includes('~')).map((k) => k.code);
    const otherCase = asked.filter((k) => k.id.includes('~'));
    expect(otherCase).toHaveLength(1);
    expect(codes).not.toContain(otherCase[0]!.code);
    expect(codes.map((c) => c.toUpperCase())).toContain(otherCase[0]!.code);
    const twins = codes.filter((c) => c !== c.toUpperCase() && codes.includes(c.toUpperCase()));
    expect(twins.length).toBeGreaterThan(0);
  });

  it('keys a summary table and its section per code on both pages, and never a contents or index page', async () => {
    const summary = await zooManual('summary', 'en', 2);
    const codes = summary.key.filter((k) => k.expected_state === 'answer');
    for (const k of codes) expect(k.pages.length, k.code).toBe(2);
    const nav = await zooManual('navigation', 'nl', 2);
    // The contents page is page 2; the index is the last page and lists no definition.
    for (const k of nav.key.filter((x) => x.expected_state === 'answer')) expect(k.pages).not.toContain(2);
  });

  it('draws the same manual from the same seed', async () => {
    for (const layout of ['continued', 'three_column', 'subrows'] as const) {
      const a = await zooManual(layout, 'es', 4);
      const b = await zooManual(layout, 'es', 4);
      expect(a.pdf.equals(b.pdf), layout).toBe(true);
      expect(a.key).toEqual(b.key);
    }
  });
});
