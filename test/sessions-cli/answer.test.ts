import { describe, expect, it } from 'vitest';
import { parseNumber, parseTyped, valueFor } from '../../src/cli/session-answer.js';
import { commandLineAnswer, looseValue, readingsOf } from '../../src/cli/session-command.js';
import type { ExpectedResponse, NextAction } from '../../src/contract/sessions.js';

const number: ExpectedResponse = { type: 'number', unit: 'bar', nominal_range: [1.2, 2.5] };
const choice: ExpectedResponse = {
  type: 'choice',
  choices: [
    { id: 'normal', label: 'Normal hum' },
    { id: 'silent', label: 'Silent (not running)' },
    { id: 'gurgling', label: 'Gurgling or air noise' },
  ],
};

describe('typed answers at the prompt', () => {
  it('reads yes/no words in several languages, and refuses anything else for a boolean', () => {
    for (const t of ['y', 'Yes', 'oui', 'TRUE'])
      expect(valueFor(t, { type: 'boolean' })).toEqual({ value: true });
    for (const t of ['n', 'non', 'false']) expect(valueFor(t, { type: 'boolean' })).toEqual({ value: false });
    expect(valueFor('maybe', { type: 'boolean' })).toHaveProperty('error');
  });

  it('reads numbers with a decimal comma, a sign or a unit after them', () => {
    expect(parseNumber('1,5')).toBe(1.5);
    expect(parseNumber('-7.5 °C')).toBe(-7.5);
    expect(parseNumber('0.8bar')).toBe(0.8);
    expect(parseNumber('abc')).toBeNull();
    expect(parseNumber('1.2.3')).toBeNull();
    expect(valueFor('1.4 bar', number)).toEqual({ value: 1.4 });
    expect(valueFor('low', number)).toEqual({ error: 'answer with a number in bar' });
  });

  it('reads a choice by its number, its id or the start of its label', () => {
    expect(valueFor('2', choice)).toEqual({ value: 'silent' });
    expect(valueFor('gurgling', choice)).toEqual({ value: 'gurgling' });
    expect(valueFor('norm', choice)).toEqual({ value: 'normal' });
    expect(valueFor('4', choice)).toEqual({ error: 'answer with a number from 1 to 3' });
  });

  it('tells commands and "cannot check" from answers', () => {
    expect(parseTyped('?', number)).toEqual({ kind: 'unknown' });
    expect(parseTyped("can't measure", number)).toEqual({ kind: 'unknown' });
    expect(parseTyped('undo', number)).toEqual({ kind: 'undo' });
    expect(parseTyped('quit', number)).toEqual({ kind: 'quit' });
    expect(parseTyped('close', number)).toEqual({ kind: 'close' });
    expect(parseTyped('2', number)).toEqual({ kind: 'answer', value: 2 });
    expect(parseTyped('', number)).toMatchObject({ kind: 'invalid' });
    expect(parseTyped('1', null)).toMatchObject({ kind: 'invalid' });
  });
});

describe('answers given on the command line', () => {
  const pending = { id: 'read_water_pressure', label: 'Read the pressure', expected: number } as NextAction;

  it('types the value as the pending step expects, and sends another step as typed', () => {
    expect(commandLineAnswer('0,6', { unknown: false }, pending)).toEqual({
      action_id: 'read_water_pressure',
      value: 0.6,
    });
    expect(commandLineAnswer('?', { unknown: false }, pending)).toEqual({
      action_id: 'read_water_pressure',
      unknown: true,
    });
    expect(commandLineAnswer(undefined, { unknown: true, action: 'other' }, pending)).toEqual({
      action_id: 'other',
      unknown: true,
    });
    expect(commandLineAnswer('yes', { unknown: false, action: 'other' }, pending)).toEqual({
      action_id: 'other',
      value: true,
    });
    expect(() => commandLineAnswer('high', { unknown: false }, pending)).toThrow(/answer with a number/);
  });

  it('reads readings as quantity=value', () => {
    expect(readingsOf(['water_pressure=0.6', 'fault=gurgling'])).toEqual([
      { quantity: 'water_pressure', value: 0.6 },
      { quantity: 'fault', value: 'gurgling' },
    ]);
    expect(looseValue('no')).toBe(false);
    expect(() => readingsOf(['water_pressure'])).toThrow(/quantity=value/);
  });
});
