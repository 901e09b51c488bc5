import { describe, expect, it } from 'vitest';
import { readStatedNumbers } from '../../src/engine/sessions/stated-numbers.js';
import { base, createSession, nextAction, real } from './scripted.js';

const window = real.settings.description.stated_window;
const numbers = (text: string) =>
  Object.fromEntries(readStatedNumbers(real.statements, text, window).map((n) => [n.quantity, n.reading]));

describe('numbers stated with their unit in a description', () => {
  it.each([
    ["pression d'eau 0,6 bar, défaut E9", { water_pressure: '0.6 bar' }],
    ['gauge reads 0.4 bar', { water_pressure: '0.4 bar' }],
    ['ΔT 2 K, débit 6 l/min', { water_delta_t: '2 K', water_flow: '6 l/min' }],
    ['débit de 0,5 m3/h', { water_flow: '0.5 m3/h' }],
  ])('"%s" states %o', (text, expected) => {
    expect(numbers(text)).toEqual(expected);
  });

  it.each([
    'HP 28 bar, BP 6 bar',
    'haute pression 28 bar',
    'basse pression 5 bar',
    "la pression n'est pas à 1 bar",
    'E9 depuis 3 jours',
    'pression 1 bar le matin, pression 2 bar le soir',
  ])('"%s" states no water circuit reading', (text) => {
    expect(numbers(text)).toEqual({});
  });
});

describe('a session opened on a description with a reading in it', () => {
  it('takes the reading as read: shown, weighed, and its step not asked', () => {
    const s = createSession(real, { ...base, symptom: "pression d'eau 0,6 bar, défaut E9" });
    expect(s.model.stated).toEqual([
      expect.objectContaining({ quantity: 'water_pressure', outcome: 'low', value: 0.6, told: true }),
    ]);
    expect(nextAction(s)?.id).not.toBe('read_water_pressure');
    const leader = Object.entries(s.posterior).sort((a, b) => b[1] - a[1])[0]![0];
    expect(leader).toBe('low_water_pressure');
  });

  it("converts the unit it was written in to the step's", () => {
    const s = createSession(real, { ...base, symptom: 'system pressure 20 psi' });
    expect(s.model.stated?.[0]).toMatchObject({
      quantity: 'water_pressure',
      value: 1.379,
      outcome: 'normal',
    });
  });

  it('leaves out a number whose unit is not of the quantity, or that no one could read', () => {
    expect(createSession(real, { ...base, symptom: 'pression 40 l/min' }).model.stated).toEqual([]);
    expect(createSession(real, { ...base, symptom: 'pression 60 bar' }).model.stated).toEqual([]);
  });
});
