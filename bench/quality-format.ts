import type { Figures, QualityReport } from './quality-measure.js';

const HEADING = '## Extraction quality';

function cell(v: number | null, suffix = ' %'): string {
  return v === null ? '–' : `${v}${suffix}`;
}

/** One markdown table: a row per manual and the overall row. */
export function qualityTable(report: QualityReport): string {
  const head =
    '| manual | code keys | recall | page acc. | meaning mean | meaning ≥ 0.5 | precision | negatives | hit@1 | hit@3 |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const row = (name: string, keys: number, f: Figures) =>
    `| ${name} | ${keys} | ${cell(f.recall)} | ${cell(f.pageAccuracy)} | ${cell(f.meaningMean, '')} | ` +
    `${cell(f.meaningOk)} | ${cell(f.precision)} | ${cell(f.negatives)} | ${cell(f.hit1)} | ${cell(f.hit3)} |`;
  const lines = [head, rule];
  for (const m of report.manuals) lines.push(row(m.document, m.codeKeys, m.figures));
  lines.push(row('**overall**', report.overall.codeKeys, report.overall));
  return lines.join('\n');
}

/** The overall figures as recorded in BENCHMARKS.md, which the real-corpus test guards against regressions. */
export function recordedFigures(report: QualityReport): Figures {
  const { recall, pageAccuracy, meaningMean, meaningOk, precision, negatives, hit1, hit3 } = report.overall;
  return { recall, pageAccuracy, meaningMean, meaningOk, precision, negatives, hit1, hit3 };
}

export function qualitySection(report: QualityReport, machine: string, command: string): string {
  const search =
    report.search === 'measured'
      ? 'Free-text figures come from `searchChunks` (top 3, restricted to the manual’s brand).'
      : 'Free-text figures were not measured: the search engine (src/engine/search.ts) was absent.';
  return [
    HEADING,
    '',
    `Measured ${report.date} on ${machine} with \`${command}\` (ingest without snapshots: ${report.ingestMs} ms).`,
    'Recall: share of keyed codes extracted for their manual (code matched with zero-padding variants).',
    'Page accuracy: share of extracted keyed codes whose cited page is one of the key’s pages. Meaning:',
    'Dice overlap of the extracted title’s tokens with the key’s meaning. Precision: distinct extracted',
    'codes of a manual that its key holds (keys leave out codes printed with several meanings, so 100 % is',
    'not expected). Negatives: plausible codes the manual does not document, answered unknown.',
    search,
    '',
    qualityTable(report),
    '',
    'Overall figures guarded by test/quality/quality.test.ts (a figure more than 2 points lower fails):',
    '',
    '```json',
    JSON.stringify(recordedFigures(report)),
    '```',
    '',
  ].join('\n');
}

/** Replaces (or appends) the extraction-quality section of a BENCHMARKS.md text, leaving other sections as they are. */
export function replaceSection(markdown: string, section: string): string {
  const start = markdown.indexOf(`${HEADING}\n`);
  if (start < 0) return `${markdown.replace(/\n*$/, '')}${markdown.trim() ? '\n\n' : ''}${section}`;
  const next = markdown.slice(start + HEADING.length).search(/\n## /);
  const end = next < 0 ? markdown.length : start + HEADING.length + next + 1;
  return markdown.slice(0, start) + section + (end < markdown.length ? `\n${markdown.slice(end)}` : '');
}

/** Reads the recorded overall figures back from BENCHMARKS.md; undefined when the section is absent. */
export function parseRecordedFigures(markdown: string): Figures | undefined {
  const start = markdown.indexOf(`${HEADING}\n`);
  if (start < 0) return undefined;
  const m = /```json\n(\{.*\})\n```/.exec(markdown.slice(start));
  return m ? (JSON.parse(m[1]!) as Figures) : undefined;
}
