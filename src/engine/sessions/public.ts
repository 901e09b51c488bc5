import type { Citation } from '../../contract/common.js';
import type {
  ExpectedResponse,
  ManualCoverage,
  ManualQuote,
  NextAction,
  Session,
  SessionEquipment,
  SessionHistoryEntry,
  SessionHypothesis,
  SessionOutcome,
  SessionSummary,
  StatedReading,
} from '../../contract/sessions.js';
import type { Labels } from './knowledge-schema.js';
import { nextLocating } from './located.js';
import { RESIDUAL_ID, readingActionOf } from './model.js';
import { pushQuote, sameCitation } from './quotes.js';
import { posteriorsByTurn, quantitiesWithValue, readingsOf, statedInForce } from './session.js';
import type { ModelAction, Quote, SessionState } from './types.js';

export type Language = 'en' | 'fr';

export interface PublicOptions {
  lang?: Language;
}

const REPAIR_QUESTION: Labels = { en: 'Did the fault clear?', fr: 'Le défaut a-t-il disparu ?' };
const STEP_QUESTION: Labels = {
  en: 'Did this step find or clear the fault?',
  fr: 'Cette étape a-t-elle trouvé ou supprimé le défaut ?',
};

function round(p: number): number {
  return Math.round(p * 1e6) / 1e6;
}

function text(labels: Labels, lang: Language): string {
  return labels[lang];
}

function quotesOf(quotes: Quote[] | undefined): ManualQuote[] {
  return (quotes ?? []).map((q) => ({ excerpt: q.text, citation: q.citation }));
}

/** The quotes of several parts, each page's words once (quotes.ts: a quote held in a longer one goes). */
function uniqueQuotes(lists: ManualQuote[][]): ManualQuote[] {
  const kept: Quote[] = [];
  for (const list of lists) for (const q of list) pushQuote(kept, q.excerpt, q.citation);
  return kept.map((q) => ({ excerpt: q.text, citation: q.citation }));
}

/** The warnings of a step: the general one, then the manual's own for the steps it stands for. */
function safetyOf(action: ModelAction, lang: Language): string | null {
  const notes = [
    ...(action.safety ? [text(action.safety, lang)] : []),
    ...(action.manualSafety ?? []).map((w) => `${lang === 'fr' ? 'Le manuel' : 'The manual'}: ${w}`),
  ];
  return notes.length > 0 ? notes.join(' ') : null;
}

function uniqueCitations(lists: Citation[][]): Citation[] {
  const out: Citation[] = [];
  for (const list of lists) for (const c of list) if (!out.some((o) => sameCitation(o, c))) out.push(c);
  return out;
}

/** The prompt as shown: a repair or a manual step ends with the question its yes/no answers. */
export function actionPrompt(action: ModelAction, lang: Language): string {
  const prompt = text(action.prompt, lang);
  if (action.kind === 'repair') return `${prompt} ${text(REPAIR_QUESTION, lang)}`;
  if (action.source === 'manual') return `${prompt} ${text(STEP_QUESTION, lang)}`;
  return prompt;
}

function expectedOf(action: ModelAction, lang: Language): ExpectedResponse {
  const e = action.expected;
  if (e.type === 'number') {
    const out: ExpectedResponse = { type: 'number', unit: e.unit, nominal_range: e.nominal_range };
    if (e.plausible_range) out.plausible_range = e.plausible_range;
    if (e.range_source?.kind === 'manual') {
      const { citation, text: sentence, stated } = e.range_source;
      out.range_source = { kind: 'manual', citation, excerpt: sentence, stated };
    } else if (e.range_source) out.range_source = { kind: 'knowledge' };
    return out;
  }
  if (e.type === 'choice')
    return { type: 'choice', choices: e.choices.map((c) => ({ id: c.id, label: text(c.label, lang) })) };
  return { type: 'boolean' };
}

export function publicAction(action: ModelAction, lang: Language = 'en'): NextAction {
  const out: NextAction = {
    id: action.id,
    kind: action.kind,
    label: text(action.label, lang),
    prompt: actionPrompt(action, lang),
    expected: expectedOf(action, lang),
    minutes: action.minutes,
    safety: safetyOf(action, lang),
    source: action.source,
    citations: action.citations,
    quotes: quotesOf(action.quotes),
  };
  if (action.part) out.part = { ...action.part };
  return out;
}

function equipmentOf(state: SessionState): SessionEquipment {
  const e = state.equipment;
  const out: SessionEquipment = { brand: e.brand, model: e.model, equipment: e.kind };
  if (e.code !== null) out.error_code = e.code;
  if (e.symptom !== null) out.symptom = e.symptom;
  if (Object.keys(e.context).length > 0) out.context = { ...e.context };
  return out;
}

function hypothesesOf(state: SessionState, lang: Language): SessionHypothesis[] {
  const order = new Map(state.model.hypotheses.map((h, i) => [h.id, i]));
  return state.model.hypotheses
    .map((h) => ({
      id: h.id,
      label: text(h.label, lang),
      probability: round(state.posterior[h.id] ?? 0),
      source: h.source,
      citations: h.citations,
      quotes: quotesOf(h.quotes),
    }))
    .sort((a, b) => b.probability - a.probability || order.get(a.id)! - order.get(b.id)!);
}

function actionById(state: SessionState, id: string): ModelAction {
  return state.model.actions.find((a) => a.id === id)!;
}

/**
 * The repairs a hand-on leaves, each with what must come before it: a part swap waits for a check that
 * confirms the part, a repair that brings a reading back into range (a top-up) for that reading, and a
 * repair of a defect someone must first find for the first reading that finds it.
 */
function repairPlanOf(state: SessionState, ids: string[], lang: Language): SessionOutcome['repair_plan'] {
  const read = ids.length > 0 ? quantitiesWithValue(state) : new Set<string>();
  const readings = ids.length > 0 ? readingsOf(state) : new Map();
  return ids.map((id) => {
    const step = actionById(state, id);
    const locating = nextLocating(readings, step);
    const reading =
      step.restores && !read.has(step.restores)
        ? readingActionOf(state.model.actions, step.restores)
        : locating
          ? readingActionOf(state.model.actions, locating)
          : undefined;
    const readingLabel = reading ? text(reading.label, lang) : null;
    return {
      id,
      label: text(step.label, lang),
      part_swap: step.replacement === true,
      reading_first: reading ? { id: reading.id, label: readingLabel! } : null,
      condition: step.replacement
        ? text(PART_SWAP_CONDITION, lang)
        : readingLabel
          ? `${text(READING_FIRST_CONDITION, lang)} ${lowerFirst(readingLabel)}`
          : null,
    };
  });
}

const PART_SWAP_CONDITION: Labels = {
  en: 'only once a check confirms the part',
  fr: 'seulement quand un contrôle a confirmé la pièce',
};
const READING_FIRST_CONDITION: Labels = { en: 'only after this reading:', fr: 'seulement après ce relevé :' };

/** "Read the water ΔT" -> "read the water ΔT": the first letter only, so that units and names keep theirs. */
function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

const BAND_LABELS: Record<string, Labels> = {
  zero: { en: 'Zero', fr: 'Nul' },
  low: { en: 'Low', fr: 'Bas' },
  normal: { en: 'Normal', fr: 'Normal' },
  high: { en: 'High', fr: 'Élevé' },
  true: { en: 'Yes', fr: 'Oui' },
  false: { en: 'No', fr: 'Non' },
};

/** What the description states, and whether a reading taken on site has replaced it. */
function statedOf(state: SessionState, lang: Language): StatedReading[] {
  const inForce = new Set(statedInForce(state).map((e) => e.stated.quantity));
  return (state.model.stated ?? []).map((stated) => {
    const action = actionById(state, stated.action_id);
    const choice =
      action.expected.type === 'choice'
        ? action.expected.choices.find((c) => c.id === stated.outcome)
        : undefined;
    const outcomeLabel = choice ? choice.label : BAND_LABELS[stated.outcome];
    return {
      quantity: stated.quantity,
      label: action.quantityLabel ? text(action.quantityLabel, lang) : stated.quantity,
      outcome: stated.outcome,
      outcome_label: outcomeLabel ? text(outcomeLabel, lang) : stated.outcome,
      phrase: stated.phrase,
      superseded: !inForce.has(stated.quantity),
    };
  });
}

/** Each answer with the hypothesis that led after it. */
function historyOf(state: SessionState, lang: Language): SessionHistoryEntry[] {
  const trail = posteriorsByTurn(state);
  return state.history.map((item, i) => {
    const action = actionById(state, item.action_id);
    const p = trail[i]!;
    let top = { id: RESIDUAL_ID, probability: 0 };
    for (const h of state.model.hypotheses) {
      const ph = p[h.id] ?? 0;
      if (ph > top.probability) top = { id: h.id, probability: ph };
    }
    return {
      turn: item.turn,
      action_id: action.id,
      kind: action.kind,
      prompt: actionPrompt(action, lang),
      value: 'value' in item.answer ? item.answer.value : { unknown: true as const },
      ...('given' in item.answer && item.answer.given ? { given: item.answer.given } : {}),
      expected: expectedOf(action, lang),
      top_hypothesis: { id: top.id, probability: round(top.probability) },
      citations: action.citations,
      quotes: quotesOf(action.quotes),
    };
  });
}

function outcomeOf(state: SessionState, lang: Language): SessionOutcome | undefined {
  const o = state.outcome;
  if (!o) return undefined;
  const cause = o.cause_id ? state.model.hypotheses.find((h) => h.id === o.cause_id) : undefined;
  const action = o.action_id ? actionById(state, o.action_id) : undefined;
  return {
    kind: o.kind,
    reason: o.reason,
    cause: cause
      ? { id: cause.id, label: text(cause.label, lang), probability: round(o.probability ?? 0) }
      : null,
    action: action
      ? {
          id: action.id,
          kind: action.kind,
          label: text(action.label, lang),
          prompt: text(action.prompt, lang),
          source: action.source,
          ...(action.part ? { part: { ...action.part } } : {}),
          safety: safetyOf(action, lang),
        }
      : null,
    escalation: o.escalation,
    repair_plan: repairPlanOf(state, o.repair_plan, lang),
    citations: uniqueCitations([
      cause?.citations ?? [],
      action?.citations ?? [],
      action?.part?.citation ? [action.part.citation] : [],
      cause?.source === 'manual' ? entryCitations(state) : [],
    ]),
    quotes: uniqueQuotes([
      quotesOf(cause?.quotes),
      quotesOf(action?.quotes),
      action?.part?.citation
        ? [partQuote(action.part.name, action.part.reference, action.part.citation)]
        : [],
      cause?.source === 'manual' ? quotesOf(state.model.quotes) : [],
    ]),
  };
}

/** What the part's page was found to print: its reference (its name when it has none). */
function partQuote(name: string, reference: string | null, citation: Citation): ManualQuote {
  return { excerpt: reference ?? name, citation };
}

/**
 * The entries' own pages, cited only with the row each holds: sessions stored before quotes carry
 * no row text, and then their pages are still shown as they were.
 */
function entryCitations(state: SessionState): Citation[] {
  const quotes = state.model.quotes;
  return quotes === undefined ? state.model.citations : quotes.map((q) => q.citation);
}

const NO_MANUAL: Record<'brand' | 'model' | 'code', { status: ManualCoverage['status'] }> = {
  brand: { status: 'no_brand' },
  model: { status: 'no_model' },
  code: { status: 'no_entry' },
};

/** What the corpus holds for the unit, and what to tell the technician first when it lacks a manual. */
export function coverageOf(state: SessionState, lang: Language = 'en'): ManualCoverage {
  const missing = state.model.noManual;
  const { brand, model, code } = state.equipment;
  if (!missing) {
    if (state.model.citations.length > 0) return { status: 'entry', message: null };
    return { status: 'no_entry', message: null };
  }
  const fr = lang === 'fr';
  const general = fr
    ? 'les étapes proposées sont des conseils généraux, sans page de manuel.'
    : 'the steps below are general guidance, with no manual page behind them.';
  const message =
    missing === 'brand'
      ? fr
        ? `Aucun manuel de la marque ${brand} n’est connu : ${general}`
        : `No manual of ${brand} is known: ${general}`
      : missing === 'model'
        ? fr
          ? `Aucun manuel du modèle ${brand} ${model} n’est connu : ${general}`
          : `No manual of the ${brand} ${model} is known: ${general}`
        : fr
          ? `Les manuels du ${brand} ${model} ne documentent pas le code ${code} : ${general}`
          : `The manuals of the ${brand} ${model} do not document code ${code}: ${general}`;
  return { status: NO_MANUAL[missing].status, message };
}

/** The session as the contract shows it (REST body, MCP structured content, CLI view). */
export function toPublic(state: SessionState, options: PublicOptions = {}): Session {
  const lang = options.lang ?? state.language ?? 'en';
  const next = state.next_action_id ? actionById(state, state.next_action_id) : undefined;
  const session: Session = {
    id: state.id,
    status: state.status,
    language: lang,
    equipment: equipmentOf(state),
    hypotheses: hypothesesOf(state, lang),
    stated_readings: statedOf(state, lang),
    next_action: next ? publicAction(next, lang) : null,
    history: historyOf(state, lang),
    turns: { used: state.history.length, budget: state.model.settings.budget },
    manual_coverage: coverageOf(state, lang),
  };
  const outcome = outcomeOf(state, lang);
  if (outcome) session.outcome = outcome;
  return session;
}

/** The path taken, the outcome, and every page cited along the way. */
export function summary(state: SessionState, options: PublicOptions = {}): SessionSummary {
  const lang = options.lang ?? state.language ?? 'en';
  const path = historyOf(state, lang);
  const outcome = outcomeOf(state, lang) ?? null;
  return {
    session_id: state.id,
    status: state.status,
    language: lang,
    equipment: equipmentOf(state),
    stated_readings: statedOf(state, lang),
    path,
    outcome,
    citations: uniqueCitations([
      entryCitations(state),
      ...state.model.hypotheses.map((h) => h.citations),
      ...path.map((p) => p.citations),
      outcome?.citations ?? [],
    ]),
    quotes: uniqueQuotes([
      quotesOf(state.model.quotes),
      ...state.model.hypotheses.map((h) => quotesOf(h.quotes)),
      ...path.map((p) => p.quotes),
      outcome?.quotes ?? [],
    ]),
    manual_coverage: coverageOf(state, lang),
  };
}
