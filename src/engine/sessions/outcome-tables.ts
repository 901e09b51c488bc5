import { type Action, type Knowledge, type Quantity, quantityOutcomes } from './knowledge-schema.js';
import type { Expected, SessionContext } from './types.js';

/** The cost of an action in minutes: its own time, the overhead of any step, and its invasiveness and risk. */
export function costOf(k: Knowledge, a: Pick<Action, 'kind' | 'minutes' | 'invasiveness' | 'risk'>): number {
  const c = k.settings.cost;
  if (a.kind === 'escalate') return c.escalation;
  return (
    c.overhead_minutes +
    a.minutes +
    c.per_invasiveness_level * (a.invasiveness - 1) +
    c.per_risk_level * a.risk
  );
}

export function normalise(values: number[]): number[] {
  const total = values.reduce((s, v) => s + v, 0);
  return values.map((v) => v / total);
}

export function baselineOf(q: Quantity): number[] {
  if (q.type === 'choice') return normalise(q.choices.map((c) => c.baseline));
  if (q.type === 'boolean') return [q.baseline_true, 1 - q.baseline_true];
  const defaults: Record<string, number> = { zero: 0.03, low: 0.1, normal: 0.77, high: 0.1 };
  return normalise(quantityOutcomes(q).map((band) => q.baseline?.[band as 'low'] ?? defaults[band]!));
}

export function nominalFor(
  q: Extract<Quantity, { type: 'number' }>,
  context: SessionContext,
): [number, number] {
  for (const rule of q.nominal) {
    const when = rule.when;
    if (!when) return rule.range;
    const emitterOk =
      !when.emitter || (context.emitter !== undefined && when.emitter.includes(context.emitter));
    const modeOk = !when.mode || (context.mode !== undefined && when.mode.includes(context.mode));
    if (emitterOk && modeOk) return rule.range;
  }
  return q.nominal[q.nominal.length - 1]!.range;
}

export function expectedOf(q: Quantity, context: SessionContext): Expected {
  if (q.type === 'choice')
    return { type: 'choice', choices: q.choices.map((c) => ({ id: c.id, label: c.label })) };
  if (q.type === 'boolean') return { type: 'boolean' };
  return {
    type: 'number',
    unit: q.unit,
    nominal_range: nominalFor(q, context),
    range_source: { kind: 'knowledge' },
    plausible_range: q.plausible,
    margin: q.margin,
    zero: q.zero ?? null,
    sided: q.sided,
    absolute: q.absolute,
  };
}

/** The residual and manual-only causes: no knowledge of their effects, so flatter than the baseline. */
export function flattened(baseline: number[], uniformMix: number): number[] {
  const u = 1 / baseline.length;
  return baseline.map((b) => (1 - uniformMix) * b + uniformMix * u);
}

export function effectRow(
  k: Knowledge,
  q: Quantity,
  effects: Record<string, string>,
  baseline: number[],
): number[] {
  const outcomes = quantityOutcomes(q);
  let shifted = 0;
  const row = baseline.slice();
  for (const strength of Object.values(effects)) shifted += k.settings.strengths[strength as 'weak'];
  for (let i = 0; i < row.length; i++) row[i] = (1 - shifted) * row[i]!;
  for (const [outcome, strength] of Object.entries(effects)) {
    const i = outcomes.indexOf(outcome);
    row[i] = row[i]! + k.settings.strengths[strength as 'weak'];
  }
  return row;
}

export function withReliability(row: number[], baseline: number[], reliability: number): number[] {
  if (reliability >= 1) return row;
  return row.map((p, i) => reliability * p + (1 - reliability) * baseline[i]!);
}
