import { describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/engine/sessions/errors.js';
import { splitReading, toStepUnit } from '../../src/engine/sessions/units.js';

describe('readings with a unit, converted to the unit the step asks for', () => {
  it('converts pressures from psi, kPa, MPa and mbar to bar', () => {
    expect(toStepUnit('20 psi', 'bar')).toEqual({ value: 1.379, given: '20 psi' });
    expect(toStepUnit('150 kPa', 'bar').value).toBeCloseTo(1.5, 4);
    expect(toStepUnit('0,15 MPa', 'bar').value).toBeCloseTo(1.5, 4);
    expect(toStepUnit('1500mbar', 'bar').value).toBeCloseTo(1.5, 4);
    // The step's own unit, or none, stands as it is and records nothing as given.
    expect(toStepUnit('1.4 bar', 'bar')).toEqual({ value: 1.4, given: null });
    expect(toStepUnit('1.4', 'bar')).toEqual({ value: 1.4, given: null });
    expect(toStepUnit(1.4, 'bar')).toEqual({ value: 1.4, given: null });
  });

  it('converts a temperature with its offset, and a temperature difference without', () => {
    expect(toStepUnit('95 °F', '°C').value).toBeCloseTo(35, 3);
    expect(toStepUnit('308.15 K', '°C').value).toBeCloseTo(35, 3);
    // A ΔT of 9 °F is 5 K, not -12.8.
    expect(toStepUnit('9 °F', 'K').value).toBeCloseTo(5, 3);
    expect(toStepUnit('5 °C', 'K').value).toBe(5);
  });

  it('converts flows, currents and resistances', () => {
    expect(toStepUnit('1.2 m³/h', 'l/min').value).toBeCloseTo(20, 3);
    expect(toStepUnit('1.2 m3/h', 'l/min').value).toBeCloseTo(20, 3);
    expect(toStepUnit('720 l/h', 'l/min').value).toBeCloseTo(12, 3);
    expect(toStepUnit('5 gpm', 'l/min').value).toBeCloseTo(18.927, 2);
    expect(toStepUnit('350 mA', 'A').value).toBeCloseTo(0.35, 4);
    expect(toStepUnit('500 kΩ', 'MOhm').value).toBeCloseTo(0.5, 4);
  });

  it('refuses an unknown unit, or one of another kind, naming it', () => {
    expect(() => toStepUnit('3 furlongs', 'bar')).toThrow(InvalidResponseError);
    expect(() => toStepUnit('3 furlongs', 'bar')).toThrow(/unknown unit "furlongs"/);
    expect(() => toStepUnit('12 l/min', 'bar')).toThrow(/unknown unit "l\/min" for a reading in bar/);
    expect(() => toStepUnit('low', 'bar')).toThrow(/not a number/);
  });

  it('splits a reading into its number and its unit', () => {
    expect(splitReading('-7,5 °C')).toEqual({ number: -7.5, unit: '°C' });
    expect(splitReading('0.8bar')).toEqual({ number: 0.8, unit: 'bar' });
    expect(splitReading('bar')).toBeNull();
  });
});
