import { describe, expect, it } from 'vitest';
import { readStatements } from '../../src/engine/sessions/statements.js';
import { base, createSession, drive, real } from './scripted.js';

const window = real.settings.description.stated_window;
const quantities = new Set(real.quantities.map((q) => q.id));
const displayOf = (text: string) =>
  readStatements(real.statements, text, window, quantities).find((r) => r.quantity === 'fault_display')
    ?.outcome;
const leaderOf = (symptom: string) =>
  Object.entries(createSession(real, { ...base, symptom }).posterior).sort((a, b) => b[1] - a[1])[0]![0];

describe('a display that shows nothing, read from the description', () => {
  it.each([
    ['la PAC ne démarre plus, écran éteint', 'none'],
    ['display blank, unit dead', 'none'],
    ["pas de code d'erreur à l'écran", 'none'],
    ['the display shows E9 after a few minutes', 'fault_shown'],
    ["l'afficheur clignote", 'fault_shown'],
  ])('"%s" states what the display shows (%s)', (text, outcome) => {
    expect(displayOf(text)).toBe(outcome);
  });

  it.each(['radiateurs froids', 'the pressure drops every day'])(
    '"%s" states nothing of the display',
    (text) => {
      expect(displayOf(text)).toBeUndefined();
    },
  );

  it.each([
    'la PAC ne démarre plus, écran éteint',
    'display blank, unit dead',
    'écran noir sur la télécommande',
  ])('"%s" puts the supply first', (text) => {
    expect(leaderOf(text)).toBe('power_supply_fault');
  });

  it('is not asked to read the display it has just described', () => {
    const { asked } = drive(
      createSession(real, { ...base, symptom: 'la PAC ne démarre plus, écran éteint' }),
      {},
    );
    expect(asked).not.toContain('read_fault_display');
    // A description that says nothing of the display still has it read.
    expect(drive(createSession(real, { ...base, symptom: 'la PAC ne démarre plus' }), {}).asked).toContain(
      'read_fault_display',
    );
  });
});
