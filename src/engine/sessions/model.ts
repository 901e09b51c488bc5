import { createHash } from 'node:crypto';
import type { Citation } from '../../contract/common.js';
import { answerWeights } from './inference.js';
import { type Action, type EquipmentKind, type Knowledge, quantityOutcomes } from './knowledge-schema.js';
import { analyseManual } from './manual-analysis.js';
import {
  baselineOf,
  costOf,
  effectRow,
  expectedOf,
  flattened,
  nominalFor,
  withReliability,
} from './outcome-tables.js';
import { citationsOf, pushQuote, sameCitation } from './quotes.js';
import { manualRangesFor, withRange } from './sourced-ranges.js';
import { readStatedNumbers } from './stated-numbers.js';
import { readStatements } from './statements.js';
import { anyPhraseOccurs, keywordScore, tokens } from './text-match.js';
import type {
  Expected,
  ManualPart,
  ModelAction,
  ModelHypothesis,
  OutcomeTable,
  Quote,
  SessionInit,
  SessionModel,
  StatedEvidence,
} from './types.js';
import { toStepUnit } from './units.js';

export const RESIDUAL_ID = 'unknown';

/** Symptoms whose keyword groups all occur in the description, the code and the manual's titles. */
function recogniseSymptoms(k: Knowledge, text: string): string[] {
  const words = tokens(text);
  return k.symptoms
    .filter((s) => s.all.every((group) => anyPhraseOccurs(group, words)))
    .filter((s) => !s.none || !anyPhraseOccurs(s.none, words))
    .map((s) => s.id);
}

/**
 * The action a reading of this quantity stands for: the most reliable one, then the cheapest (for
 * initial readings, readings stated in the description, and the benchmark's simulated technician).
 */
export function readingActionOf(actions: ModelAction[], quantity: string): ModelAction | undefined {
  let best: ModelAction | undefined;
  for (const a of actions) {
    if (a.quantity !== quantity || !a.table) continue;
    if (
      !best ||
      a.reliability > best.reliability ||
      (a.reliability === best.reliability && a.cost < best.cost)
    )
      best = a;
  }
  return best;
}

/** The readings the technician's description states, each on the action that reads its quantity. */
function statedEvidence(k: Knowledge, init: SessionInit, actions: ModelAction[]): StatedEvidence[] {
  const readable = new Set(actions.flatMap((a) => (a.quantity && a.table ? [a.quantity] : [])));
  const window = k.settings.description.stated_window;
  const stated = readStatements(k.statements, init.symptom ?? '', window, readable);
  const told = new Set(k.quantities.flatMap((q) => (q.type === 'choice' && q.told ? [q.id] : [])));
  const out: StatedEvidence[] = stated.map((r) => ({
    ...r,
    action_id: readingActionOf(actions, r.quantity)!.id,
    ...(told.has(r.quantity) ? { told: true as const } : {}),
  }));
  // A number stated with its unit ("pression à 0,6 bar"), where the words did not already state a band.
  for (const n of readStatedNumbers(k.statements, init.symptom ?? '', window)) {
    if (!readable.has(n.quantity) || out.some((e) => e.quantity === n.quantity)) continue;
    const action = readingActionOf(actions, n.quantity)!;
    const value = numberInStepUnit(action, n.reading);
    if (value === null) continue;
    const weights = answerWeights(action, value);
    const band = action.table!.outcomes[weights.indexOf(Math.max(...weights))]!;
    // A number with its unit was read off the unit by whoever wrote it: it is the answer, as a told fact is.
    out.push({
      quantity: n.quantity,
      outcome: band,
      phrase: n.phrase,
      action_id: action.id,
      value,
      told: true,
    });
  }
  return out;
}

/** A stated reading in the step's unit, or null when its unit is not one of the step's kind or the value is not plausible. */
function numberInStepUnit(action: ModelAction, reading: string): number | null {
  if (action.expected.type !== 'number') return null;
  try {
    const { value } = toStepUnit(reading, action.expected.unit);
    answerWeights(action, value);
    return value;
  } catch {
    return null;
  }
}

export function sessionId(knowledge: Knowledge, init: SessionInit): string {
  const { id: _ignored, ...inputs } = init;
  const digest = createHash('sha256')
    .update(JSON.stringify({ knowledge: knowledge.version, inputs }))
    .digest('hex');
  return `ses_${digest.slice(0, 24)}`;
}

/**
 * Builds the model a session runs on: its hypotheses with priors (knowledge causes of the equipment,
 * shifted by the recognised symptoms and by the manual's causes; manual causes no knowledge cause
 * matches; the unknown-cause residual) and every action with its outcome probabilities per hypothesis.
 */
export function compileModel(k: Knowledge, init: SessionInit): SessionModel {
  const kind: EquipmentKind = init.equipment;
  const context = init.context ?? {};
  const facts = init.manualFacts ?? [];
  const quantities = new Map(k.quantities.map((q) => [q.id, q]));
  const causes = k.causes.filter((c) => c.prior[kind] !== undefined);
  const actions = k.actions.filter((a) => a.equipment.includes(kind));

  const symptomText = [init.symptom ?? '', init.code ?? '', ...facts.map((f) => f.title)].join(' . ');
  const symptoms = recogniseSymptoms(k, symptomText);
  const manual = analyseManual(facts, causes, actions);

  const descriptionWords = tokens(init.symptom ?? '');
  const named = new Set(
    causes.filter((c) => keywordScore(c.keywords, descriptionWords) > 0).map((c) => c.id),
  );
  const weights = new Map<string, number>();
  for (const cause of causes) {
    // Credit for every recognised symptom the cause explains; one penalty if it explains none of them.
    let factor = 1;
    let explains = false;
    for (const id of symptoms) {
      const shift = k.symptoms.find((s) => s.id === id)?.shifts[cause.id];
      if (shift) {
        factor *= k.settings.shifts[shift];
        explains = true;
      }
    }
    if (symptoms.length > 0 && !explains) factor *= k.settings.description.unlisted;
    if (named.has(cause.id)) factor *= k.settings.description.named;
    factor = Math.min(factor, k.settings.description.max_factor);
    if (manual.matched.has(cause.id)) factor *= k.settings.manual.matched_boost;
    weights.set(cause.id, cause.prior[kind]! * factor);
  }
  for (const m of manual.unmatched) weights.set(m.hypothesis.id, k.settings.manual.unmatched_weight);

  const residualPrior = k.settings.residual.prior;
  const total = [...weights.values()].reduce((s, w) => s + w, 0);
  const hypotheses: ModelHypothesis[] = [
    ...causes.map((c) => {
      const named = manual.matched.get(c.id) ?? [];
      const quotes = named.length > 0 ? named : (manual.mentioned.get(c.id) ?? []);
      return {
        id: c.id,
        label: c.label,
        source: (manual.listed.has(c.id) ? 'manual' : 'knowledge') as 'manual' | 'knowledge',
        prior: ((1 - residualPrior) * weights.get(c.id)!) / total,
        remedy: c.remedy,
        citations: citationsOf(quotes),
        quotes,
        ...(c.symptom_level ? { symptomLevel: true } : {}),
        ...(c.through_symptom.length > 0 ? { throughSymptom: c.through_symptom } : {}),
      };
    }),
    ...manual.unmatched.map((m) => ({
      ...m.hypothesis,
      prior: ((1 - residualPrior) * weights.get(m.hypothesis.id)!) / total,
    })),
    {
      id: RESIDUAL_ID,
      label: { en: 'Unknown cause', fr: 'Cause inconnue' },
      source: 'residual',
      prior: residualPrior,
      remedy: null,
      citations: [],
      quotes: [],
    },
  ];
  const flat = new Set([RESIDUAL_ID, ...manual.unmatched.map((m) => m.hypothesis.id)]);
  const uniformMix = k.settings.residual.uniform_mix;

  const affected = new Set<string>();
  for (const c of causes) for (const q of Object.keys(c.effects)) affected.add(q);

  const sourcedRanges = manualRangesFor(facts, actions, quantities, init.model, context);
  // A replacement carries the part the manual names for the one cause it clears.
  const partOf = (a: Action): { part?: ManualPart } => {
    if (!a.replacement) return {};
    const cleared = Object.keys(a.fixes ?? {});
    const part = cleared.length === 1 ? manual.parts.get(cleared[0]!) : undefined;
    return part ? { part } : {};
  };
  const modelActions: ModelAction[] = actions.map((a) => {
    const q = a.quantity ? quantities.get(a.quantity) : undefined;
    let table: OutcomeTable | null = null;
    let expected: Expected = { type: 'boolean' };
    const quotes = [...(manual.actionQuotes.get(a.id) ?? [])];
    const quote = (text: string, citation: Citation) => pushQuote(quotes, text, citation);
    let prompt = a.prompt;
    const restored = a.restores ? quantities.get(a.restores) : undefined;
    if (restored?.type === 'number') {
      const sourced = sourcedRanges.get(restored.id);
      prompt = withRange(a.prompt, sourced?.range ?? nominalFor(restored, context), restored.unit, !!sourced);
      if (sourced) quote(sourced.source.text, sourced.source.citation);
    }
    if (q) {
      expected = expectedOf(q, context);
      const sourced = sourcedRanges.get(q.id);
      if (sourced && expected.type === 'number') {
        expected = { ...expected, nominal_range: sourced.range, range_source: sourced.source };
        quote(sourced.source.text, sourced.source.citation);
      }
      const baseline = baselineOf(q);
      const rows: Record<string, number[]> = {};
      if (affected.has(q.id)) {
        for (const c of causes) {
          const effects = c.effects[q.id];
          if (effects && Object.keys(effects).length > 0) {
            rows[c.id] = withReliability(effectRow(k, q, effects, baseline), baseline, a.reliability);
          }
        }
        for (const id of flat)
          rows[id] = withReliability(flattened(baseline, uniformMix), baseline, a.reliability);
      }
      table = { outcomes: quantityOutcomes(q), baseline, rows };
    } else if (a.kind === 'repair') {
      const other = k.settings.repair.fixed_if_other;
      const rows: Record<string, number[]> = {};
      for (const [id, p] of Object.entries(a.fixes ?? {})) {
        if (weights.has(id)) rows[id] = [p, 1 - p];
      }
      const residual = k.settings.repair.fixed_if_residual;
      for (const id of flat) rows[id] = [residual, 1 - residual];
      table = { outcomes: ['true', 'false'], baseline: [other, 1 - other], rows };
    }
    return {
      id: a.id,
      kind: a.kind,
      label: a.label,
      prompt,
      source: 'knowledge',
      quantity: q?.id ?? null,
      quantityLabel: q?.label ?? null,
      expected,
      table,
      minutes: a.minutes,
      invasiveness: a.invasiveness,
      risk: a.risk,
      cost: costOf(k, a),
      replacement: a.replacement,
      warrantyRelevant: a.warranty_relevant,
      escalation: a.escalation ?? null,
      reliability: a.reliability,
      fixes: Object.fromEntries(Object.entries(a.fixes ?? {}).filter(([id]) => weights.has(id))),
      safety: a.safety ?? null,
      ...(manual.actionSafety.has(a.id) ? { manualSafety: manual.actionSafety.get(a.id)! } : {}),
      citations: citationsOf(quotes),
      quotes,
      ...partOf(a),
      ...(a.instrument ? { instrument: a.instrument } : {}),
      ...(a.restores ? { restores: a.restores } : {}),
      ...(a.located_by ? { locatedBy: a.located_by } : {}),
    };
  });

  // A manual step no knowledge action describes is asked as it stands: did it find or clear the fault?
  for (const step of manual.steps) {
    const listed = manual.listedBy.get(step.factIndex) ?? [];
    const yes = k.settings.manual.step_yes_if_listed;
    const otherwise = k.settings.manual.step_yes_otherwise;
    const rows: Record<string, number[]> = {};
    for (const id of listed) rows[id] = [yes, 1 - yes];
    rows[RESIDUAL_ID] = flattened([otherwise, 1 - otherwise], uniformMix);
    const safety = step.safety ? { en: step.safety, fr: step.safety } : null;
    const stepQuotes = step.citation ? [{ text: step.text, citation: step.citation }] : [];
    const stepAction = { kind: 'check' as const, minutes: 10, invasiveness: 2, risk: 1 };
    modelActions.push({
      id: `manual-step-${step.factIndex + 1}-${step.order}`,
      label: { en: step.text, fr: step.text },
      prompt: { en: step.text, fr: step.text },
      source: 'manual',
      quantity: null,
      quantityLabel: null,
      expected: { type: 'boolean' },
      table: { outcomes: ['true', 'false'], baseline: [otherwise, 1 - otherwise], rows },
      ...stepAction,
      cost: costOf(k, stepAction),
      replacement: anyPhraseOccurs(k.settings.manual.replacement_words, tokens(step.text)),
      warrantyRelevant: false,
      escalation: null,
      reliability: 1,
      fixes: {},
      safety,
      citations: citationsOf(stepQuotes),
      quotes: stepQuotes,
    });
  }

  const citations: Citation[] = [];
  const entryQuotes: Quote[] = [];
  for (const fact of facts) {
    if (!citations.some((c) => sameCitation(c, fact.citation))) citations.push(fact.citation);
    if (fact.excerpt) entryQuotes.push({ text: fact.excerpt, citation: fact.citation });
  }

  const s = k.settings;
  return {
    knowledgeVersion: k.version,
    hypotheses,
    actions: modelActions,
    settings: {
      threshold: init.threshold ?? s.conclusion.threshold,
      replacementThreshold: Math.max(
        init.replacementThreshold ?? s.conclusion.replacement_threshold,
        init.threshold ?? s.conclusion.threshold,
      ),
      statedReliability: s.description.stated_reliability,
      settledThreshold: Math.min(s.conclusion.settled_threshold, init.threshold ?? s.conclusion.threshold),
      residualEscalateAt: s.residual.escalate_at,
      budget: init.budget ?? s.budget_turns,
      minAnswers: s.conclusion.min_answers,
      minGainBits: s.selection.min_gain_bits,
      quickMinutes: s.selection.quick_minutes,
      glanceMinutes: s.selection.glance_minutes,
      ...(s.selection.when_led
        ? {
            whenLed: {
              lead: s.selection.when_led.lead,
              minGainBits: s.selection.when_led.min_gain_bits,
              testRepairMinFix: s.selection.when_led.test_repair_min_fix,
            },
          }
        : {}),
      quickMinGain: s.selection.quick_min_gain,
      ruleOutRatio: s.selection.rule_out_ratio,
      unansweredStreak: s.selection.unanswered_streak,
      ...(s.conclusion.suspect_at !== undefined ? { suspectAt: s.conclusion.suspect_at } : {}),
      ...(s.conclusion.separation
        ? {
            separation: {
              likelihoodRatio: s.conclusion.separation.likelihood_ratio,
              minRival: s.conclusion.separation.min_rival,
              minDistance: s.conclusion.separation.min_distance,
              ...(s.conclusion.separation.confirm_suspect ? { confirmSuspect: true } : {}),
              ...(s.conclusion.separation.confirm_conclusion ? { confirmConclusion: true } : {}),
            },
          }
        : {}),
      escalationCost: s.cost.escalation,
      ...(s.selection.instrument_penalty > 0 ? { instrumentPenalty: s.selection.instrument_penalty } : {}),
      ...(s.selection.instrument_tie_margin > 0
        ? { instrumentTieMargin: s.selection.instrument_tie_margin }
        : {}),
      ...(s.selection.leader_repair_first ? { leaderRepairFirst: true } : {}),
      ...(s.selection.hand_on_separated ? { handOnSeparated: true } : {}),
      ...(s.selection.repair_as_test ? { repairAsTest: true } : {}),
      ...(s.selection.streak_through_repairs ? { streakThroughRepairs: true } : {}),
      ...(s.selection.restore_needs_reading ? { restoreNeedsReading: true } : {}),
      ...(s.code_reading ? { codeReading: { ...s.code_reading } } : {}),
    },
    symptoms,
    named: [...named],
    stated: statedEvidence(k, init, modelActions),
    citations,
    quotes: entryQuotes,
    ...(init.noManual ? { noManual: init.noManual } : {}),
  };
}
