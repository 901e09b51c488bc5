import type { ApiCall, ApiResult, Transport } from './api.js';
import { fillPath } from './endpoints.js';
import {
  HeatsourceError,
  HeatsourceNetworkError,
  HeatsourceTimeoutError,
  isProblem,
  problemOfStatus,
} from './errors.js';
import {
  type BackoffOptions,
  backoffDelay,
  DEFAULT_BACKOFF,
  parseRetryAfter,
  randomKey,
  sleep,
} from './retry.js';
import type { RequestOptions } from './types.js';

export interface ClientOptions {
  /** Where the API is served, e.g. `https://heatsource.example.com` (a path prefix is kept). */
  baseUrl: string;
  /** `ak_live_…` or `ak_test_…`; sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** A fetch implementation; the global one by default. */
  fetch?: typeof fetch;
  /** Time allowed for each attempt, response body included; 0 waits forever. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for calls that are safe to repeat. Default 2. */
  retries?: number;
  backoff?: BackoffOptions;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 2;

/** Statuses worth another attempt: the same request may succeed a moment later. */
const TRANSIENT = new Set([408, 425, 429, 500, 502, 503, 504]);

function retryable(error: HeatsourceError): boolean {
  // A spent quota stays spent until the period resets; waiting a few seconds cannot help.
  if (error.code === 'quota_exceeded') return false;
  // The first request with this key is still running: the retry gets its stored response.
  if (error.code === 'idempotency_key_in_use') return true;
  return TRANSIENT.has(error.status);
}

function urlOf(baseUrl: string, call: ApiCall): string {
  const base = baseUrl.replace(/\/+$/, '');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${base}${fillPath(call.endpoint.path, call.params)}${qs ? `?${qs}` : ''}`;
}

/** Why a fetch failed, with the system's code when the runtime gives one (Node: ECONNREFUSED, ...). */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const why =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : null;
  return why && !message.includes(why) ? `${message} (${why})` : message;
}

interface Attempt {
  response: Response;
  bytes: Uint8Array;
}

/** The HTTP transport: one call, with its timeout per attempt and its retries where they are safe. */
export function httpTransport(options: ClientOptions): Transport {
  if (!options.baseUrl || !/^https?:\/\//i.test(options.baseUrl)) {
    throw new TypeError(`baseUrl must be an http(s) URL, got "${options.baseUrl}"`);
  }
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
  const clientTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clientRetries = options.retries ?? DEFAULT_RETRIES;

  async function attempt(
    url: string,
    init: RequestInit,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<Attempt> {
    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await doFetch(url, { ...init, signal: controller.signal });
      const bytes = new Uint8Array(await response.arrayBuffer());
      return { response, bytes };
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new HeatsourceTimeoutError(timeoutMs);
      throw new HeatsourceNetworkError(`cannot reach ${new URL(url).origin}: ${reasonOf(err)}`, {
        cause: err,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  function errorOf(url: string, { response, bytes }: Attempt): HeatsourceError {
    const meta = {
      requestId: response.headers.get('x-request-id'),
      retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    };
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      body = undefined;
    }
    const path = new URL(url).pathname;
    return new HeatsourceError(
      isProblem(body) ? body : problemOfStatus(response.status, response.statusText, path),
      meta,
    );
  }

  function resultOf(call: ApiCall, url: string, { response, bytes }: Attempt): ApiResult {
    if (call.endpoint.response !== 'json') {
      return {
        status: response.status,
        body: null,
        [call.endpoint.response === 'image' ? 'snapshot' : 'file']: {
          data: bytes,
          contentType: response.headers.get('content-type') ?? 'application/octet-stream',
          etag: response.headers.get('etag'),
        },
      };
    }
    if (bytes.byteLength === 0) return { status: response.status, body: null };
    try {
      return { status: response.status, body: JSON.parse(new TextDecoder().decode(bytes)) };
    } catch (err) {
      throw new HeatsourceNetworkError(`${url} answered ${response.status} with a body that is not JSON`, {
        cause: err,
      });
    }
  }

  return async (call, request: RequestOptions) => {
    const url = urlOf(options.baseUrl, call);
    const { method } = call.endpoint;
    const headers: Record<string, string> = { ...options.headers };
    headers.Accept =
      call.endpoint.response === 'image'
        ? call.query.format === 'png'
          ? 'image/png'
          : 'image/webp, image/png;q=0.9'
        : call.endpoint.response === 'file'
          ? 'application/vnd.sqlite3'
          : 'application/json';
    if (options.apiKey && call.endpoint.auth) headers.Authorization = `Bearer ${options.apiKey}`;
    let idempotencyKey: string | undefined;
    if (method === 'POST') {
      headers['Content-Type'] = 'application/json';
      idempotencyKey = request.idempotencyKey ?? (call.endpoint.idempotent ? randomKey() : undefined);
      if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
    }
    const init: RequestInit = {
      method,
      headers,
      ...(method === 'POST' ? { body: JSON.stringify(call.body ?? {}) } : {}),
    };
    // A POST is repeated only under an Idempotency-Key: the server then applies it at most once.
    const safe = method === 'GET' || idempotencyKey !== undefined;
    const retries = safe ? Math.max(0, request.retries ?? clientRetries) : 0;
    const timeoutMs = request.timeoutMs ?? clientTimeout;

    for (let n = 0; ; n++) {
      let delay: number;
      try {
        const got = await attempt(url, init, timeoutMs, request.signal);
        if (got.response.ok) return resultOf(call, url, got);
        const error = errorOf(url, got);
        if (n >= retries || !retryable(error)) throw error;
        if (error.retryAfter !== null && (error.status === 429 || error.status === 503)) {
          delay = error.retryAfter * 1000;
          if (delay > backoff.maxRetryAfterMs) throw error;
        } else {
          delay = backoffDelay(n, backoff);
        }
      } catch (err) {
        if (err instanceof HeatsourceError || !(err instanceof HeatsourceNetworkError)) throw err;
        if (n >= retries) throw err;
        delay = backoffDelay(n, backoff);
      }
      await sleep(delay, request.signal);
    }
  };
}
