import type { Account, ApiKey, SessionWrite } from '../state/types.js';

/** Who is calling and for which request: what every service function receives, from REST or MCP alike. */
export interface ServiceContext {
  account: Account;
  /** Null when the server runs without keys. */
  key: ApiKey | null;
  requestId: string;
  /** The Idempotency-Key of the request (REST header, or MCP `request_id` argument), if any. */
  idempotencyKey: string | null;
}

/** What a service function returns: the HTTP status and body, and whether it counts against the quota. */
export interface ServiceResult<T = unknown> {
  status: number;
  body: T;
  billable: boolean;
  /** For image operations: the bytes, sent as the body over HTTP and as image content over MCP. */
  binary?: { contentType: string; data: Buffer; etag: string };
  /** The body already serialised, when the service has it (cached results); equal to JSON.stringify(body). */
  json?: string;
  /**
   * The body's `state` (or else `status`) field, for metrics, when the result carries it beside the body:
   * a cached lookup keeps its JSON and not its body, which it parses again only when read (stateOf).
   */
  state?: string;
  /** Set when the response is the stored response of an earlier request with the same Idempotency-Key. */
  replayed?: boolean;
  /** A session to write in the transaction that charges the request and stores it for replay. */
  sessionWrite?: SessionWrite;
}

/**
 * The `state` (or else `status`) field of a result's body, as the metrics count it: from the result's own
 * `state` member when it has one, so that a cached lookup is not parsed again for it.
 */
export function stateOf(result: ServiceResult): string | undefined {
  if ('state' in result) return result.state;
  const body = result.body as { state?: unknown; status?: unknown } | null;
  const state = body?.state ?? body?.status;
  return typeof state === 'string' ? state : undefined;
}
