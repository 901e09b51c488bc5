import { describe, expect, it } from 'vitest';
import { cellItems, joinLines, safetyNote } from '../../pipeline/facts/cell-text.js';
import { codeFamily, isEmptyMark, splitLeadingCode } from '../../pipeline/facts/code-pattern.js';
import { headerRole, mentionsFaults } from '../../pipeline/facts/header-words.js';
import { partOf } from '../../pipeline/facts/parts.js';

describe('code shapes', () => {
  it('recognises the printed forms of codes', () => {
    for (const code of ['E9', 'A01', 'P 12', 'Er 07', 'HP3', 'PP1', 'A5-00', 'E-101', 'E 128', 'F12A']) {
      expect(codeFamily(code), code).toBe('alnum');
    }
    expect(codeFamily('9001')).toBe('number');
    expect(codeFamily('UA')).toBe('letters');
    expect(codeFamily('HD/ND-FEHLER')).toBe('word');
    expect(codeFamily('ERR ND-DRUCK')).toBe('word');
  });

  it('reads two-letter display codes in mixed case, not common words or marks', () => {
    for (const code of ['dF', 'Lo', 'oP', 'nA', 'bF']) expect(codeFamily(code), code).toBe('display');
    for (const text of ['On', 'No', 'Ok', 'de', 'Hello']) expect(codeFamily(text), text).not.toBe('display');
    for (const mark of ['n/a', 'N/A', 'na', 'NA', '—', '-']) expect(isEmptyMark(mark), mark).toBe(true);
    expect(isEmptyMark('nA')).toBe(false);
  });

  it('refuses refrigerants, ratings, sizes and prose', () => {
    for (const text of ['R32', 'R410A', 'IP44', 'DN25', 'PT1000', 'Check the pump', 'e.g.', '']) {
      expect(codeFamily(text), text).toBeUndefined();
    }
  });

  it('splits a list line into its code and description', () => {
    expect(splitLeadingCode('E01: Sensor fault')).toMatchObject({ code: 'E01', rest: 'Sensor fault' });
    expect(splitLeadingCode('P 12 – Low pressure')).toMatchObject({ code: 'P 12', rest: 'Low pressure' });
    expect(splitLeadingCode('E1 and E2 are shown')).toMatchObject({ code: 'E1' });
    expect(splitLeadingCode('1.5 bar')).toBeUndefined();
    expect(splitLeadingCode('E01 12')).toBeUndefined();
  });
});

describe('column headers', () => {
  it('names code, description, cause and remedy columns in several languages', () => {
    expect(headerRole('Error code')).toBe('code');
    expect(headerRole('Fehleranzeige')).toBe('code');
    expect(headerRole("Code d'erreur")).toBe('code');
    expect(headerRole('Código mostrado en la unidad interna')).toBe('code');
    expect(headerRole('Foutcode')).toBe('code');
    expect(headerRole('Error Description')).toBe('title');
    expect(headerRole('Foutbeschrijving')).toBe('title');
    expect(headerRole('Failure Causes')).toBe('cause');
    expect(headerRole('Ursache')).toBe('cause');
    expect(headerRole('Behebung')).toBe('step');
    expect(headerRole('Solución')).toBe('step');
    expect(headerRole('Check items (locations)')).toBe('step');
  });

  it('marks columns that hold other things than codes', () => {
    for (const h of [
      'Parameter',
      'Modbus register',
      'Model',
      'Port',
      'No.',
      'Sub-code',
      'Página de referencia',
    ]) {
      expect(headerRole(h), h).toBe('not-code');
    }
  });

  it('tells fault vocabulary from other text', () => {
    expect(mentionsFaults('Outdoor fan motor lock abnormality')).toBe(true);
    expect(mentionsFaults('Störung des Durchflussschalters')).toBe(true);
    expect(mentionsFaults('Falla del sensor de temperatura')).toBe(true);
    expect(mentionsFaults('Water inlet temperature')).toBe(false);
  });
});

describe('cell text', () => {
  it('joins wrapped lines, dropping soft hyphens only', () => {
    expect(joinLines(['Der Frostschutzfühler ist defekt. Pro-', 'blem beim Abtauen.'])).toBe(
      'Der Frostschutzfühler ist defekt. Problem beim Abtauen.',
    );
    expect(joinLines(['Indoor inter-', 'MCU trouble'])).toBe('Indoor inter- MCU trouble');
  });

  it('splits a cell into numbered, bulleted or sentence items, keeping values', () => {
    expect(cellItems(['1. Check the charge (2.5 bar).', '2. Replace the', 'switch.'])).toEqual([
      'Check the charge (2.5 bar).',
      'Replace the switch.',
    ]);
    expect(cellItems(['1. Measure 10 kOhm at 25 °C. 2. Replace the sensor.'])).toEqual([
      'Measure 10 kOhm at 25 °C.',
      'Replace the sensor.',
    ]);
    expect(cellItems(['• Check the pump.', '• Check the strainer.'])).toEqual([
      'Check the pump.',
      'Check the strainer.',
    ]);
    expect(cellItems(['Check the fuse.', 'Replace the board if it', 'is damaged.'])).toEqual([
      'Check the fuse.',
      'Replace the board if it is damaged.',
    ]);
  });

  it('finds the safety note of a step', () => {
    expect(safetyNote('Switch off the power supply before opening the unit. Check the fan.')).toBe(
      'Switch off the power supply before opening the unit.',
    );
    expect(
      safetyNote('Netz der Wärmepumpe ausschalten und Schiebeschalter korrekt einstellen.'),
    ).not.toBeNull();
    expect(safetyNote('PRECAUCIÓN: Asegúrese de apagar el interruptor de encendido.')).not.toBeNull();
    expect(safetyNote('Check the strainer.')).toBeNull();
  });

  it('names the part a description is about', () => {
    expect(partOf('Water inlet temp. sensor failure')).toEqual({
      name: 'Water inlet temp. sensor',
      reference: null,
    });
    expect(partOf('TD1 sensor trouble')).toEqual({ name: 'TD1 sensor', reference: 'TD1' });
    expect(partOf('Falla del sensor de temperatura ambiente.')?.name).toBe('sensor de temperatura ambiente');
    expect(partOf('Limited time protection')).toBeNull();
  });
});
