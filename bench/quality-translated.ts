/**
 * Questions asked in another language than their manual's (data/search/eval/translated-questions.json):
 * each names the answer key it translates, and is scored like that key's question without a brand (the
 * expected page among the first one or three results of every manual), through the same service path.
 * The split into in-sample and held-out manuals is the search split (bench/quality-split.ts).
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { SearchResponse } from '../src/contract/search.js';
import { projectPath } from '../src/project-path.js';
import type { AnswerKey } from './quality-keys.js';

export const TRANSLATED_QUESTIONS = projectPath('data', 'search', 'eval', 'translated-questions.json');

const TranslatedFile = z.strictObject({
  about: z.array(z.string()).optional(),
  questions: z.array(
    z.strictObject({
      key: z.string().min(1),
      language: z.string().regex(/^[a-z]{2}$/),
      query: z.string().trim().min(1),
    }),
  ),
});

export interface TranslatedFigures {
  /** Per question language, and `all`: questions, hit@1 and hit@3 counts, in sample and held out. */
  byLanguage: Record<string, { inSample: HitCounts; heldOut: HitCounts }>;
  /** Questions whose key is not among the answer keys read (another corpus): not measured. */
  unmatched: number;
  misses: { language: string; query: string; got: string[] }[];
  /** All languages, by the half of the question their key is in (bench/quality-split.ts, question halves). */
  byHalf: { working: HitCounts; heldOut: HitCounts };
}

export interface HitCounts {
  questions: number;
  hit1: number;
  hit3: number;
}

/** Reads and checks a translated-questions file; every problem names its place. */
export function readTranslated(file = TRANSLATED_QUESTIONS): z.infer<typeof TranslatedFile>['questions'] {
  const parsed = TranslatedFile.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`${file}: ${problems}`);
  }
  return parsed.data.questions;
}

export async function measureTranslated(
  search: (input: Record<string, unknown>) => Promise<SearchResponse>,
  documents: readonly { id: string; file_name: string }[],
  keys: readonly AnswerKey[],
  heldOut: ReadonlySet<string>,
  file = TRANSLATED_QUESTIONS,
  heldOutHalf: ReadonlySet<string> = new Set(),
): Promise<TranslatedFigures> {
  const byId = new Map(keys.map((k) => [k.id, k]));
  const empty = (): HitCounts => ({ questions: 0, hit1: 0, hit3: 0 });
  const out: TranslatedFigures = {
    byLanguage: {},
    unmatched: 0,
    misses: [],
    byHalf: { working: empty(), heldOut: empty() },
  };
  for (const t of readTranslated(file)) {
    const key = byId.get(t.key);
    const doc = key && documents.find((d) => d.file_name === key.document);
    if (key?.kind !== 'question' || !doc) {
      out.unmatched++;
      continue;
    }
    const body = await search({ q: t.query, limit: 3 });
    const hits = body.results.map((r) => r.document_id === doc.id && key.pages.includes(r.page));
    const side = heldOut.has(key.document.replace(/\.pdf$/i, '')) ? 'heldOut' : 'inSample';
    const half = heldOutHalf.has(key.id) ? 'heldOut' : 'working';
    for (const language of [t.language, 'all']) {
      out.byLanguage[language] ??= { inSample: empty(), heldOut: empty() };
      for (const counts of [
        out.byLanguage[language][side],
        ...(language === 'all' ? [out.byHalf[half]] : []),
      ]) {
        counts.questions++;
        if (hits[0]) counts.hit1++;
        if (hits.some(Boolean)) counts.hit3++;
      }
    }
    // A translation of a held-out question would show that question: its misses are not listed.
    if (!hits.some(Boolean) && side === 'inSample' && half === 'working') {
      out.misses.push({
        language: t.language,
        query: t.query,
        got: body.results.map((r) => `${r.document_id === doc.id ? '' : `${r.document_id} `}p${r.page}`),
      });
    }
  }
  return out;
}

/** The figures as a table, one row per question language and `all`; with `misses`, the in-sample misses. */
export function translatedTable(figures: TranslatedFigures, misses: boolean): string {
  const pct = (n: number, of: number) => (of === 0 ? '–' : `${((100 * n) / of).toFixed(1)} %`);
  const cell = (c: HitCounts) => `${c.questions} | ${pct(c.hit1, c.questions)} | ${pct(c.hit3, c.questions)}`;
  const lines = [
    'Questions in another language than their manual’s, no brand (data/search/eval/translated-questions.json):',
    '| language | in-sample questions | hit@1 | hit@3 | held-out questions | hit@1 | hit@3 |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  const languages = Object.keys(figures.byLanguage).sort((a, b) =>
    a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b),
  );
  for (const l of languages) {
    const f = figures.byLanguage[l]!;
    lines.push(`| ${l} | ${cell(f.inSample)} | ${cell(f.heldOut)} |`);
  }
  const h = figures.byHalf;
  lines.push(
    `By question half, all languages (questions | hit@1 | hit@3): working ${cell(h.working)}; held out ${cell(h.heldOut)}`,
  );
  if (figures.unmatched) lines.push(`(${figures.unmatched} question(s) name no key of this corpus)`);
  if (misses)
    for (const m of figures.misses) lines.push(`- ${m.language} "${m.query}": got ${m.got.join(', ')}`);
  return lines.join('\n');
}
