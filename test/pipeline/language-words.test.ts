import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// The language detector's words are read from data/detect/language-words.json: a broken file must name
// itself and the field.
afterEach(() => {
  vi.doUnmock('../../src/project-path.js');
  vi.resetModules();
});

describe('language words from data/detect/language-words.json', () => {
  it('tells a page of French from a page of German', async () => {
    vi.resetModules();
    const { detectLanguage } = await import('../../pipeline/detect/language.js');
    const fr =
      'Vérifier que le débit est correct et que la pompe est alimentée pour les essais avec une sonde.';
    const de =
      'Prüfen Sie, ob der Durchfluss stimmt und die Pumpe mit Strom versorgt ist, nicht nur für den Test.';
    expect(detectLanguage(fr)).toBe('fr');
    expect(detectLanguage(de)).toBe('de');
  });

  it('refuses a word that is not folded, naming the file and the field', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'language-words-'));
    fs.mkdirSync(path.join(dir, 'data', 'detect'), { recursive: true });
    const file = path.join(dir, 'data', 'detect', 'language-words.json');
    fs.writeFileSync(file, JSON.stringify({ words: { en: ['the'], fr: ['le', 'être'] } }));
    vi.resetModules();
    vi.doMock('../../src/project-path.js', () => ({
      projectPath: (...parts: string[]) => path.join(dir, ...parts),
    }));
    const { detectLanguage } = await import('../../pipeline/detect/language.js');
    try {
      expect(() => detectLanguage('the the the')).toThrow(`${file}: words.fr.1: one accent-folded word`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
