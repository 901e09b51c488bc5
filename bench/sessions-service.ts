/**
 * The session cases through the service layer, as a REST or MCP client drives them: each session is
 * started, answered and read with `Services.invoke` over a bundle (request validation, model resolution
 * against the corpus, the manual's entry for the code, the public payload). Only the public session is
 * read back: the status, the next action, the hypotheses, the history and the outcome.
 *
 * The simulated technician still needs to know what an asked action reads (its quantity, its kind, the
 * band it expects), which the public payload states in words for a person. It takes them from the
 * engine's model of the same knowledge for the same unit, and the nominal range from the payload, where
 * the manual may have replaced the general figure. An action the knowledge does not hold (one of the
 * manual's own steps) is answered "unknown", as the engine-level run answers it through the mapping.
 */
import crypto from 'node:crypto';
import type { BundleReader } from '../src/bundle/reader.js';
import type { CreateSessionRequest, NextAction, Session } from '../src/contract/sessions.js';
import type { ServiceContext } from '../src/engine/context.js';
import { Services } from '../src/engine/services.js';
import { createSession } from '../src/engine/sessions/index.js';
import type { Knowledge } from '../src/engine/sessions/knowledge-schema.js';
import { readingActionOf } from '../src/engine/sessions/model.js';
import type { ModelAction } from '../src/engine/sessions/types.js';
import { localAccount } from '../src/state/local-key.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';
import type { BenchCase } from './sessions-cases.js';
import { type EvalOptions, type SessionRun, scoreRun, summariseRows } from './sessions-eval.js';
import { SimulatedTechnician } from './sessions-simulator.js';
import type { Taxonomy } from './sessions-taxonomy.js';

/** A refusal of the service: the case could not be run as a client would send it. */
export interface ServiceRefusal {
  case: string;
  status: number;
  body: unknown;
}

/** The engine's action behind the asked step, its expected range taken from what the client was shown. */
function actionFor(asked: NextAction, actions: readonly ModelAction[]): ModelAction | undefined {
  const action = actions.find((a) => a.id === asked.id);
  if (!action) return undefined;
  const shown = asked.expected.nominal_range;
  if (action.expected.type !== 'number' || !shown) return action;
  return { ...action, expected: { ...action.expected, nominal_range: shown } };
}

function requestOf(
  c: BenchCase,
  readings: { quantity: string; value: number | string | boolean }[],
  options: EvalOptions,
): CreateSessionRequest {
  const init = c.init;
  return {
    brand: init.brand,
    model: init.model,
    equipment: init.equipment,
    ...(init.code ? { error_code: init.code } : {}),
    ...(init.symptom ? { symptom: init.symptom.slice(0, 4000) } : {}),
    ...(init.context ? { context: init.context } : {}),
    ...(readings.length > 0 ? { readings } : {}),
    ...(options.budget !== undefined ? { budget: options.budget } : {}),
  };
}

/**
 * Runs every case through the service layer over `reader` with the shipped knowledge. The conclusion
 * threshold is not a request field, so `options.threshold` is refused here.
 */
export async function evaluateThroughService(
  reader: BundleReader,
  knowledge: Knowledge,
  taxonomy: Taxonomy,
  cases: BenchCase[],
  options: EvalOptions = {},
) {
  if (options.threshold !== undefined) throw new Error('--threshold is not a request field: drop --service');
  const state = new SqliteStateStore(':memory:');
  try {
    const account = await localAccount(state);
    const services = new Services(reader, state, { sessions: { knowledge } });
    const ctx = (): ServiceContext => ({
      account,
      key: null,
      requestId: crypto.randomUUID(),
      idempotencyKey: null,
    });
    const refused: ServiceRefusal[] = [];
    const rows = [];
    for (const c of cases) {
      const technician = new SimulatedTechnician(c, taxonomy);
      // The engine's model of the same unit: what each action reads, for the technician only.
      const actions = createSession(knowledge, c.init).model.actions;
      const readings = technician.initialReadings((q) => readingActionOf(actions, q));
      let result = await services.invoke(ctx(), 'start_diagnostic_session', requestOf(c, readings, options));
      const path: SessionRun['path'] = [];
      let session = result.body as Session;
      while (result.status < 300 && session.status === 'active' && session.next_action) {
        const asked = session.next_action;
        const action = actionFor(asked, actions);
        const value = action ? technician.answer(action) : ({ unknown: true } as const);
        path.push({ action: asked.id, value });
        const answer = typeof value === 'object' ? { unknown: true } : { value };
        result = await services.invoke(ctx(), 'respond_to_diagnostic_session', {
          session_id: session.id,
          action_id: asked.id,
          ...answer,
        });
        session = result.body as Session;
      }
      if (result.status >= 300) {
        refused.push({ case: c.key, status: result.status, body: result.body });
        continue;
      }
      rows.push(
        scoreRun(knowledge, c, {
          status: session.status,
          reason: session.outcome?.reason ?? null,
          cause: session.outcome?.cause?.id ?? null,
          remedy: session.outcome?.action?.id ?? null,
          top: session.hypotheses[0]?.id ?? '',
          path,
          actions,
        }),
      );
    }
    return { report: summariseRows(rows), refused };
  } finally {
    state.close();
  }
}
