import type { Figures, GroupTotals, QualityReport } from './quality-measure.js';

const HEADING = '## Extraction quality';

function cell(v: number | null, suffix = ' %'): string {
  return v === null ? '–' : `${v}${suffix}`;
}

/**
 * One markdown table: a row per manual and the overall row; answer-path figures first, then the
 * extractor's. Without `group`, the in-sample manuals (all but those of groups gated apart) and the
 * search split's rows; with it, that group's manuals and its own overall row.
 */
export function qualityTable(report: QualityReport, group?: QualityReport['groups'][number]): string {
  const head =
    '| manual | code keys | answer: page + meaning | excerpt holds meaning | negatives | hit@1 | hit@3 | ' +
    'hit@1 no brand | hit@3 no brand | extractor recall | page acc. | meaning ≥ 0.5 | precision |';
  const rule = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
  const row = (name: string, keys: number | string, f: Figures) =>
    `| ${name} | ${keys} | ${cell(f.answer)} | ${cell(f.excerpt)} | ${cell(f.negatives)} | ${cell(f.hit1)} | ` +
    `${cell(f.hit3)} | ${cell(f.openHit1)} | ${cell(f.openHit3)} | ${cell(f.recall)} | ${cell(f.pageAccuracy)} | ` +
    `${cell(f.meaningOk)} | ${cell(f.precision)} |`;
  const lines = [head, rule];
  const apart = new Set(report.groups.filter((g) => g.gate === 'own').flatMap((g) => g.documents));
  const members = group
    ? report.manuals.filter((m) => group.documents.includes(m.document))
    : report.manuals.filter((m) => !apart.has(m.document));
  const overall = group ? group.overall : report.overall;
  for (const m of members) lines.push(row(`${m.document}${m.heldOut ? ' †' : ''}`, m.codeKeys, m.figures));
  lines.push(row('**overall**', overall.codeKeys, overall));
  if (!group) {
    lines.push(row('all manuals, search split: in-sample', '', report.split.inSample));
    lines.push(row('all manuals, search split: held out (†)', '', report.split.heldOut));
  }
  return lines.join('\n');
}

/** The overall figures as recorded in BENCHMARKS.md, which the real-corpus test guards against regressions. */
export function recordedFigures(totals: GroupTotals): Figures {
  const {
    codeKeys: _codeKeys,
    negativeKeys: _negatives,
    questionKeys: _questions,
    minRecall: _min,
    ...figures
  } = totals;
  return figures;
}

/** A group's part of the section: its table and its own recorded figures (the JSON names the group). */
function groupPart(report: QualityReport, group: QualityReport['groups'][number]): string[] {
  const gate =
    group.gate === 'own'
      ? 'Not in the overall figures above; guarded apart by test/quality/quality.test.ts (a figure more than 2 points lower than recorded here fails):'
      : 'Also in the overall figures above (and guarded with them); reported apart here:';
  return [
    `### ${group.title} (\`${group.id}\`)`,
    '',
    `Listed in data/quality/manual-groups.yaml${group.measured_before ? `, first measured ${group.measured_before}` : ''}.`,
    gate,
    '',
    qualityTable(report, group),
    '',
    ...(group.gate === 'own'
      ? ['```json', JSON.stringify({ group: group.id, ...recordedFigures(group.overall) }), '```', '']
      : []),
  ];
}

export function qualitySection(report: QualityReport, machine: string, command: string): string {
  return [
    HEADING,
    '',
    `Measured ${report.date} on ${machine} with \`${command}\` (ingest without snapshots: ${report.ingestMs} ms).`,
    'The answer path: every key goes through `Services.invoke`, the service layer REST and MCP call. A code',
    'key is sent to `diagnose` with its brand, model and the manual’s language. Answer: state `answer`, the',
    'cited page among the key’s pages and a title whose tokens overlap the key’s meaning by ≥ 0.5 (Dice),',
    'of all code keys. Excerpt: of all code keys, answers whose excerpt holds the key’s meaning as one run',
    'of words (case, accents, punctuation aside). Negatives: plausible codes the manual does not document,',
    'answered `unknown_code`. hit@k: `search` with the question and the manual’s brand, the expected page',
    'among the first k results; "no brand": the same question sent with no filter at all, as typed into a',
    'search box, every manual’s pages competing. † marks the manuals whose questions were held out while',
    'search rules were written (a seeded third of the manuals, bench/quality-split.ts).',
    'The extractor: recall is the share of keyed codes with a stored row (zero-padding variants matched);',
    'page accuracy and meaning ≥ 0.5 are of the first stored row; precision is the share of distinct',
    'extracted codes the key holds (keys leave out codes printed with several meanings).',
    'In-sample: the extraction and answer rules were written while reading these manuals and their keys.',
    'No rule names a file, brand or code, but these figures say how well the rules fit what they were',
    'written on, not how they do on manuals never seen. Manuals of a group in data/quality/manual-groups.yaml',
    'gated apart (added after the rules) are measured in the same bundle but reported and guarded below.',
    '',
    qualityTable(report),
    '',
    'Overall figures guarded by test/quality/quality.test.ts (a figure more than 2 points lower fails):',
    '',
    '```json',
    JSON.stringify(recordedFigures(report.overall)),
    '```',
    '',
    ...report.groups.flatMap((g) => groupPart(report, g)),
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

/** The JSON blocks of the extraction-quality section, in order. */
function recordedBlocks(markdown: string): (Figures & { group?: string })[] {
  const start = markdown.indexOf(`${HEADING}\n`);
  if (start < 0) return [];
  const rest = markdown.slice(start + HEADING.length);
  const next = rest.search(/\n## /);
  const section = next < 0 ? rest : rest.slice(0, next);
  return [...section.matchAll(/```json\n(\{.*\})\n```/g)].map(
    (m) => JSON.parse(m[1]!) as Figures & { group?: string },
  );
}

/** Reads the recorded in-sample overall figures back from BENCHMARKS.md; undefined when the section is absent. */
export function parseRecordedFigures(markdown: string): Figures | undefined {
  return recordedBlocks(markdown).find((b) => b.group === undefined);
}

/** The recorded figures of each group gated apart, by group id. */
export function parseRecordedGroups(markdown: string): Map<string, Figures> {
  const out = new Map<string, Figures>();
  for (const { group, ...figures } of recordedBlocks(markdown)) if (group) out.set(group, figures);
  return out;
}
