import type { Session } from '../contract/sessions.js';
import { CreateSessionRequest } from '../contract/sessions.js';
import type { CorpusView } from '../engine/corpus.js';
import { ServiceError, validationError } from '../engine/errors.js';
import { manualContext, noManualOf } from '../engine/session-manual.js';
import { SessionError } from '../engine/sessions/errors.js';
import type { Knowledge } from '../engine/sessions/knowledge-schema.js';
import { toPublic } from '../engine/sessions/public.js';
import { sessionInitFromRequest } from '../engine/sessions/request.js';
import { close, createSession, respond } from '../engine/sessions/session.js';
import type { Response, SessionState } from '../engine/sessions/types.js';

/** An answer as the REST body of POST …/responses carries it: a value, or `unknown: true`. */
export interface OfflineAnswer {
  action_id: string;
  value?: boolean | number | string;
  unknown?: boolean;
}

/**
 * Guided sessions run in the app from a pack: the pure session engine (src/engine/sessions) with the
 * knowledge the pack carries and the manual's facts read from the pack as the server reads them from its
 * bundle. A session is kept as its request and its answers, and replayed: the engine is deterministic, so
 * the server, sent the same request and answers when the network returns, reaches the same state.
 * Imports the engine's modules one by one: its index also exports the knowledge loader, which reads files.
 */
export class OfflineSessions {
  constructor(
    private readonly view: CorpusView,
    private readonly knowledge: Knowledge,
  ) {}

  /** The session after its request and answers, in the public shape the REST API answers with. */
  replay(rawRequest: unknown, answers: OfflineAnswer[], closed: boolean, id: string): Session {
    let state = this.start(rawRequest, id);
    for (const a of answers)
      state = engine(() => respond(state, { action_id: a.action_id, value: answerValue(a) }));
    if (closed && state.status !== 'closed') state = close(state);
    return toPublic(state);
  }

  private start(rawRequest: unknown, id: string): SessionState {
    const parsed = CreateSessionRequest.safeParse(rawRequest ?? {});
    if (!parsed.success) throw validationError(parsed.error, CreateSessionRequest);
    const request = parsed.data;
    const manual = manualContext(this.view, request.brand, request.model, request.error_code);
    const equipment = request.equipment ?? manual.equipment;
    if (!equipment) {
      throw new ServiceError('validation_failed', 'invalid field(s): equipment', {
        errors: [
          {
            field: 'equipment',
            message: 'is required: the model is not one of the offline pack, so its kind is not known',
          },
        ],
      });
    }
    const init = sessionInitFromRequest(
      { ...request, equipment },
      { manualFacts: manual.facts, id, ...noManualOf(manual, request.error_code) },
    );
    return engine(() => createSession(this.knowledge, init));
  }
}

function answerValue(a: OfflineAnswer): Response['value'] {
  return a.unknown ? { unknown: true } : (a.value as Exclude<Response['value'], { unknown: true }>);
}

const REFUSALS = new Set([
  'session_closed',
  'session_finished',
  'action_mismatch',
  'invalid_response',
] as const);
type Refusal = typeof REFUSALS extends Set<infer C> ? C : never;

/** The engine's refusals as the problems the server would answer. */
function engine<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof SessionError && REFUSALS.has(err.code as Refusal)) {
      throw new ServiceError(err.code as Refusal, err.message);
    }
    throw err;
  }
}
