import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Citation } from '../../contract/common.js';
import type { DiagnosticTurnRequest, DiagnosticTurnResponse } from '../../contract/diagnostic.js';
import type { ProblemCode } from '../../contract/problems.js';
import type { SessionRef, SessionRespondRequest } from '../../contract/session-requests.js';
import type { CreateSessionRequest, Session, SessionSummary } from '../../contract/sessions.js';
import { DEFAULT_MAX_OPEN_SESSIONS } from '../../state/quota.js';
import type { SessionRecord, SessionWrite, StateStore } from '../../state/types.js';
import type { ServiceContext, ServiceResult } from '../context.js';
import type { CorpusView } from '../corpus.js';
import { type FieldError, ServiceError } from '../errors.js';
import { type ManualContext, manualContext, noManualOf } from '../session-manual.js';
import {
  close,
  createSession,
  type Knowledge,
  loadKnowledge,
  type Response,
  respond,
  SessionError,
  type SessionErrorCode,
  type SessionState,
  sessionInitFromRequest,
  summary,
  toPublic,
  undo,
} from './index.js';

type StoredModel = SessionState['model'];
type Mutable = Omit<SessionState, 'model'>;

/** The engine's refusals, by the problem code each becomes; a corrupt session is an internal error. */
const ENGINE_PROBLEMS: Partial<Record<SessionErrorCode, ProblemCode>> = {
  session_closed: 'session_closed',
  session_finished: 'session_finished',
  action_mismatch: 'action_mismatch',
  invalid_response: 'invalid_response',
  nothing_to_undo: 'nothing_to_undo',
};

function engine<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    const code = err instanceof SessionError ? ENGINE_PROBLEMS[err.code] : undefined;
    if (code) throw new ServiceError(code, (err as Error).message);
    throw err;
  }
}

/** Session ids carry 128 random bits: unguessable, although ownership is checked on every access anyway. */
export function newSessionId(): string {
  return `ds_${crypto.randomBytes(16).toString('base64url')}`;
}

/**
 * Parsed models of recently used sessions, by session id, parsed from the stored JSON (the memo's context)
 * on a miss; a model never changes once its session is created.
 */
function modelCache(max: number) {
  return new LRUCache<string, StoredModel, string>({
    max,
    memoMethod: (_id, _stale, { context }) => JSON.parse(context) as StoredModel,
  });
}

export interface SessionServiceOptions {
  /** The troubleshooting knowledge, or how to load it (default: data/knowledge, on the first start). */
  knowledge?: Knowledge | (() => Knowledge);
  /** Open sessions one API key may hold (DEFAULT_MAX_OPEN_SESSIONS); calls without a key are not capped. */
  maxOpenSessions?: number;
}

function fieldProblem(errors: FieldError[]): ServiceError {
  return new ServiceError('validation_failed', `invalid field(s): ${errors.map((e) => e.field).join(', ')}`, {
    errors,
  });
}

/**
 * Guided troubleshooting sessions over the service layer: the manual's facts for the code and model
 * from the bundle, persistence in the state store (the session is written in the same transaction as
 * the charge and the idempotency record), ownership by account, and the engine's refusals as problems.
 */
export class SessionService {
  private loaded?: Knowledge;
  private readonly models = modelCache(256);

  constructor(
    private readonly view: CorpusView,
    private readonly state: StateStore,
    private readonly options: SessionServiceOptions = {},
  ) {}

  /** The knowledge if a session start loaded it already. */
  loadedKnowledge(): Knowledge | undefined {
    return this.loaded;
  }

  /** Loaded on the first session start: reading a session never needs it, its model travels with it. */
  knowledge(): Knowledge {
    if (!this.loaded) {
      const k = this.options.knowledge;
      this.loaded = typeof k === 'function' ? k() : (k ?? loadKnowledge());
    }
    return this.loaded;
  }

  /**
   * The entries of the model's own manuals for the code, as the engine takes them: causes, steps with
   * their safety notes, the part, and the citation the v1 diagnostic gives the entry. Each cause, step
   * and part reference is cited on the page whose text holds it (the procedure's page for a step, not
   * the table row's), or on none when no page does. None when the model does not resolve to one model
   * of the corpus (a range name, an unknown name) or its manuals lack the code; `missing` says which.
   */
  manualContext(brand: string, model: string, code: string | undefined): ManualContext {
    return manualContext(this.view, brand, model, code);
  }

  async create(ctx: ServiceContext, request: CreateSessionRequest): Promise<ServiceResult<Session>> {
    const state = this.open(request);
    return { ...this.written(ctx, null, state, toPublic(state)), status: 201, billable: true };
  }

  async get(ctx: ServiceContext, ref: SessionRef): Promise<ServiceResult<Session>> {
    const { state } = await this.load(ctx, ref.session_id);
    return { status: 200, body: toPublic(state), billable: false };
  }

  async respond(ctx: ServiceContext, input: SessionRespondRequest): Promise<ServiceResult<Session>> {
    const { record, state } = await this.load(ctx, input.session_id);
    const value: Response['value'] = input.unknown ? { unknown: true } : input.value!;
    const next = engine(() => respond(state, { action_id: input.action_id, value }));
    return this.written(ctx, record, next, toPublic(next));
  }

  async undo(ctx: ServiceContext, ref: SessionRef): Promise<ServiceResult<Session>> {
    const { record, state } = await this.load(ctx, ref.session_id);
    const next = engine(() => undo(state));
    return this.written(ctx, record, next, toPublic(next));
  }

  async close(ctx: ServiceContext, ref: SessionRef): Promise<ServiceResult<Session>> {
    const { record, state } = await this.load(ctx, ref.session_id);
    if (state.status === 'closed') return { status: 200, body: toPublic(state), billable: false };
    const next = close(state);
    return this.written(ctx, record, next, toPublic(next));
  }

  async summary(ctx: ServiceContext, ref: SessionRef): Promise<ServiceResult<SessionSummary>> {
    const { state } = await this.load(ctx, ref.session_id);
    return { status: 200, body: summary(state), billable: false };
  }

  /**
   * One turn of a /v1 conversation, which is a session of an Air/Water unit: the first turn starts it
   * (billable), each later one records the answer to the pending action (free), or, without an answer,
   * repeats where the conversation stands.
   */
  async turn(
    ctx: ServiceContext,
    input: DiagnosticTurnRequest,
  ): Promise<ServiceResult<DiagnosticTurnResponse>> {
    if (!input.conversation_id) return this.firstTurn(ctx, input);
    const { record, state } = await this.load(ctx, input.conversation_id, 'conversation');
    if (state.equipment.kind !== 'air_water') {
      throw new ServiceError('unsupported_equipment', 'guided turns serve Air/Water heat pumps only');
    }
    if (!input.response) return { status: 200, body: turnBody(state, false), billable: false };
    const { action_id, value } = input.response;
    const next = engine(() =>
      respond(state, { action_id, value: value === null ? { unknown: true } : value }),
    );
    return this.written(ctx, record, next, turnBody(next, false));
  }

  private firstTurn(
    ctx: ServiceContext,
    input: DiagnosticTurnRequest,
  ): ServiceResult<DiagnosticTurnResponse> {
    const missing: FieldError[] = [];
    if (!input.brand) missing.push({ field: 'brand', message: 'is required on the first turn' });
    if (!input.model) missing.push({ field: 'model', message: 'is required on the first turn' });
    if (!input.error_code && !input.message?.trim()) {
      missing.push({
        field: 'error_code',
        message: 'the first turn needs a code, a message describing the fault, or both',
      });
    }
    if (input.response) {
      missing.push({
        field: 'response',
        message: 'the first turn has nothing to answer; send conversation_id with it',
      });
    }
    if (missing.length > 0) throw fieldProblem(missing);
    const request: CreateSessionRequest = {
      brand: input.brand!,
      model: input.model!,
      equipment: 'air_water',
    };
    if (input.error_code) request.error_code = input.error_code;
    if (input.message?.trim()) request.symptom = input.message.trim();
    const state = this.open(request, 'air_water');
    return { ...this.written(ctx, null, state, turnBody(state, true)), billable: true };
  }

  /** A new session from a validated request, with the manual's facts for its code and model. */
  private open(request: CreateSessionRequest, only?: 'air_water'): SessionState {
    const manual = this.manualContext(request.brand, request.model, request.error_code);
    // The request's equipment wins (the technician sees the unit); without it, the corpus's model says.
    const equipment = request.equipment ?? manual.equipment;
    if (!equipment) {
      throw fieldProblem([
        {
          field: 'equipment',
          message:
            'is required: the model does not resolve to one model of the corpus, so its kind (air_water or air_air) is not known',
        },
      ]);
    }
    if (only && manual.equipment && manual.equipment !== only) {
      throw new ServiceError(
        'unsupported_equipment',
        `${request.model} is an ${manual.equipment.replace('_', '/')} unit; guided turns serve Air/Water heat pumps only (use /v2/diagnostic-sessions)`,
      );
    }
    const init = sessionInitFromRequest(
      { ...request, equipment },
      {
        manualFacts: manual.facts,
        id: newSessionId(),
        ...noManualOf(manual, request.error_code),
      },
    );
    const state = engine(() => createSession(this.knowledge(), init));
    this.models.set(state.id, state.model);
    return state;
  }

  private async load(
    ctx: ServiceContext,
    id: string,
    noun: 'session' | 'conversation' = 'session',
  ): Promise<{ record: SessionRecord; state: SessionState }> {
    const record = await this.state.session(id);
    // Another account's session answers exactly as a missing one: its existence is not disclosed.
    if (!record || record.account_id !== ctx.account.id) {
      throw new ServiceError('session_not_found', `no ${noun} ${id}`);
    }
    const model = this.models.memo(record.id, { context: record.model });
    const state = { ...(JSON.parse(record.state) as Mutable), model };
    return { record, state };
  }

  /** What only the first write of a session carries: its model, and its key under the open-sessions cap. */
  private inserted(ctx: ServiceContext, model: StoredModel): Partial<SessionWrite> {
    const key_id = ctx.key?.id ?? null;
    return {
      model: JSON.stringify(model),
      // Sessions of one knowledge version share one stored copy of a model; each stores what differs.
      model_label: model.knowledgeVersion,
      key_id,
      ...(key_id ? { open_limit: this.options.maxOpenSessions ?? DEFAULT_MAX_OPEN_SESSIONS } : {}),
    };
  }

  /** The result of a change: its body, and the session write committed with the request. */
  private written<T>(
    ctx: ServiceContext,
    record: SessionRecord | null,
    state: SessionState,
    body: T,
  ): ServiceResult<T> {
    const { model, ...rest } = state;
    return {
      status: 200,
      body,
      billable: false,
      sessionWrite: {
        id: state.id,
        account_id: ctx.account.id,
        status: state.status,
        equipment: state.equipment.kind,
        expected_version: record ? record.version : null,
        ...(record ? {} : this.inserted(ctx, model)),
        state: JSON.stringify(rest),
      },
    };
  }
}

function uniqueCitations(lists: Citation[][]): Citation[] {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const c of lists.flat()) {
    const key = `${c.document_id}\u0000${c.page}\u0000${c.page_end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(c);
  }
  return out;
}

function percent(p: number): string {
  return `${Math.round(p * 100)} %`;
}

/** What to say to the technician for a session as it stands. */
export function turnMessage(session: Session): string {
  const a = session.next_action;
  if (a) {
    const e = a.expected;
    let expect = '';
    if (e.type === 'number') {
      const range = e.nominal_range ? `; normal ${e.nominal_range[0]} to ${e.nominal_range[1]}` : '';
      expect = ` Answer with a number in ${e.unit ?? 'the unit asked'}${range}.`;
    } else if (e.type === 'choice') {
      expect = ` Answer with one of: ${(e.choices ?? []).map((c) => `${c.id} (${c.label})`).join(', ')}.`;
    } else if (e.type === 'boolean') expect = ' Answer true or false.';
    const safety = a.safety ? ` Safety: ${a.safety}` : '';
    return `${a.prompt}${expect}${safety} If it cannot be checked, answer null.`;
  }
  const o = session.outcome;
  if (!o) return `The session is ${session.status}.`;
  if (o.kind === 'cause_found' && o.cause) {
    const remedy = o.action ? ` Remedy: ${o.action.prompt}` : '';
    return `Most likely cause: ${o.cause.label} (${percent(o.cause.probability)}).${remedy}`;
  }
  if (o.kind === 'escalation') {
    const to = o.escalation ? ` to ${o.escalation.replace('_', ' ')}` : '';
    const cause = o.cause ? ` Leading hypothesis: ${o.cause.label} (${percent(o.cause.probability)}).` : '';
    return `Escalate${to} (${o.reason.replaceAll('_', ' ')}).${cause}`;
  }
  return `The session is closed (${o.reason.replaceAll('_', ' ')}).`;
}

function turnBody(state: SessionState, billable: boolean): DiagnosticTurnResponse {
  const session = toPublic(state);
  return {
    conversation_id: session.id,
    turn: session.history.length + 1,
    status: session.status,
    message: turnMessage(session),
    next_action: session.next_action,
    hypotheses: session.hypotheses,
    outcome: session.outcome ?? null,
    citations: uniqueCitations([session.next_action?.citations ?? [], session.outcome?.citations ?? []]),
    billable,
  };
}
