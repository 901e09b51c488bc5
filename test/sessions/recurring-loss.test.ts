import { describe, expect, it } from 'vitest';
import { readStatements } from '../../src/engine/sessions/statements.js';
import { anyPhraseOccurs, tokens } from '../../src/engine/sessions/text-match.js';
import { base, createSession, drive, nextAction, real, respond } from './scripted.js';

const window = real.settings.description.stated_window;
const quantities = new Set(real.quantities.map((q) => q.id));
const trendOf = (text: string) =>
  readStatements(real.statements, text, window, quantities).find((r) => r.quantity === 'pressure_trend')
    ?.outcome;
const pressureSymptom = real.symptoms.find((s) => s.id === 'pressure_mentioned')!;
const mentionsPressure = (text: string) =>
  pressureSymptom.all.every((group) => anyPhraseOccurs(group, tokens(text)));

describe('a water circuit that keeps losing pressure, read from the description', () => {
  it.each([
    ["je dois remettre de l'eau chaque semaine", 'drops_over_days'],
    ["j'ai déjà rempli deux fois le circuit", 'drops_over_days'],
    ['the pressure drops every day', 'drops_over_days'],
    ['we topped up twice this month', 'drops_over_days'],
  ])('"%s" states how the pressure behaves (%s)', (text, outcome) => {
    expect(trendOf(text)).toBe(outcome);
  });

  it.each([
    'depuis la vidange, défaut tous les jours',
    'après remplissage, la pac se met souvent en défaut',
    'la pression HP chute tous les jours',
    'pas de fuite visible',
  ])('"%s" states no trend of the water pressure', (text) => {
    expect(trendOf(text)).toBeUndefined();
  });

  it('reads a refrigerant pressure as no complaint about the water pressure', () => {
    expect(mentionsPressure('la pression du circuit baisse')).toBe(true);
    expect(mentionsPressure('la pression HP chute au démarrage')).toBe(false);
    expect(mentionsPressure('pression BP basse en chauffage')).toBe(false);
  });
});

describe('a low pressure that comes back', () => {
  const lowGauge = { readings: [{ quantity: 'water_pressure', value: 0.5 }] };

  it('concludes on a leak, with the leak repair, when the pressure drops over days and water is seen', () => {
    const s = createSession(real, { ...base, ...lowGauge, symptom: 'défaut débit' });
    const { s: end, asked } = drive(s, {
      ask_pressure_history: 'drops_over_days',
      top_up_water_pressure: true,
      inspect_water_leaks: 'present',
    });
    expect(asked).toContain('ask_pressure_history');
    expect(end.outcome?.cause_id).toBe('water_circuit_leak');
    expect(end.outcome?.action_id).toBe('repair_water_leak');
  });

  it('does not ask how the pressure behaves when the caller said it, and goes on to the leak', () => {
    const symptom = "je dois remettre de l'eau chaque semaine";
    const s = createSession(real, { ...base, ...lowGauge, symptom });
    const { s: end, asked } = drive(s, { top_up_water_pressure: true, inspect_water_leaks: 'present' });
    expect(asked).not.toContain('ask_pressure_history');
    expect(end.outcome?.cause_id).toBe('water_circuit_leak');
  });

  it('concludes on the low pressure itself when the pressure held before this loss', () => {
    const s = createSession(real, { ...base, ...lowGauge, symptom: 'défaut débit' });
    const { s: end } = drive(s, { ask_pressure_history: 'stable', top_up_water_pressure: true });
    expect(end.outcome?.cause_id).toBe('low_water_pressure');
    expect(end.outcome?.action_id).toBe('top_up_water_pressure');
  });

  it('once a repair cleared the fault, asks no other repair, nor a reading the repair put right', () => {
    const symptom = "la pression baisse tous les jours, je dois remettre de l'eau chaque semaine";
    let s = createSession(real, { ...base, ...lowGauge, symptom });
    const answers: Record<string, unknown> = {
      ask_pressure_history: 'drops_over_days',
      top_up_water_pressure: true,
    };
    const afterFix: string[] = [];
    while (s.status === 'active') {
      const a = nextAction(s)!;
      if (s.history.some((h) => h.action_id === 'top_up_water_pressure')) afterFix.push(a.id);
      s = respond(s, {
        action_id: a.id,
        value: (a.id in answers ? answers[a.id] : { unknown: true }) as never,
      });
    }
    expect(s.history.map((h) => h.action_id)).toContain('top_up_water_pressure');
    expect(afterFix.length).toBeGreaterThan(0);
    const steps = afterFix.map((id) => s.model.actions.find((a) => a.id === id)!);
    expect(steps.filter((a) => a.kind === 'repair').map((a) => a.id)).toEqual([]);
    const repaired = new Set(['water_pressure', 'water_flow', 'water_delta_t', 'circulator_noise']);
    expect(steps.filter((a) => a.quantity && repaired.has(a.quantity)).map((a) => a.id)).toEqual([]);
  });
});
