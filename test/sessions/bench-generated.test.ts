import { describe, expect, it } from 'vitest';
import { runCase, summarise } from '../../bench/sessions-eval.js';
import { generateCases, loadFaultTree, runThroughService } from '../../bench/sessions-generated.js';
import { ACTION_MAP, CAUSE_MAP, QUANTITY_MAP } from '../../bench/sessions-mapping.js';
import {
  DEFAULT_TAXONOMY_DIR,
  kindOf,
  loadTaxonomy,
  READING_KINDS,
  taxonomyPresent,
} from '../../bench/sessions-taxonomy.js';
import { loadKnowledge } from '../../src/engine/sessions/index.js';

const present = taxonomyPresent(DEFAULT_TAXONOMY_DIR);
if (!present) console.warn(`skipping the generated sessions: no taxonomy at ${DEFAULT_TAXONOMY_DIR}`);

describe.skipIf(!present)('sessions generated from the public taxonomy', () => {
  const taxonomy = present ? loadTaxonomy() : undefined!;
  const tree = present ? loadFaultTree(DEFAULT_TAXONOMY_DIR) : undefined!;
  const options = { seed: 'test-seed', perCause: 3, instrumentAvailable: 0.5 };

  it('draws the same installations from the same seed, and others from another', () => {
    const a = generateCases(tree, taxonomy, options);
    const b = generateCases(tree, taxonomy, options);
    const c = generateCases(tree, taxonomy, { ...options, seed: 'another-seed' });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c));
  });

  it('covers every concludable cause of the fault tree with cases whose truth is a cause of ours', () => {
    const knowledge = loadKnowledge();
    const ours = new Set(knowledge.causes.map((c) => c.id));
    const cases = generateCases(tree, taxonomy, options);
    const causes = new Set(cases.map((c) => c.truthLabel));
    for (const id of tree.concludable) {
      if (id === 'cause_inconnue') continue;
      expect(causes.has(id), id).toBe(true);
      expect(CAUSE_MAP[id]?.length ?? 0, `no cause of ours for ${id}`).toBeGreaterThan(0);
      for (const mine of CAUSE_MAP[id]!) expect(ours.has(mine), mine).toBe(true);
    }
  });

  it("answers every visual check and clears the fault only with the cause's own repair", () => {
    const cases = generateCases(tree, taxonomy, { ...options, instrumentAvailable: 0 });
    for (const c of cases) {
      const cause = tree.causes.find((x) => x.cause_id === c.truthLabel)!;
      const read = c.steps.filter((s) => s.reading).map((s) => s.action);
      // With no instrument, only looks and the installation's gauge are read.
      expect(
        read.every((a) => a.startsWith('OBS-') || a === 'MES-PRESSION'),
        c.id,
      ).toBe(true);
      expect(read).toContain('OBS-PURGEUR');
      const clearing = c.steps.filter((s) => s.resolves).map((s) => s.action);
      expect(
        clearing.every((a) => cause.repair_actions.includes(a)),
        c.id,
      ).toBe(true);
      // A repair the fault tree gives is work the technician can do, even where the action list lacks it.
      const work = cause.repair_actions.filter((a) => !READING_KINDS.has(kindOf(a)) && kindOf(a) !== 'dem');
      if (work.length > 0) expect(clearing, c.id).toEqual(expect.arrayContaining(work));
    }
  });

  it('shows the strong effects of a cause in most of its installations', () => {
    const cases = generateCases(tree, taxonomy, { ...options, perCause: 20, instrumentAvailable: 1 });
    const air = cases.filter((c) => c.truthLabel === 'air_circuit');
    const lowFlow = air.filter((c) =>
      c.steps.some((s) => s.reading?.quantity === 'debit_l_min' && (s.reading.value ?? 99) < 16),
    );
    // "fort" is a ratio of 10: shown in 10 of 11 installations.
    expect(lowFlow.length).toBeGreaterThanOrEqual(14);
    const others = cases.filter((c) => c.truthLabel === 'carte_hs');
    expect(others.every((c) => c.steps.some((s) => s.reading?.modality === 'sec'))).toBe(true);
  });

  it('every look the fault tree names as an effect is a check of ours the simulated technician can answer', () => {
    const knowledge = loadKnowledge();
    const looks = new Set(
      tree.causes.flatMap((c) =>
        c.effects
          .map((e) => tree.readBy[e.quantity])
          .filter((a): a is string => a?.startsWith('OBS-') === true),
      ),
    );
    for (const look of looks) {
      const mine = Object.entries(ACTION_MAP)
        .filter(([, ids]) => ids.includes(look))
        .map(([id]) => knowledge.actions.find((a) => a.id === id))
        .filter((a) => a?.quantity !== undefined && QUANTITY_MAP[a.quantity] !== undefined);
      expect(mine.length, look).toBeGreaterThan(0);
      expect(
        mine.some((a) => !a!.instrument),
        `${look} needs no instrument`,
      ).toBe(true);
    }
  });

  it('carries every effect the fault tree gives on a quantity we read, on a cause of ours it maps to', () => {
    const knowledge = loadKnowledge();
    let checked = 0;
    for (const cause of tree.causes.filter((c) => tree.concludable.includes(c.cause_id))) {
      const mine = (CAUSE_MAP[cause.cause_id] ?? []).map((id) => knowledge.causes.find((c) => c.id === id)!);
      for (const e of cause.effects) {
        // Our quantities that read theirs outcome by outcome (derived readings, such as the display or
        // the refrigerant pressures, have no one-to-one outcome to compare).
        for (const [q, source] of Object.entries(QUANTITY_MAP)) {
          if (source.theirs[0] !== e.quantity || !source.modalities) continue;
          const outcome = source.modalities[e.direction ?? e.value ?? ''];
          if (!outcome) continue;
          checked++;
          expect(
            mine.some((c) => c.effects[q]?.[outcome] !== undefined),
            `${cause.cause_id}: ${e.quantity} ${e.direction ?? e.value} -> ${q} ${outcome}`,
          ).toBe(true);
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('scores the generated sessions without a wrong part', () => {
    const knowledge = loadKnowledge();
    const rows = generateCases(tree, taxonomy, options).map((c) => runCase(knowledge, taxonomy, c));
    const s = summarise(rows);
    expect(s.cases).toBe(rows.length);
    expect(s.wrong_part_rate).toBe(0);
  }, 120_000);

  it('scores the same through the service layer as through the engine', async () => {
    const knowledge = loadKnowledge();
    const cases = generateCases(tree, taxonomy, { ...options, perCause: 1 });
    const engine = cases.map((c) => runCase(knowledge, taxonomy, c));
    const { rows, refused } = await runThroughService(knowledge, taxonomy, cases);
    expect(refused).toEqual([]);
    expect(rows).toEqual(engine);
    expect(summarise(rows)).toEqual(summarise(engine));
  }, 60_000);
});
