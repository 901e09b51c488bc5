import fs from 'node:fs';
import path from 'node:path';

/** One line of an answer key (../shared/eval/answers/*.jsonl), by kind. */
export type AnswerKey =
  | {
      kind: 'code';
      id: string;
      document: string;
      brand?: string;
      model?: string;
      code: string;
      /** The language the request names, where it is not the manual's (a manual in two languages). */
      language?: string;
      pages: number[];
      meaning: string;
    }
  | {
      kind: 'negative';
      id: string;
      document: string;
      brand?: string;
      model?: string;
      code: string;
      language?: string;
    }
  | { kind: 'question'; id: string; document: string; query: string; pages: number[] };

interface RawKey {
  id?: string;
  document?: string;
  brand?: string;
  model?: string;
  code?: string;
  language?: string;
  query?: string;
  pages?: number[];
  meaning?: string | null;
  expected_state?: string;
}

/** Reads every .jsonl file of a folder; a line that fits no kind is an error, not silently skipped. */
export function readAnswerKeys(dir: string): AnswerKey[] {
  const out: AnswerKey[] = [];
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    const lines = fs.readFileSync(path.join(dir, name), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      const raw = JSON.parse(line) as RawKey;
      const where = `${name}:${i + 1}`;
      if (!raw.id || !raw.document) throw new Error(`${where}: key without id or document`);
      if (raw.expected_state === 'unknown_code' && raw.code) {
        out.push({
          kind: 'negative',
          id: raw.id,
          document: raw.document,
          brand: raw.brand,
          model: raw.model,
          code: raw.code,
          ...(raw.language ? { language: raw.language } : {}),
        });
      } else if (raw.code && raw.meaning && raw.pages) {
        out.push({
          kind: 'code',
          id: raw.id,
          document: raw.document,
          brand: raw.brand,
          model: raw.model,
          code: raw.code,
          ...(raw.language ? { language: raw.language } : {}),
          pages: raw.pages,
          meaning: raw.meaning,
        });
      } else if (raw.query && raw.pages) {
        out.push({
          kind: 'question',
          id: raw.id,
          document: raw.document,
          query: raw.query,
          pages: raw.pages,
        });
      } else {
        throw new Error(`${where}: not a code, negative or question key`);
      }
    });
  }
  return out;
}
