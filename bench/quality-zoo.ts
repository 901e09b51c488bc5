/**
 * The layout zoo measured like the shared corpus, with its figures gathered per layout and per language
 * (a zoo manual is one layout in one language; its slug says which).
 */
import { ZOO_LANGUAGES, ZOO_LAYOUTS, type ZooLanguage, type ZooLayout } from '../pipeline/demo/zoo.js';
import type { QualityReport } from './quality-measure.js';

export interface ZooGroupFigures {
  group: string;
  codeKeys: number;
  answer: number | null;
  excerpt: number | null;
  negatives: number | null;
  /** Code keys answered with the key's page and meaning. */
  right: number;
  /** Code keys answered (state `answer`) with another page or meaning. */
  wrong: number;
  /** Code keys answered `unknown_code`, and `ambiguous` (or another state). */
  unknown: number;
  ambiguous: number;
}

function pct(num: number, den: number): number | null {
  return den > 0 ? Math.round((1000 * num) / den) / 10 : null;
}

function groupOf(document: string): { layout: ZooLayout; language: ZooLanguage } | undefined {
  const m = /^zoo-([a-z-]+)-([a-z]{2})$/.exec(document);
  if (!m) return undefined;
  const layout = m[1]!.replace(/-/g, '_') as ZooLayout;
  const language = m[2] as ZooLanguage;
  if (!ZOO_LAYOUTS.includes(layout) || !ZOO_LANGUAGES.includes(language)) return undefined;
  return { layout, language };
}

/** Answer-path figures of the zoo per layout or per language, and over all its manuals. */
export function zooGroups(report: QualityReport, by: 'layout' | 'language'): ZooGroupFigures[] {
  const groups = new Map<
    string,
    { keys: number; ok: number; excerpt: number; neg: number; negOk: number; wrong: number; unknown: number }
  >();
  const add = (name: string, m: QualityReport['manuals'][number]) => {
    const g = groups.get(name) ?? { keys: 0, ok: 0, excerpt: 0, neg: 0, negOk: 0, wrong: 0, unknown: 0 };
    g.keys += m.answers.codeKeys;
    g.ok += m.answers.answerOk;
    g.excerpt += m.answers.excerptOk;
    g.neg += m.answers.negatives;
    g.negOk += m.answers.negativesOk;
    // Counted from the misses' kinds only: a layout set aside is read as totals, never miss by miss.
    for (const miss of m.answers.misses) {
      if (miss.problem === 'page' || miss.problem === 'meaning') g.wrong++;
      else if (miss.problem === 'state' && miss.detail.startsWith('unknown_code')) g.unknown++;
    }
    groups.set(name, g);
  };
  for (const m of report.manuals) {
    const where = groupOf(m.document);
    if (where) add(where[by], m);
  }
  const order: readonly string[] = by === 'layout' ? ZOO_LAYOUTS : ZOO_LANGUAGES;
  return [...groups]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([group, g]) => ({
      group,
      codeKeys: g.keys,
      answer: pct(g.ok, g.keys),
      excerpt: pct(g.excerpt, g.keys),
      negatives: pct(g.negOk, g.neg),
      right: g.ok,
      wrong: g.wrong,
      unknown: g.unknown,
      ambiguous: g.keys - g.ok - g.wrong - g.unknown,
    }));
}

export function zooTable(report: QualityReport): string {
  const cell = (v: number | null) => (v === null ? '–' : `${v} %`);
  const lines: string[] = [];
  for (const by of ['layout', 'language'] as const) {
    lines.push(
      `| ${by} | code keys | answer: page + meaning | excerpt holds meaning | negatives | right / wrong / unknown / ambiguous |`,
    );
    lines.push('|---|---:|---:|---:|---:|---:|');
    for (const g of zooGroups(report, by))
      lines.push(
        `| ${g.group} | ${g.codeKeys} | ${cell(g.answer)} | ${cell(g.excerpt)} | ${cell(g.negatives)} | ${g.right} / ${g.wrong} / ${g.unknown} / ${g.ambiguous} |`,
      );
    const o = report.overall;
    lines.push(
      `| **overall** | ${o.codeKeys} | ${cell(o.answer)} | ${cell(o.excerpt)} | ${cell(o.negatives)} |`,
    );
    lines.push('');
  }
  return lines.join('\n');
}

const ZOO_HEADING = '## Layout zoo';

/** The zoo's figures as BENCHMARKS.md records them, which test/quality/zoo.test.ts guards. */
export interface ZooRecorded {
  seed: number;
  answer: number;
  excerpt: number;
  negatives: number;
  layouts: Record<string, number>;
}

export function zooRecorded(report: QualityReport, seed: number): ZooRecorded {
  return {
    seed,
    answer: report.overall.answer ?? 0,
    excerpt: report.overall.excerpt ?? 0,
    negatives: report.overall.negatives ?? 0,
    layouts: Object.fromEntries(zooGroups(report, 'layout').map((g) => [g.group, g.answer ?? 0])),
  };
}

/** Reads the recorded zoo figures back from BENCHMARKS.md; undefined when the section is absent. */
export function parseZooRecorded(markdown: string): ZooRecorded | undefined {
  const start = markdown.indexOf(`${ZOO_HEADING}\n`);
  if (start < 0) return undefined;
  const next = markdown.slice(start + ZOO_HEADING.length).search(/\n## /);
  const section = next < 0 ? markdown.slice(start) : markdown.slice(start, start + ZOO_HEADING.length + next);
  const m = /```json\n(\{.*\})\n```/.exec(section);
  return m ? (JSON.parse(m[1]!) as ZooRecorded) : undefined;
}
