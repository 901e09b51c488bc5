import { describe, expect, it } from 'vitest';
import { ownReading } from '../../pipeline/facts/error-codes.js';
import { cellsStand, cellsText, joinLines, parseCells } from '../../src/text/excerpt-cells.js';
import { sameReading } from '../../src/text/readings.js';

describe('sameReading', () => {
  it('is the same reading once articles and function words are set aside', () => {
    expect(sameReading('Protección IPM.', 'Protección del IPM.', 'es')).toBe(true);
    expect(sameReading('Water flow error', 'The water flow error.', 'en')).toBe(true);
  });
  it('is the same reading when the words of one all stand in the other', () => {
    expect(
      sameReading(
        'Der Hochdruckwächter hat geschaltet',
        'Der Hochdruckwächter hat geschaltet; Schaltpunkt 30 bar',
        'de',
      ),
    ).toBe(true);
  });
  it('tells readings with other words or other figures apart', () => {
    expect(sameReading('Outdoor temperature sensor fault', 'Water temperature sensor fault', 'en')).toBe(
      false,
    );
    expect(sameReading('Pressure switch open, + 2 bar', 'Pressure switch open, + 3 bar', 'en')).toBe(false);
  });
});

describe('table-row excerpts', () => {
  const page = 'Code Description Remedy\nE9 Water flow Check the\nerror: switch open pump.\n';
  const cells = [
    { label: 'Code', lines: ['E9'], text: 'E9' },
    {
      label: 'Description',
      lines: ['Water flow', 'error: switch open'],
      text: 'Water flow error: switch open',
    },
    { label: 'Remedy', lines: ['Check the', 'pump.'], text: 'Check the pump.' },
  ];
  it('reads one cell a line, labelled with its header, each cell in reading order', () => {
    expect(cellsText(cells)).toBe(
      'Code: E9\nDescription: Water flow error: switch open\nRemedy: Check the pump.',
    );
  });
  it('stands when every line of every cell is on the page and the excerpt is the cells’ text', () => {
    expect(cellsStand(cellsText(cells), cells, [page])).toBe(true);
  });
  it('fails a cell line that is not on the page, a text that is not its lines, or an edited excerpt', () => {
    const foreign = cells.map((c, i) => (i === 2 ? { ...c, lines: ['Replace the', 'pump.'] } : c));
    expect(cellsStand(cellsText(foreign), foreign, [page])).toBe(false);
    const rewritten = cells.map((c, i) => (i === 1 ? { ...c, text: 'Flow fault' } : c));
    expect(cellsStand(cellsText(rewritten), rewritten, [page])).toBe(false);
    expect(cellsStand(`${cellsText(cells)} Replace the board.`, cells, [page])).toBe(false);
  });
  it('parses stored cells and refuses malformed ones', () => {
    expect(parseCells(JSON.stringify(cells))).toEqual(cells);
    expect(parseCells('[{"label":1,"lines":[],"text":""}]')).toBeNull();
    expect(parseCells('not json')).toBeNull();
    expect(parseCells(null)).toBeNull();
  });
});

describe('joinLines', () => {
  it('drops a soft hyphen, keeps a hyphen the manual prints unbroken and one before a conjunction', () => {
    expect(joinLines(['Pro-', 'blem'])).toBe('Problem');
    expect(joinLines(['general-', 'purpose device'], (w) => w === 'general-purpose')).toBe(
      'general-purpose device',
    );
    expect(joinLines(['inlaat-', 'en uitlaatwater'])).toBe('inlaat- en uitlaatwater');
  });
});

describe('ownReading', () => {
  const codes = new Set(['E04', 'E06']);
  it('takes the part of a description that ends with the row’s own code', () => {
    const merged = 'Indoor-outdoor communication circuit trouble (E04) Dropping out of indoor unit (E06)';
    expect(ownReading(merged, 'E06', codes)).toBe('Dropping out of indoor unit');
    expect(ownReading(merged, 'E04', codes)).toBe('Indoor-outdoor communication circuit trouble');
  });
  it('leaves brackets that hold no code of the table as text', () => {
    expect(ownReading('Outdoor sensor (TO) trouble', 'E06', codes)).toBe('Outdoor sensor (TO) trouble');
  });
  it('leaves out text that names another code', () => {
    expect(ownReading('Same fault as (E04) Dropping out', 'E06', codes)).toBe('Dropping out');
  });
});
