/**
 * Leave-one-format-out: the knowledge and the policy are frozen; only a few tunables of settings.yaml
 * (the grid below) are chosen, on two of the case formats, and the choice is measured on the third,
 * which it never saw. The pooled figure scores every case with a choice made without its format: the
 * out-of-sample headline. Cases are never named: among the points that keep the bars on the training
 * formats (no wrong part, premature closure at most 5 %), the choice maximises conv@5 there, then
 * fewer wrong parts, fewer premature closures, fewer actions.
 */
import type { Knowledge } from '../src/engine/sessions/knowledge-schema.js';
import type { BenchCase, CaseFormat } from './sessions-cases.js';
import { type CaseRow, type EvalOptions, runCase, type Summary, summarise } from './sessions-eval.js';
import type { Taxonomy } from './sessions-taxonomy.js';

export interface Tunables {
  threshold: number;
  settled_threshold: number;
  quick_min_gain: number;
  unanswered_streak: number;
  suspect_at: number;
}

/** The grid of tunables; the frozen defaults of settings.yaml are one of its points. */
export const GRID: Tunables[] = [0.8, 0.85, 0.9].flatMap((threshold) =>
  [0.6, 0.7].flatMap((settled_threshold) =>
    [0.1, 0.2].flatMap((quick_min_gain) =>
      [0, 2, 3, 4].flatMap((unanswered_streak) =>
        [0.3, 0.4, 0.5].map((suspect_at) => ({
          threshold,
          settled_threshold,
          quick_min_gain,
          unanswered_streak,
          suspect_at,
        })),
      ),
    ),
  ),
);

export function withTunables(knowledge: Knowledge, t: Tunables): Knowledge {
  const settings = structuredClone(knowledge.settings);
  settings.conclusion.threshold = t.threshold;
  settings.conclusion.replacement_threshold = Math.max(
    settings.conclusion.replacement_threshold,
    t.threshold,
  );
  settings.conclusion.settled_threshold = Math.min(t.settled_threshold, t.threshold);
  settings.selection.quick_min_gain = t.quick_min_gain;
  settings.selection.unanswered_streak = t.unanswered_streak;
  settings.conclusion.suspect_at = t.suspect_at;
  return { ...knowledge, settings };
}

export interface FoldResult {
  held_out: CaseFormat;
  chosen: Tunables;
  /** On the two training formats, with the chosen tunables (in sample for the choice). */
  train: Summary;
  /** On the held-out format (out of sample). */
  test: Summary;
}

export interface LofoReport {
  grid_points: number;
  folds: FoldResult[];
  /** Every case scored by the tunables chosen without its format. */
  pooled: Summary;
  /** The tunables chosen on all cases, and their (in-sample) score. */
  all_in: { chosen: Tunables; summary: Summary };
}

/** The bars a choice must keep on its training formats: no wrong part, premature closure at most 5 %. */
const MAX_PREMATURE = 0.05;

function better(a: Summary, b: Summary): boolean {
  const feasible = (s: Summary) =>
    s.wrong_part_rate === 0 && s.premature_closure_rate <= MAX_PREMATURE ? 1 : 0;
  const key = (s: Summary) => [
    feasible(s),
    s.conv5,
    -s.wrong_part_rate,
    -s.premature_closure_rate,
    -s.mean_actions,
  ];
  const ka = key(a);
  const kb = key(b);
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! > kb[i]!;
  return false;
}

function choose(runs: CaseRow[][], keep: (r: CaseRow) => boolean): { index: number; summary: Summary } {
  let best = { index: 0, summary: summarise(runs[0]!.filter(keep)) };
  runs.forEach((rows, index) => {
    const summary = summarise(rows.filter(keep));
    if (better(summary, best.summary)) best = { index, summary };
  });
  return best;
}

export function leaveOneFormatOut(
  knowledge: Knowledge,
  taxonomy: Taxonomy,
  cases: BenchCase[],
  options: EvalOptions = {},
): LofoReport {
  const runs = GRID.map((t) => {
    const k = withTunables(knowledge, t);
    return cases.map((c) => runCase(k, taxonomy, c, options));
  });
  const formats = [...new Set(cases.map((c) => c.format))];
  const folds: FoldResult[] = [];
  const pooled: CaseRow[] = [];
  for (const held of formats) {
    const { index, summary } = choose(runs, (r) => r.format !== held);
    const test = runs[index]!.filter((r) => r.format === held);
    pooled.push(...test);
    folds.push({ held_out: held, chosen: GRID[index]!, train: summary, test: summarise(test) });
  }
  const all = choose(runs, () => true);
  return {
    grid_points: GRID.length,
    folds,
    pooled: summarise(pooled),
    all_in: { chosen: GRID[all.index]!, summary: all.summary },
  };
}
