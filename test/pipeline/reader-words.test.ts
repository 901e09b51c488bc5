import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse, stringify } from 'yaml';

// The fault-table and procedure readers take their words from data/layout/reader-words.yaml: the shipped
// file drives them, and a broken file names itself and the entry at fault when the readers load.
const shipped = fs.readFileSync(path.resolve('data', 'layout', 'reader-words.yaml'), 'utf8');

afterEach(() => {
  vi.doUnmock('../../src/project-path.js');
  vi.resetModules();
});

/** Loads the header reader with data/layout/reader-words.yaml replaced by `yamlText`. */
async function withWords(yamlText: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reader-words-'));
  fs.mkdirSync(path.join(dir, 'data', 'layout'), { recursive: true });
  const file = path.join(dir, 'data', 'layout', 'reader-words.yaml');
  fs.writeFileSync(file, yamlText);
  vi.resetModules();
  vi.doMock('../../src/project-path.js', () => ({
    projectPath: (...parts: string[]) => path.join(dir, ...parts),
  }));
  return { file, dir, load: () => import('../../pipeline/facts/header-words.js') };
}

describe('reader words from data/layout/reader-words.yaml', () => {
  it('a header word added to the file gives its column a role', async () => {
    const words = parse(shipped);
    const before = await withWords(stringify(words));
    try {
      expect((await before.load()).headerRole('Kennziffer')).toBeUndefined();
    } finally {
      fs.rmSync(before.dir, { recursive: true, force: true });
    }
    words.column_headers.names_codes.push('kennziffer');
    const after = await withWords(stringify(words));
    try {
      expect((await after.load()).headerRole('Kennziffer')).toBe('code');
    } finally {
      fs.rmSync(after.dir, { recursive: true, force: true });
    }
  });

  it('refuses an entry that is not a regular expression, naming the file and the entry', async () => {
    const words = parse(shipped);
    words.parts.names.push('pump(');
    const at = words.parts.names.length - 1;
    const { file, dir, load } = await withWords(stringify(words));
    try {
      await expect(load()).rejects.toThrow(`${file}: parts.names.${at}: not a regular expression`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file that lacks a list, naming it', async () => {
    const words = parse(shipped);
    delete words.fault_context;
    const { file, dir, load } = await withWords(stringify(words));
    try {
      await expect(load()).rejects.toThrow(`${file}: fault_context:`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
