import { createHash } from 'node:crypto';
import type { Citation } from '../../contract/common.js';
import {
  type Action,
  type Cause,
  type EquipmentKind,
  type Knowledge,
  type Labels,
  type Quantity,
  quantityOutcomes,
} from './knowledge-schema.js';
import { manualRange } from './manual-ranges.js';
import { readStatements } from './statements.js';
import { anyPhraseOccurs, bestMatches, keywordScore, normaliseText, tokens } from './text-match.js';
import type {
  Expected,
  ManualFact,
  ManualPart,
  ModelAction,
  ModelHypothesis,
  OutcomeTable,
  Quote,
  QuotedAt,
  RangeSource,
  SessionContext,
  SessionInit,
  SessionModel,
  StatedEvidence,
} from './types.js';

export const RESIDUAL_ID = 'unknown';

/** Verbs that make a manual step a part swap rather than a check. */
const REPLACEMENT_WORDS = {
  en: ['replace*', 'change the', 'exchange the', 'renew'],
  fr: ['remplac*', 'changer l*', 'changer le', 'changer la'],
  de: ['ersetz*', 'tausch*', 'austausch*', 'wechseln'],
  es: ['sustitu*', 'reemplaz*', 'cambiar el', 'cambiar la'],
  nl: ['vervang*'],
};

function costOf(k: Knowledge, a: Pick<Action, 'kind' | 'minutes' | 'invasiveness' | 'risk'>): number {
  const c = k.settings.cost;
  if (a.kind === 'escalate') return c.escalation;
  return (
    c.overhead_minutes +
    a.minutes +
    c.per_invasiveness_level * (a.invasiveness - 1) +
    c.per_risk_level * a.risk
  );
}

function normalise(values: number[]): number[] {
  const total = values.reduce((s, v) => s + v, 0);
  return values.map((v) => v / total);
}

function baselineOf(q: Quantity): number[] {
  if (q.type === 'choice') return normalise(q.choices.map((c) => c.baseline));
  if (q.type === 'boolean') return [q.baseline_true, 1 - q.baseline_true];
  const defaults: Record<string, number> = { zero: 0.03, low: 0.1, normal: 0.77, high: 0.1 };
  return normalise(quantityOutcomes(q).map((band) => q.baseline?.[band as 'low'] ?? defaults[band]!));
}

function nominalFor(q: Extract<Quantity, { type: 'number' }>, context: SessionContext): [number, number] {
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

function expectedOf(q: Quantity, context: SessionContext): Expected {
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
function flattened(baseline: number[], uniformMix: number): number[] {
  const u = 1 / baseline.length;
  return baseline.map((b) => (1 - uniformMix) * b + uniformMix * u);
}

function effectRow(k: Knowledge, q: Quantity, effects: Record<string, string>, baseline: number[]): number[] {
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

function withReliability(row: number[], baseline: number[], reliability: number): number[] {
  if (reliability >= 1) return row;
  return row.map((p, i) => reliability * p + (1 - reliability) * baseline[i]!);
}

interface ManualHypothesis {
  hypothesis: ModelHypothesis;
  /** Indices of the facts that list it. */
  facts: number[];
}

interface ManualAnalysis {
  /** Knowledge cause id -> the manual's causes that name it, each on its page. */
  matched: Map<string, Quote[]>;
  /** Knowledge cause ids the entries list (whether or not a page was found for the words). */
  listed: Set<string>;
  /** Knowledge cause id -> the steps that speak of it, on their pages (no effect on its prior). */
  mentioned: Map<string, Quote[]>;
  unmatched: ManualHypothesis[];
  /** Knowledge action id -> the steps that describe it, on their pages. */
  actionQuotes: Map<string, Quote[]>;
  /** Knowledge action id -> the warnings the manual prints for the steps that describe it. */
  actionSafety: Map<string, string[]>;
  steps: {
    factIndex: number;
    order: number;
    text: string;
    safety: string | null;
    citation: Citation | null;
  }[];
  /** Fact index -> ids of every hypothesis the fact lists. */
  listedBy: Map<number, string[]>;
  /** Knowledge cause id -> the part the manual names for it. */
  parts: Map<string, ManualPart>;
}

/** The page that holds a text of an entry: its own (verified) page, the entry's, or none. */
function placed(at: QuotedAt, fact: ManualFact): Citation | null {
  return at === undefined ? fact.citation : at;
}

function addQuote(map: Map<string, Quote[]>, id: string, text: string, citation: Citation | null): void {
  const list = map.get(id) ?? [];
  map.set(id, list);
  if (!citation) return;
  if (!list.some((q) => q.text === text && sameCitation(q.citation, citation))) list.push({ text, citation });
}

export function sameCitation(a: Citation, b: Citation): boolean {
  return a.document_id === b.document_id && a.page === b.page && a.page_end === b.page_end;
}

/** The distinct citations of quotes, in order. */
export function citationsOf(quotes: Quote[]): Citation[] {
  const out: Citation[] = [];
  for (const q of quotes) if (!out.some((c) => sameCitation(c, q.citation))) out.push(q.citation);
  return out;
}

function analyseManual(facts: ManualFact[], causes: Cause[], actions: Action[]): ManualAnalysis {
  const matched = new Map<string, Quote[]>();
  const listedCauses = new Set<string>();
  const mentioned = new Map<string, Quote[]>();
  const actionQuotes = new Map<string, Quote[]>();
  const actionSafety = new Map<string, string[]>();
  const byText = new Map<string, ManualHypothesis>();
  const unmatched: ManualHypothesis[] = [];
  const steps: ManualAnalysis['steps'] = [];
  const listedBy = new Map<number, string[]>();
  const parts = new Map<string, ManualPart>();

  facts.forEach((fact, factIndex) => {
    const listed: string[] = [];
    fact.causes.forEach((text, i) => {
      if (!text.trim()) return;
      const printed = fact.causeQuotes?.[i];
      const at = printed === undefined ? fact.citation : (printed?.citation ?? null);
      const quoted = printed?.text ?? text.trim();
      const winners = bestMatches(causes, text);
      if (winners.length > 0) {
        for (const cause of winners) {
          addQuote(matched, cause.id, quoted, at);
          listedCauses.add(cause.id);
          listed.push(cause.id);
        }
        return;
      }
      const key = normaliseText(text);
      let entry = byText.get(key);
      if (!entry) {
        entry = {
          hypothesis: {
            id: `manual-${unmatched.length + 1}`,
            label: { en: text.trim(), fr: text.trim() },
            source: 'manual',
            prior: 0,
            remedy: null,
            citations: [],
            quotes: [],
          },
          facts: [],
        };
        byText.set(key, entry);
        unmatched.push(entry);
      }
      const quotes = entry.hypothesis.quotes!;
      if (at && !quotes.some((q) => sameCitation(q.citation, at)))
        quotes.push({ text: quoted, citation: at });
      entry.hypothesis.citations = citationsOf(quotes);
      entry.facts.push(factIndex);
      listed.push(entry.hypothesis.id);
    });
    listedBy.set(factIndex, listed);

    for (const step of [...fact.steps].sort((a, b) => a.order - b.order)) {
      if (!step.text.trim()) continue;
      const at = placed(step.citation, fact);
      const text = step.text.trim();
      // A step that names a cause ("points to a blocked circulator") is the page that supports it.
      for (const cause of bestMatches(causes, step.text)) addQuote(mentioned, cause.id, text, at);
      const winners = bestMatches(actions, step.text);
      if (winners.length > 0) {
        for (const action of winners) {
          addQuote(actionQuotes, action.id, text, at);
          // The manual's warning for the step goes with the action that stands for it.
          if (step.safety) {
            const list = actionSafety.get(action.id) ?? [];
            if (!list.includes(step.safety)) list.push(step.safety);
            actionSafety.set(action.id, list);
          }
        }
      } else {
        steps.push({ factIndex, order: step.order, text, safety: step.safety, citation: at });
      }
    }
    // The part the entry names goes with the cause its name speaks of (a flow switch, a circulator).
    if (fact.part)
      for (const cause of bestMatches(causes, fact.part.name)) {
        if (!parts.has(cause.id)) parts.set(cause.id, fact.part);
      }
  });
  return {
    matched,
    listed: listedCauses,
    mentioned,
    unmatched,
    actionQuotes,
    actionSafety,
    steps,
    listedBy,
    parts,
  };
}

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
  const stated = readStatements(
    k.statements,
    init.symptom ?? '',
    k.settings.description.stated_window,
    readable,
  );
  return stated.map((r) => ({ ...r, action_id: readingActionOf(actions, r.quantity)!.id }));
}

/** A repair's prompt with the range it restores, saying whether the manual or a general figure gives it. */
function withRange(prompt: Labels, range: [number, number], unit: string, fromManual: boolean): Labels {
  const [lo, hi] = range;
  return {
    en: `${prompt.en} ${fromManual ? 'The manual gives' : 'General figure (the manual gives none):'} ${lo} to ${hi} ${unit}.`,
    fr: `${prompt.fr} ${fromManual ? 'Le manuel donne' : 'Valeur générale (le manuel n’en donne pas) :'} ${lo} à ${hi} ${unit}.`,
  };
}

/**
 * The nominal ranges the manual's entry for the code states, by quantity: they replace the knowledge's
 * general figures when they are usable (inside the plausible range, wider than the soft margins).
 */
function manualRangesFor(
  facts: ManualFact[],
  actions: Action[],
  quantities: Map<string, Quantity>,
  model: string,
  context: SessionContext,
): Map<string, { range: [number, number]; source: Extract<RangeSource, { kind: 'manual' }> }> {
  const out = new Map<
    string,
    { range: [number, number]; source: Extract<RangeSource, { kind: 'manual' }> }
  >();
  if (facts.length === 0) return out;
  const numbers = [...new Set(actions.map((a) => a.quantity).filter((id): id is string => !!id))]
    .map((id) => quantities.get(id))
    .filter((q): q is Extract<Quantity, { type: 'number' }> => q?.type === 'number');
  for (const q of numbers) {
    const readers = actions.filter((a) => a.quantity === q.id);
    const found = manualRange(
      facts,
      {
        unit: q.unit,
        names: (sentence) => readers.some((a) => anyPhraseOccurs(a.keywords, tokens(sentence))),
        onlyOfUnit: numbers.filter((o) => o.unit === q.unit).length === 1,
      },
      model,
    );
    if (!found) continue;
    const general = nominalFor(q, context);
    const low = found.low ?? Math.min(general[0], (found.high ?? general[1]) - 4 * q.margin);
    const high = found.high ?? Math.max(general[1], low + 4 * q.margin);
    if (low < q.plausible[0] || high > q.plausible[1] || high - low <= 2 * q.margin) continue;
    out.set(q.id, {
      range: [low, high],
      source: { kind: 'manual', citation: found.citation, text: found.text, stated: [found.low, found.high] },
    });
  }
  return out;
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
    const quote = (text: string, citation: Citation) => {
      if (!quotes.some((o) => o.text === text && sameCitation(o.citation, citation)))
        quotes.push({ text, citation });
    };
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
      replacement: anyPhraseOccurs(REPLACEMENT_WORDS, tokens(step.text)),
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
            },
          }
        : {}),
      escalationCost: s.cost.escalation,
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
