import type { Problem } from './contract/common.js';
import type { ProblemCode } from './contract/problems.js';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * An error answered by the API: its RFC 9457 problem document as an exception. Branch on `code`
 * (`brand_not_found`, `quota_exceeded`, ...); `detail` explains this occurrence.
 */
export class HeatsourceError extends Error {
  readonly status: number;
  /** A stable problem code, or `http_<status>` when the response was not a problem document (a proxy). */
  readonly code: ProblemCode | (string & {});
  readonly title: string;
  readonly detail: string;
  readonly type: string;
  readonly instance: string | null;
  readonly errors: FieldError[];
  /** The X-Request-Id of the response, to quote when reporting a problem. */
  readonly requestId: string | null;
  /** Seconds to wait before retrying, from Retry-After (429, 503). */
  readonly retryAfter: number | null;
  readonly problem: Problem;

  constructor(problem: Problem, meta: { requestId?: string | null; retryAfter?: number | null } = {}) {
    super(problem.detail || problem.title);
    this.name = 'HeatsourceError';
    this.problem = problem;
    this.status = problem.status;
    this.code = problem.code;
    this.title = problem.title;
    this.detail = problem.detail;
    this.type = problem.type;
    this.instance = problem.instance ?? null;
    this.errors = problem.errors ?? [];
    this.requestId = meta.requestId ?? null;
    this.retryAfter = meta.retryAfter ?? null;
  }
}

/** No response arrived: the server is unreachable, the connection broke, or the response was unreadable. */
export class HeatsourceNetworkError extends Error {
  readonly code: 'network_error' | 'timeout' = 'network_error';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HeatsourceNetworkError';
  }
}

/** No complete response within `timeoutMs` (for each attempt). */
export class HeatsourceTimeoutError extends HeatsourceNetworkError {
  override readonly code = 'timeout' as const;
  constructor(readonly timeoutMs: number) {
    super(`no response within ${timeoutMs} ms`);
    this.name = 'HeatsourceTimeoutError';
  }
}

export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.status === 'number' && typeof v.code === 'string' && typeof v.title === 'string';
}

/** The error of a failed response whose body is not a problem document (e.g. a proxy's HTML page). */
export function problemOfStatus(status: number, statusText: string, url: string): Problem {
  const title = statusText || `HTTP ${status}`;
  return {
    type: 'about:blank',
    title,
    status,
    detail: `${title} from ${url}`,
    instance: url,
    code: `http_${status}`,
  };
}
