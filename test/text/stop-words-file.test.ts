import fs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { projectPath } from '../../src/project-path.js';

// The stop words are read from data/text/stop-words.json; a broken file must name itself and the field.
const FILE = projectPath('data', 'text', 'stop-words.json');
const shipped = JSON.parse(fs.readFileSync(FILE, 'utf8')) as {
  words: Record<string, string[]>;
  articles: Record<string, string[]>;
  negations: Record<string, string[]>;
};

async function loadWith(raw: unknown) {
  vi.resetModules();
  vi.doMock('../../src/text/stop-words-source.js', () => ({
    readStopWordsSource: () => ({ name: 'stop-words-under-test.json', raw }),
  }));
  return import('../../src/text/stopwords.js');
}

afterEach(() => {
  vi.doUnmock('../../src/text/stop-words-source.js');
  vi.resetModules();
});

describe('stop words from data/text/stop-words.json', () => {
  it('holds every language of the file, and only its words', async () => {
    vi.resetModules();
    const { LANGUAGES, STOP_WORDS, isStopWordAnywhere } = await import('../../src/text/stopwords.js');
    for (const lang of LANGUAGES) expect([...STOP_WORDS[lang]]).toEqual(shipped.words[lang]);
    expect(STOP_WORDS.de.has('welche')).toBe(true);
    expect(isStopWordAnywhere('pompe')).toBe(false);
  });

  it('refuses a word that is not folded, naming the file and the field', async () => {
    const words = { ...shipped.words, fr: ['très', ...shipped.words.fr!.slice(1)] };
    const { STOP_WORDS } = await loadWith({ ...shipped, words });
    expect(() => STOP_WORDS.en).toThrow(/stop-words-under-test\.json: words\.fr\.0: .*accent-folded/);
  });

  it('refuses a missing language and a word listed twice', async () => {
    const { nl: _nl, ...four } = shipped.words;
    await expect(loadWith({ ...shipped, words: four }).then((m) => m.STOP_WORDS.en)).rejects.toThrow(
      /words\.nl/,
    );
    const twice = { ...shipped.words, es: [...shipped.words.es!, 'el'] };
    const { isStopWordAnywhere } = await loadWith({ ...shipped, words: twice });
    expect(() => isStopWordAnywhere('el')).toThrow(/words\.es\.\d+: "el" is listed twice/);
  });

  it('reads the articles and negations of every language, and refuses an article that is no function word', async () => {
    vi.resetModules();
    const { articlesAnywhere, negationsAnywhere } = await import('../../src/text/stopwords.js');
    expect(articlesAnywhere().has('de')).toBe(true);
    expect(articlesAnywhere().has('het')).toBe(true);
    expect(articlesAnywhere().has('pas')).toBe(false);
    expect(negationsAnywhere().has('pas')).toBe(true);
    expect(negationsAnywhere().has('kein')).toBe(true);
    const articles = { ...shipped.articles, fr: [...shipped.articles.fr!, 'pompe'] };
    const m = await loadWith({ ...shipped, articles });
    expect(() => m.articlesAnywhere()).toThrow(/articles\.fr\.\d+: "pompe" is not in words\.fr/);
  });
});
