import { apiOverTransport, type HeatsourceApi } from './api.js';
import { type ClientOptions, httpTransport } from './http.js';
import type {
  RequestOptions,
  Session,
  SessionResponseInput,
  SessionSummary,
  StartSessionInput,
} from './types.js';

/**
 * A client of the heatsource REST API: one method per endpoint, typed from the server's contract.
 *
 * ```ts
 * const hs = createClient({ baseUrl: 'https://heatsource.example.com', apiKey: process.env.HEATSOURCE_API_KEY });
 * const answer = await hs.diagnose({ brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' });
 * ```
 */
export function createClient(options: ClientOptions): HeatsourceApi {
  return apiOverTransport(httpTransport(options));
}

/** Starts a guided troubleshooting session for a unit and its symptom or code. */
export function startDiagnosticSession(
  client: HeatsourceApi,
  input: StartSessionInput,
  options?: RequestOptions,
): Promise<Session> {
  return client.startDiagnosticSession(input, options);
}

/** Answers the pending action of a session and returns the session with its next action. */
export function respondToDiagnosticSession(
  client: HeatsourceApi,
  sessionId: string,
  response: SessionResponseInput,
  options?: RequestOptions,
): Promise<Session> {
  return client.respondToDiagnosticSession(sessionId, response, options);
}

/** Closes a session; it then refuses responses. */
export function closeDiagnosticSession(
  client: HeatsourceApi,
  sessionId: string,
  options?: RequestOptions,
): Promise<Session> {
  return client.closeDiagnosticSession(sessionId, options);
}

/** The path a session took, its outcome and every page it cited. */
export function getDiagnosticSessionSummary(
  client: HeatsourceApi,
  sessionId: string,
  options?: RequestOptions,
): Promise<SessionSummary> {
  return client.getDiagnosticSessionSummary(sessionId, options);
}
