import {
  ActionMismatchError,
  InvalidResponseError,
  NothingToUndoError,
  SessionClosedError,
  SessionError,
  SessionFinishedError,
} from './errors.js';
import { answerWeights, type Distribution, priorOf, update } from './inference.js';
import type { Knowledge } from './knowledge-schema.js';
import { compileModel, readingActionOf, sessionId } from './model.js';
import { closedOutcome, decide, type Situation, WARRANTY_QUANTITY } from './policy.js';
import type { Reading } from './situation.js';
import type {
  Answer,
  AnswerValue,
  ModelAction,
  Response,
  SessionInit,
  SessionState,
  StatedEvidence,
} from './types.js';
import { toStepUnit } from './units.js';

function actionOf(state: Pick<SessionState, 'model' | 'id'>, id: string): ModelAction {
  const action = state.model.actions.find((a) => a.id === id);
  if (!action)
    throw new SessionError('invalid_session', `session ${state.id} refers to unknown action ${id}`);
  return action;
}

/** Quantities with a value taken on site: an initial reading or an answer. */
function measuredQuantities(state: SessionState): Set<string> {
  const measured = new Set<string>();
  for (const r of state.initial_readings) measured.add(r.quantity);
  for (const item of state.history) {
    const quantity = actionOf(state, item.action_id).quantity;
    if (quantity && 'value' in item.answer) measured.add(quantity);
  }
  return measured;
}

/**
 * The readings stated in the description that still count, with the soft evidence each gives: a
 * stated outcome keeps its likelihood, every other one is scaled by 1 - reliability. A reading of the
 * quantity taken on site replaces the statement (counting both would count one fact twice).
 */
export function statedInForce(
  state: SessionState,
): { stated: StatedEvidence; action: ModelAction; weights: number[] }[] {
  const reliability = state.model.settings.statedReliability ?? 0;
  if (reliability <= 0) return [];
  const measured = measuredQuantities(state);
  return (state.model.stated ?? [])
    .filter((stated) => !measured.has(stated.quantity))
    .map((stated) => {
      const action = actionOf(state, stated.action_id);
      // A told fact (how the pressure behaved) stated by the caller is the answer itself.
      const weight = stated.told ? 1 : reliability;
      // A stated number weighs each band as its answer would (a value at a range's end counts for both),
      // softened like any statement.
      const exact =
        stated.value !== undefined
          ? answerWeights(action, stated.value)
          : (action.table?.outcomes ?? []).map((o) => (o === stated.outcome ? 1 : 0));
      const weights = exact.map((w) => 1 - weight * (1 - w));
      return { stated, action, weights };
    });
}

/**
 * What a session opened on a fault code already knows: the display shows a code. Nothing when the
 * session has no code, the knowledge names no such reading, or the quantity was read on site.
 */
function codeEvidence(state: SessionState): { action: ModelAction; outcome: string } | null {
  const reading = state.model.settings.codeReading;
  if (!state.equipment.code || !reading) return null;
  if (measuredQuantities(state).has(reading.quantity)) return null;
  const action = readingActionOf(state.model.actions, reading.quantity);
  return action ? { action, outcome: reading.outcome } : null;
}

/**
 * Replays the stated readings, the initial readings and the answers from the priors: the posterior
 * and what they leave known. `afterTurn` sees the posterior after each answer of the history.
 */
function replay(state: SessionState, afterTurn?: (posterior: Distribution) => void): Situation {
  const model = state.model;
  let posterior: Distribution = priorOf(model);
  const answered = new Set<string>();
  const valued = new Set<string>();
  const quantityReliability = new Map<string, number>();
  const readings = new Map<string, Reading>();
  let warranty: boolean | null = null;
  let answers = 0;
  let asked = 0;
  let unknown = 0;
  let streak = 0;
  const resolvedBy: string[] = [];

  const apply = (action: ModelAction, value: AnswerValue) => {
    answers += 1;
    valued.add(action.id);
    const weights = answerWeights(action, value);
    posterior = update(model, posterior, action, weights);
    if (action.quantity && action.table) readings.set(action.quantity, { action, weights });
    if (action.kind === 'repair' && value === true) resolvedBy.push(action.id);
    if (action.quantity) {
      quantityReliability.set(
        action.quantity,
        Math.max(quantityReliability.get(action.quantity) ?? 0, action.reliability),
      );
      if (action.quantity === WARRANTY_QUANTITY && typeof value === 'boolean') warranty = value;
    }
  };
  for (const evidence of statedInForce(state)) {
    // Not counted among the answers: the description alone never closes a case.
    posterior = update(model, posterior, evidence.action, evidence.weights);
    if (evidence.stated.told) {
      // Told: the question is not asked again, and its answer tells causes apart as an answer does.
      answered.add(evidence.action.id);
      valued.add(evidence.action.id);
    }
    quantityReliability.set(evidence.action.quantity!, model.settings.statedReliability ?? 0);
    if (evidence.action.table) readings.set(evidence.action.quantity!, evidence);
    if (evidence.action.quantity === WARRANTY_QUANTITY) warranty = evidence.stated.outcome === 'true';
  }
  const fromCode = codeEvidence(state);
  if (fromCode) {
    // Not counted among the answers either: the code is what opened the session.
    answered.add(fromCode.action.id);
    valued.add(fromCode.action.id);
    posterior = update(model, posterior, fromCode.action, answerWeights(fromCode.action, fromCode.outcome));
  }
  for (const reading of state.initial_readings) {
    const action = actionOf(state, reading.action_id);
    answered.add(action.id);
    apply(action, reading.value);
  }
  for (const item of state.history) {
    const action = actionOf(state, item.action_id);
    answered.add(action.id);
    if (action.kind !== 'repair' && action.kind !== 'escalate') {
      asked += 1;
      if (!('value' in item.answer)) unknown += 1;
    }
    if ('value' in item.answer) apply(action, item.answer.value);
    // A repair carried out says nothing of what the technician can read: with `streakThroughRepairs`
    // it does not end a streak of unread checks.
    if ('value' in item.answer) {
      if (action.kind !== 'repair' || !model.settings.streakThroughRepairs) streak = 0;
    } else streak += 1;
    afterTurn?.(posterior);
  }
  return {
    model,
    posterior,
    answered,
    valued,
    quantityReliability,
    readings,
    turnsUsed: state.history.length,
    answers,
    // Laplace's rule on the checks asked so far: how often this technician can read what is asked.
    readable: (asked - unknown + 1) / (asked + 2),
    unansweredStreak: streak,
    warranty,
    resolvedBy,
  };
}

/** The last answer with a value of each quantity: read on site, given at the start, or stated. */
export function readingsOf(state: SessionState): Map<string, Reading> {
  return replay(state).readings;
}

/** The quantities the session has a value for: read on site, given at the start, or stated. */
export function quantitiesWithValue(state: SessionState): Set<string> {
  return new Set(replay(state).quantityReliability.keys());
}

/** The posterior after each answer of the history, as the session weighed it. */
export function posteriorsByTurn(state: SessionState): Distribution[] {
  const trail: Distribution[] = [];
  replay(state, (posterior) => trail.push(posterior));
  return trail;
}

/** Recomputes the beliefs and takes the next decision: the next action, or the outcome. */
function evaluate(state: SessionState): SessionState {
  const situation = replay(state);
  const decision = decide(situation);
  const base = { ...state, posterior: situation.posterior, closed_from: null };
  if (decision.kind === 'ask') {
    return { ...base, status: 'active', next_action_id: decision.actionId, outcome: null };
  }
  return { ...base, status: decision.status, next_action_id: null, outcome: decision.outcome };
}

function readingAction(state: SessionState, quantity: string): ModelAction {
  const action = readingActionOf(state.model.actions, quantity);
  if (!action) {
    throw new InvalidResponseError(`quantity ${quantity} is not known for ${state.equipment.kind} equipment`);
  }
  return action;
}

/**
 * Opens a session: builds its model (hypotheses from the knowledge and the manual's facts, with the
 * symptoms recognised in the description), applies the readings already taken, and chooses the first
 * action. Deterministic: equal inputs and knowledge give equal states.
 */
export function createSession(knowledge: Knowledge, init: SessionInit): SessionState {
  const model = compileModel(knowledge, init);
  const state: SessionState = {
    format: 'heatsource.session/1',
    id: init.id ?? sessionId(knowledge, init),
    status: 'active',
    ...(init.language && init.language !== 'en' ? { language: init.language } : {}),
    equipment: {
      kind: init.equipment,
      brand: init.brand,
      model: init.model,
      code: init.code ?? null,
      symptom: init.symptom ?? null,
      context: init.context ?? {},
    },
    model,
    initial_readings: [],
    history: [],
    posterior: {},
    next_action_id: null,
    outcome: null,
    closed_from: null,
  };
  for (const reading of init.readings ?? []) {
    const action = readingAction(state, reading.quantity);
    const answer = inStepUnit(action, reading.value);
    answerWeights(action, answer.value);
    if (state.initial_readings.some((r) => r.action_id === action.id)) {
      throw new InvalidResponseError(`quantity ${reading.quantity} is given twice`);
    }
    state.initial_readings.push({ action_id: action.id, quantity: reading.quantity, ...answer });
  }
  return evaluate(state);
}

/** The pending action, or null when the session has concluded, escalated or closed. */
export function nextAction(state: SessionState): ModelAction | null {
  return state.next_action_id ? actionOf(state, state.next_action_id) : null;
}

/**
 * A value as the step takes it: a number may come as a string with its unit ("20 psi"), converted to
 * the step's unit and remembered as given; anything else stands as it is.
 */
function inStepUnit(action: ModelAction, value: AnswerValue): { value: AnswerValue; given?: string } {
  if (action.expected.type !== 'number' || typeof value !== 'string') return { value };
  const converted = toStepUnit(value, action.expected.unit);
  return converted.given ? { value: converted.value, given: converted.given } : { value: converted.value };
}

function parseAnswer(action: ModelAction, value: Response['value']): Answer {
  if (typeof value === 'object' && value !== null) {
    if ((value as { unknown?: unknown }).unknown === true && Object.keys(value).length === 1)
      return { unknown: true };
    throw new InvalidResponseError('an answer is a boolean, a number, a string, or {"unknown": true}');
  }
  const answer = inStepUnit(action, value);
  answerWeights(action, answer.value);
  return answer;
}

/**
 * Records the answer to the pending action and moves on. "Unknown" is not evidence: the
 * probabilities stay as they were and the action is not asked again.
 */
export function respond(state: SessionState, response: Response): SessionState {
  if (state.status === 'closed') throw new SessionClosedError(state.id);
  if (state.status !== 'active' || !state.next_action_id)
    throw new SessionFinishedError(state.id, state.status);
  if (response.action_id !== state.next_action_id) {
    throw new ActionMismatchError(state.next_action_id, response.action_id);
  }
  const action = actionOf(state, response.action_id);
  const answer = parseAnswer(action, response.value);
  const history = [...state.history, { turn: state.history.length + 1, action_id: action.id, answer }];
  return evaluate({ ...state, history });
}

/** Takes back the last answer: the session is replayed without it (a concluded session reopens). */
export function undo(state: SessionState): SessionState {
  if (state.status === 'closed') throw new SessionClosedError(state.id);
  if (state.history.length === 0) throw new NothingToUndoError(state.id);
  return evaluate({ ...state, history: state.history.slice(0, -1) });
}

/** Closes the session; closing a closed session changes nothing. */
export function close(state: SessionState): SessionState {
  if (state.status === 'closed') return state;
  const outcome = state.status === 'active' ? closedOutcome(replay(state)) : state.outcome;
  return { ...state, status: 'closed', closed_from: state.status, next_action_id: null, outcome };
}
