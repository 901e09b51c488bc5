import os from 'node:os';
import path from 'node:path';
import { openLocalClient } from '../client/local.js';
import { openRemoteClient } from '../client/remote.js';
import type { HeatsourceClient } from '../client/types.js';
import type { SessionRespondRequest } from '../contract/session-requests.js';
import type { CreateSessionRequest, Session, SessionSummary } from '../contract/sessions.js';
import { localAccount } from '../state/local-key.js';
import { openCommandState } from './state-flag.js';
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

/** The session endpoints of a client, whichever way it reaches them. */
function sessionsOver(
  client: HeatsourceClient,
  where: string,
  latest: () => Promise<string | null>,
  dispose: () => Promise<void>,
): SessionClient {
  return {
    where,
    start: async (input) => (await client.startDiagnosticSession(input)) as Session,
    get: async (id) => (await client.getDiagnosticSession(id)) as Session,
    respond: async (id, answer) => (await client.respondToDiagnosticSession(id, answer)) as Session,
    undo: async (id) => (await client.undoDiagnosticSession(id)) as Session,
    close: async (id) => (await client.closeDiagnosticSession(id)) as Session,
    summary: async (id) => (await client.getDiagnosticSessionSummary(id)) as SessionSummary,
    latest,
    dispose,
  };
}

/**
 * Sessions on this machine: the local client (the service layer over the bundle, no HTTP server) as the
 * local account of a state file that keeps them, so that a later run (another process) continues them.
 */
export async function openOfflineSessions(options: {
  bundle: string;
  state: string;
}): Promise<SessionClient> {
  const state = await openCommandState(options.state);
  let client: HeatsourceClient;
  try {
    client = await openLocalClient({ bundle: options.bundle, state });
  } catch (err) {
    await state.close();
    throw err;
  }
  const account = await localAccount(state);
  return sessionsOver(
    client,
    `offline, ${options.state}`,
    async () => (await state.sessions(account.id, { limit: 1 }))[0]?.id ?? null,
    async () => {
      await client.close();
      await state.close();
    },
  );
}

/** Sessions on a server, through the SDK. */
export function openRemoteSessions(options: {
  url: string;
  apiKey?: string;
  timeoutMs?: number;
}): SessionClient {
  const client = openRemoteClient(options);
  return sessionsOver(
    client,
    options.url,
    async () => null,
    async () => client.close(),
  );
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
