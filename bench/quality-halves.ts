/**
 * The free-text figures by question half (bench/quality-split.ts, `heldOutQuestions`): the working half,
 * whose misses are read while search rules are written, the held-out half, only ever counted, and all;
 * beside them the held-out questions of the manuals held out since 2026-11-25, which nobody has read.
 */
import { type QuestionOutcome, RANK_DEPTH } from './quality-answers.js';
import type { QualityReport } from './quality-measure.js';

export interface HalfFigures {
  questions: number;
  hit1: number;
  hit3: number;
  openHit1: number;
  openHit3: number;
  /** Without a brand: the key's page within the first ten results, and not within the first RANK_DEPTH. */
  openHit10: number;
  openBeyond: number;
}

export interface QuestionHalves {
  working: HalfFigures;
  heldOut: HalfFigures;
  all: HalfFigures;
  /** Held-out questions of the manuals held out in the earlier split (never read by anyone). */
  heldOutUnread: HalfFigures;
}

function figures(list: QuestionOutcome[]): HalfFigures {
  const pct = (n: number) => (list.length ? Math.round((1000 * n) / list.length) / 10 : 0);
  const count = (f: (o: QuestionOutcome) => boolean) => pct(list.filter(f).length);
  return {
    questions: list.length,
    hit1: count((o) => o.branded.at1),
    hit3: count((o) => o.branded.at3),
    openHit1: count((o) => o.open.at1),
    openHit3: count((o) => o.open.at3),
    openHit10: count((o) => o.open.rank !== null && o.open.rank <= 10),
    openBeyond: count((o) => o.open.rank === null),
  };
}

export function questionHalves(report: QualityReport): QuestionHalves {
  const held = new Set(report.heldOutQuestions);
  const all = report.manuals.flatMap((m) => m.answers.outcomes.map((o) => ({ o, manualHeldOut: m.heldOut })));
  return {
    working: figures(all.filter((x) => !held.has(x.o.id)).map((x) => x.o)),
    heldOut: figures(all.filter((x) => held.has(x.o.id)).map((x) => x.o)),
    all: figures(all.map((x) => x.o)),
    heldOutUnread: figures(all.filter((x) => held.has(x.o.id) && x.manualHeldOut).map((x) => x.o)),
  };
}

export function halvesTable(halves: QuestionHalves): string {
  const row = (name: string, f: HalfFigures) =>
    `| ${name} | ${f.questions} | ${f.hit1} % | ${f.hit3} % | ${f.openHit1} % | ${f.openHit3} % | ${f.openHit10} % | ${f.openBeyond} % |`;
  return [
    'Free-text questions by question half (bench/quality-split.ts, heldOutQuestions):',
    `| half | questions | hit@1 brand | hit@3 brand | hit@1 no brand | hit@3 no brand | hit@10 no brand | not in first ${RANK_DEPTH}, no brand |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    row('working', halves.working),
    row('held out', halves.heldOut),
    row('all', halves.all),
    row('held out, of the manuals held out since 2026-11-25', halves.heldOutUnread),
  ].join('\n');
}
