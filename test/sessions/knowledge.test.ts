import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultKnowledgeDir,
  KnowledgeError,
  loadKnowledge,
  validateKnowledge,
} from '../../src/engine/sessions/index.js';
import { RAW_FIXTURE } from './fixture.js';

describe('the project knowledge', () => {
  const k = loadKnowledge();

  it('covers both kinds of equipment with causes, quantities and actions', () => {
    for (const kind of ['air_water', 'air_air'] as const) {
      const causes = k.causes.filter((c) => c.prior[kind] !== undefined);
      const quantities = k.quantities.filter((q) => q.equipment.includes(kind));
      const actions = k.actions.filter((a) => a.equipment.includes(kind));
      expect(causes.length).toBeGreaterThanOrEqual(15);
      expect(quantities.length).toBeGreaterThanOrEqual(20);
      expect(actions.length).toBeGreaterThanOrEqual(30);
      for (const kindOf of ['observe', 'measure', 'check', 'repair', 'escalate']) {
        expect(actions.some((a) => a.kind === kindOf)).toBe(true);
      }
    }
  });

  it('labels every cause in English and French and gives keywords in five languages', () => {
    for (const c of k.causes) {
      expect(c.label.en.length).toBeGreaterThan(3);
      expect(c.label.fr.length).toBeGreaterThan(3);
      for (const lang of ['en', 'fr', 'de', 'es', 'nl'] as const)
        expect(c.keywords[lang].length).toBeGreaterThan(0);
    }
  });

  it('gives every cause at least one observation, measure or check that bears on it', () => {
    for (const c of k.causes) {
      if (c.id === 'transient_fault') continue;
      const quantities = Object.keys(c.effects);
      for (const kind of Object.keys(c.prior) as ('air_water' | 'air_air')[]) {
        const checks = k.actions.filter(
          (a) =>
            a.quantity &&
            quantities.includes(a.quantity) &&
            a.equipment.includes(kind) &&
            a.kind !== 'repair',
        );
        expect(checks.length, `${c.id} on ${kind}`).toBeGreaterThan(0);
      }
    }
  });

  it('sets nominal ranges by context', () => {
    const dt = k.quantities.find((q) => q.id === 'water_delta_t');
    expect(dt?.type).toBe('number');
    if (dt?.type === 'number') {
      const underfloor = dt.nominal.find((r) => r.when?.emitter?.includes('underfloor'));
      const radiators = dt.nominal.find((r) => r.when?.emitter?.includes('radiators_high_temp'));
      expect(underfloor?.range).not.toEqual(radiators?.range);
    }
  });
});

describe('knowledge validation', () => {
  it('rejects references that do not resolve, with readable reasons', () => {
    const raw = structuredClone(RAW_FIXTURE);
    raw.causes.causes[0]!.effects.nowhere = { low: 'strong' };
    raw.causes.causes[1]!.remedy = 'missing_action';
    (raw.actions.actions[5] as { fixes?: unknown }).fixes = undefined;
    const words = { en: ['x'], fr: ['x'], de: ['x'], es: ['x'], nl: ['x'] };
    const statements = [
      { quantity: 'look', subject: words, outcomes: { muddy: words } },
      { quantity: 'nowhere', subject: words, outcomes: { low: words } },
    ];
    try {
      validateKnowledge({ ...raw, statements: { statements } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(KnowledgeError);
      const problems = (error as KnowledgeError).problems.join('\n');
      expect(problems).toMatch(/leak: effect on unknown quantity nowhere/);
      expect(problems).toMatch(/clog: unknown remedy missing_action/);
      expect(problems).toMatch(/fix_leak: a repair must list the causes it fixes/);
      expect(problems).toMatch(/statement on look: no outcome muddy/);
      expect(problems).toMatch(/statement: unknown quantity nowhere/);
    }
  });

  it('rejects effects that add up to more than the whole and fields of the wrong type', () => {
    const raw = structuredClone(RAW_FIXTURE);
    raw.causes.causes[1]!.effects = { look: { dirty: 'decisive', clean: 'strong' } };
    expect(() => validateKnowledge(raw)).toThrow(/more than the whole/);
    const bad = structuredClone(RAW_FIXTURE);
    (bad.settings as Record<string, unknown>).budget_turns = 'many';
    expect(() => validateKnowledge(bad)).toThrow(KnowledgeError);
  });

  it('reads a folder of YAML files and reports a file it cannot parse', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'knowledge-'));
    for (const name of ['settings', 'quantities', 'actions', 'causes', 'symptoms', 'statements']) {
      writeFileSync(
        path.join(dir, `${name}.yaml`),
        readFileSync(path.join(defaultKnowledgeDir(), `${name}.yaml`)),
      );
    }
    expect(loadKnowledge(dir).causes.length).toBeGreaterThan(0);
    writeFileSync(path.join(dir, 'symptoms.yaml'), 'symptoms: [\n');
    expect(() => loadKnowledge(dir)).toThrow(/symptoms.yaml: not valid YAML/);
  });
});
