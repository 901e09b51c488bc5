/**
 * What each source of code answers contributes, measured through the answer a client receives
 * (`Services.invoke('diagnose')`): the same keys sent to three copies of one bundle, one with the table
 * reader's rows only (the code index emptied), one with the code index only (the reader's rows emptied),
 * and the bundle as built (both). Nothing in the runtime is switched: each copy is an ordinary bundle.
 *
 *   npm run bench:quality -- --origins [--bundle FILE]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BundleReader } from '../src/bundle/reader.js';
import { answerPath, measureAnswers } from './quality-answers.js';
import type { ManualGroup } from './quality-groups.js';
import type { AnswerKey } from './quality-keys.js';

export type OriginVariant = 'reader' | 'code_index' | 'both';
export const ORIGIN_VARIANTS: readonly OriginVariant[] = ['reader', 'code_index', 'both'];

export interface OriginFigures {
  codeKeys: number;
  /** State `answer`, right page and meaning. */
  right: number;
  /** State `answer` with a wrong page or meaning. */
  wrong: number;
  negatives: number;
  /** Negatives answered `unknown_code`. */
  negativesOk: number;
}

export interface OriginsReport {
  /** Per variant, per set: `in_sample` (every manual in no set-aside group) and each set-aside group by id. */
  rows: { variant: OriginVariant; set: string; figures: OriginFigures }[];
  setAside: string[];
}

/** SQL that empties one source in a copy of the bundle. */
const EMPTY: Record<Exclude<OriginVariant, 'both'>, string> = {
  reader: "DELETE FROM code_lines WHERE origin = 'code_index'",
  code_index: 'DELETE FROM error_codes',
};

export async function measureOrigins(
  bundle: string,
  keys: AnswerKey[],
  setAside: ManualGroup[],
): Promise<OriginsReport> {
  const aside = new Map(setAside.flatMap((g) => g.documents.map((d) => [d, g.id] as const)));
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-origins-'));
  const rows: OriginsReport['rows'] = [];
  try {
    for (const variant of ORIGIN_VARIANTS) {
      let file = bundle;
      if (variant !== 'both') {
        file = path.join(temp, `${variant}.bundle`);
        fs.copyFileSync(bundle, file);
        const db = new Database(file);
        db.exec(EMPTY[variant]);
        db.close();
      }
      const reader = new BundleReader(file);
      const client = await answerPath(reader);
      try {
        const sets = new Map<string, OriginFigures>([['in_sample', empty()]]);
        for (const g of setAside) sets.set(g.id, empty());
        for (const [document, list] of byDocument(keys)) {
          const doc = reader.documents().find((d) => d.file_name === document);
          const a = await measureAnswers(client, doc, list, false);
          const f = sets.get(aside.get(document.replace(/\.pdf$/i, '')) ?? 'in_sample')!;
          f.codeKeys += a.codeKeys;
          f.right += a.answerOk;
          f.wrong += a.misses.filter((m) => m.problem === 'page' || m.problem === 'meaning').length;
          f.negatives += a.negatives;
          f.negativesOk += a.negativesOk;
        }
        for (const [set, figures] of sets)
          if (set === 'in_sample' || figures.codeKeys + figures.negatives > 0)
            rows.push({ variant, set, figures });
      } finally {
        await client.close();
        reader.close();
      }
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
  return { rows, setAside: [...aside.keys()] };
}

/** The report as a Markdown table. */
export function originsTable(report: OriginsReport): string {
  const name = { reader: 'table reader alone', code_index: 'code index alone', both: 'both (as served)' };
  const pct = (n: number, d: number) => (d > 0 ? `${((100 * n) / d).toFixed(1)} %` : '-');
  const lines = [
    '| source of answers | manuals | codes right | codes answered wrong | negatives `unknown_code` |',
    '|---|---|---|---|---|',
  ];
  for (const r of report.rows) {
    const f = r.figures;
    lines.push(
      `| ${name[r.variant]} | ${r.set === 'in_sample' ? 'in sample' : `set aside (\`${r.set}\`)`} | ${f.right}/${f.codeKeys} (${pct(f.right, f.codeKeys)}) | ${f.wrong} | ${f.negativesOk}/${f.negatives} |`,
    );
  }
  return lines.join('\n');
}

function empty(): OriginFigures {
  return { codeKeys: 0, right: 0, wrong: 0, negatives: 0, negativesOk: 0 };
}

function byDocument(keys: AnswerKey[]): Map<string, AnswerKey[]> {
  const out = new Map<string, AnswerKey[]>();
  for (const key of keys) out.set(key.document, [...(out.get(key.document) ?? []), key]);
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}
