import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { promptWords } from '../../src/cli/prompt-words.js';
import { parseTyped, valueFor } from '../../src/cli/session-answer.js';
import { looseValue } from '../../src/cli/session-command.js';
import { projectPath } from '../../src/project-path.js';

// The prompt's words are read from data/cli/prompt-words.json; a broken file names itself and the entry.
const shipped = JSON.parse(
  fs.readFileSync(projectPath('data', 'cli', 'prompt-words.json'), 'utf8'),
) as Record<string, string[]>;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prompt-words-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function fileWith(raw: unknown): string {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(raw));
  return file;
}

describe('the troubleshooting prompt reads its words from data/cli/prompt-words.json', () => {
  it('understands every word of the file, in the role the file gives it', () => {
    for (const w of shipped.yes!) expect(valueFor(w, { type: 'boolean' })).toEqual({ value: true });
    for (const w of shipped.no!) expect(valueFor(w, { type: 'boolean' })).toEqual({ value: false });
    for (const w of shipped.unknown!) expect(parseTyped(w, null)).toEqual({ kind: 'unknown' });
    for (const w of shipped.undo!) expect(parseTyped(w, null)).toEqual({ kind: 'undo' });
    // Accents and capitals typed are folded before the look-up.
    expect(valueFor('Sí', { type: 'boolean' })).toEqual({ value: true });
  });

  it('reads a value typed without its step as a number first, then yes/no words', () => {
    expect(looseValue('1')).toBe(1);
    expect(looseValue('0')).toBe(0);
    expect(looseValue('Oui')).toBe(true);
    expect(looseValue('nein')).toBe(false);
    expect(looseValue('gurgling')).toBe('gurgling');
  });

  it('refuses an entry with a capital or an accent, naming the file and the field', () => {
    const file = fileWith({ ...shipped, yes: ['Yes', ...shipped.yes!] });
    expect(() => promptWords(file)).toThrow(new RegExp(`${path.basename(file)}: yes\\.0: .*accent-folded`));
  });

  it('refuses a word that means two things', () => {
    const file = fileWith({ ...shipped, no: [...shipped.no!, 'y'] });
    expect(() => promptWords(file)).toThrow(/"y" is in both yes and no/);
  });

  it('refuses a file without one of the lists', () => {
    const { help: _help, ...rest } = shipped;
    expect(() => promptWords(fileWith(rest))).toThrow(/help/);
  });
});
