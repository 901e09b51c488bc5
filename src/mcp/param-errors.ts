import {
  type JSONRPCRequest,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { unreadableProblem } from '../engine/bundle-guard.js';
import { ServiceError } from '../engine/errors.js';

/**
 * The JSON-RPC code (in the range JSON-RPC leaves to servers) of a service failure outside tools/call, such
 * as a resource read while the bundle cannot be read; `data` holds the problem code and HTTP status.
 */
export const SERVICE_ERROR = -32000;

/** The code the 2025 revisions give a resource that does not exist (2026-07-28 uses -32602, SEP-2164). */
export const LEGACY_RESOURCE_NOT_FOUND = -32002;

interface Issue {
  path: (string | number)[];
  message: string;
}

/**
 * The issues of a request the SDK refused before any handler ran. The SDK (2.4.0) validates a spec
 * method's request against its own schema and throws a plain Error whose message is zod's issue list as
 * JSON, which it then answers as -32603 Internal error. Only that shape is recognised: an error of our
 * handlers is a ProtocolError, a ServiceError or some subclass, never a bare Error carrying issues.
 */
function requestIssues(err: unknown): Issue[] | null {
  if (!(err instanceof Error) || err.constructor !== Error || !err.message.startsWith('[')) return null;
  try {
    const parsed = JSON.parse(err.message) as unknown;
    if (!Array.isArray(parsed) || parsed.length === 0) return null;
    const issues: Issue[] = [];
    for (const item of parsed) {
      const { path, message } = (item ?? {}) as { path?: unknown; message?: unknown };
      if (!Array.isArray(path) || typeof message !== 'string') return null;
      issues.push({ path: path as (string | number)[], message });
    }
    return issues;
  } catch {
    return null;
  }
}

function fieldOf(path: (string | number)[]): string {
  const parts = path[0] === 'params' ? path.slice(1) : path;
  return parts.length === 0 ? 'params' : parts.join('.');
}

/**
 * The SDK's low-level server, with its own validation failures answered as JSON-RPC says: invalid params
 * are -32602, with the fields at fault in `data.errors` (as the REST problem documents list them), not
 * -32603 with zod's raw issue list. Everything else is the SDK's, unchanged.
 */
export class ParamCheckedServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        const service = err instanceof ServiceError ? err : unreadableProblem(err);
        if (service) {
          // A failure the caller can act on (a bundle that cannot be read: 503) keeps its problem code.
          const code = service.code === 'validation_failed' ? ProtocolErrorCode.InvalidParams : SERVICE_ERROR;
          throw new ProtocolError(code, service.detail, { code: service.code, status: service.status });
        }
        const issues = requestIssues(err);
        if (!issues) throw err;
        const errors = issues.map((i) => ({ field: fieldOf(i.path), message: i.message }));
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `invalid params for ${method}: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`,
          { errors },
        );
      }
    };
  }
}

/**
 * A 2025-era answer with the resource-not-found code of those revisions. The SDK writes -32602 with
 * `data: { uri }` in every era (SEP-2164 made that the rule from 2026-07-28 on); the 2025 revisions name
 * -32002 for it, so their clients get that code. Only a JSON-RPC error whose data is exactly the URI is
 * changed, in a single answer or in a batch; anything else is returned as it came.
 */
export function withLegacyErrorCodes(text: string): string {
  if (!text.includes('-32602') || !text.includes('"uri"')) return text;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const fix = (m: unknown) => {
    const error = (m as { error?: { code?: unknown; data?: unknown } } | null)?.error;
    const data = error?.data as Record<string, unknown> | undefined;
    if (
      error?.code === ProtocolErrorCode.InvalidParams &&
      data &&
      typeof data.uri === 'string' &&
      Object.keys(data).length === 1
    ) {
      error.code = LEGACY_RESOURCE_NOT_FOUND;
      changed = true;
    }
  };
  if (Array.isArray(message)) message.forEach(fix);
  else fix(message);
  return changed ? JSON.stringify(message) : text;
}
