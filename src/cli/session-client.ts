import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { HeatsourceError, HeatsourceNetworkError, HeatsourceTimeoutError, isProblem } from '@heatsource/sdk';
import { BundleReader } from '../bundle/reader.js';
import { openRemoteClient } from '../client/remote.js';
import type { SessionRespondRequest } from '../contract/session-requests.js';
import type { CreateSessionRequest, Session, SessionSummary } from '../contract/sessions.js';
import type { ServiceContext } from '../engine/context.js';
import { ServiceError } from '../engine/errors.js';
import { Services } from '../engine/services.js';
import { localAccount } from '../state/local-key.js';
import { SqliteStateStore } from '../state/sqlite-store.js';
import type { Target } from './target.js';

/** An answer to a session's pending action, as the REST body carries it (the session id travels apart). */
export type SessionAnswer = Omit<SessionRespondRequest, 'session_id'>;

/** The session endpoints, offline or against a server; failures are the SDK's errors in both cases. */
export interface SessionClient {
  /** Where the sessions live, for the person at the terminal. */
  readonly where: string;
  start(input: CreateSessionRequest): Promise<Session>;
  get(id: string): Promise<Session>;
  respond(id: string, answer: SessionAnswer): Promise<Session>;
  undo(id: string): Promise<Session>;
  close(id: string): Promise<Session>;
  summary(id: string): Promise<SessionSummary>;
  /** The most recently changed session, when the client can list them (offline only). */
  latest(): Promise<string | null>;
  dispose(): Promise<void>;
}

/** Where offline sessions are kept between runs: ~/.heatsource/state.sqlite. */
export function defaultSessionStatePath(): string {
  return path.join(os.homedir(), '.heatsource', 'state.sqlite');
}

/**
 * Sessions on this machine: the service layer over the bundle, without an HTTP server, as the local
 * account of a state file that keeps them, so that a later run (another process) continues them.
 */
export async function openOfflineSessions(options: {
  bundle: string;
  state: string;
}): Promise<SessionClient> {
  const reader = new BundleReader(options.bundle);
  let state: SqliteStateStore;
  try {
    state = new SqliteStateStore(options.state);
  } catch (err) {
    reader.close();
    throw err;
  }
  const account = await localAccount(state);
  const services = new Services(reader, state);
  const call = async <T>(name: string, input: Record<string, unknown>, instance: string): Promise<T> => {
    const ctx: ServiceContext = { account, key: null, requestId: crypto.randomUUID(), idempotencyKey: null };
    try {
      return (await services.invoke(ctx, name, input)).body as T;
    } catch (err) {
      if (err instanceof ServiceError) throw new HeatsourceError(err.toProblem(instance));
      throw err;
    }
  };
  const at = (id: string, tail = '') => `/v2/diagnostic-sessions/${encodeURIComponent(id)}${tail}`;
  return {
    where: `offline, ${options.state}`,
    start: (input) => call('start_diagnostic_session', input, '/v2/diagnostic-sessions'),
    get: (id) => call('get_diagnostic_session', { session_id: id }, at(id)),
    respond: (id, answer) =>
      call('respond_to_diagnostic_session', { ...answer, session_id: id }, at(id, '/responses')),
    undo: (id) => call('undo_diagnostic_session', { session_id: id }, at(id, '/undo')),
    close: (id) => call('close_diagnostic_session', { session_id: id }, at(id, '/close')),
    summary: (id) => call('get_diagnostic_session_summary', { session_id: id }, at(id, '/summary')),
    latest: async () => (await state.sessions(account.id, { limit: 1 }))[0]?.id ?? null,
    async dispose() {
      await state.close();
      reader.close();
    },
  };
}

/**
 * Sessions on a server, through the SDK. Undo is not among the SDK's methods yet, so it goes as one
 * plain request with the same headers the SDK sends.
 */
export function openRemoteSessions(options: {
  url: string;
  apiKey?: string;
  timeoutMs?: number;
}): SessionClient {
  const sdk = openRemoteClient(options);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const undo = async (id: string): Promise<Session> => {
    const url = `${options.url}/v2/diagnostic-sessions/${encodeURIComponent(id)}/undo`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          Accept: 'application/json',
          'Content-Type': 'application/json',
          'Idempotency-Key': crypto.randomUUID(),
          ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
        },
        body: '{}',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') throw new HeatsourceTimeoutError(timeoutMs);
      throw new HeatsourceNetworkError(`cannot reach ${options.url}: ${(err as Error).message}`, {
        cause: err,
      });
    }
    const body = (await res.json().catch(() => null)) as unknown;
    if (res.ok) return body as Session;
    if (isProblem(body)) throw new HeatsourceError(body, { requestId: res.headers.get('x-request-id') });
    throw new HeatsourceNetworkError(`${url} answered ${res.status} without a problem document`);
  };
  return {
    where: options.url,
    start: async (input) => (await sdk.startDiagnosticSession(input)) as Session,
    get: async (id) => (await sdk.getDiagnosticSession(id)) as Session,
    respond: async (id, answer) => {
      // The SDK's request type has the one `value` form; `{unknown: true}` as the value says the same.
      const value = answer.unknown ? { unknown: true as const } : answer.value!;
      return (await sdk.respondToDiagnosticSession(id, { action_id: answer.action_id, value })) as Session;
    },
    undo,
    close: async (id) => (await sdk.closeDiagnosticSession(id)) as Session,
    summary: async (id) => (await sdk.getDiagnosticSessionSummary(id)) as SessionSummary,
    latest: async () => null,
    dispose: () => sdk.close(),
  };
}

/** The session client for a resolved source: offline over its bundle and a state file, or its server. */
export async function openSessions(
  target: Target,
  options: { state?: string; timeoutMs?: number } = {},
): Promise<SessionClient> {
  if (target.kind === 'local') {
    return openOfflineSessions({ bundle: target.bundle, state: options.state ?? defaultSessionStatePath() });
  }
  return openRemoteSessions({
    url: target.url,
    ...(target.apiKey ? { apiKey: target.apiKey } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}
