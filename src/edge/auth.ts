import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../engine/errors.js';
import type { RateLimiter } from '../state/rate-limit.js';
import type { Account, ApiKey, StateStore } from '../state/types.js';

export interface Caller {
  account: Account;
  key: ApiKey | null;
}

export type Authenticator = (req: FastifyRequest, reply: FastifyReply) => Promise<Caller>;

/** Bearer token of a request, or null when there is no Authorization header. */
function bearer(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header === undefined) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!m) throw new ServiceError('invalid_api_key', 'the Authorization header must be "Bearer <key>"');
  return m[1]!;
}

/**
 * Authentication and per-key rate limiting for REST and MCP alike. With keys, every call needs
 * `Authorization: Bearer ak_…`; the RateLimit fields are set on every authenticated response. Without
 * keys (loopback only, enforced by `serve`), every call runs as the local account.
 */
export function createAuthenticator(options: {
  state: StateStore;
  rateLimiter: RateLimiter;
  /** Set to run without keys: calls run as this account. */
  localAccount?: () => Promise<Account>;
}): Authenticator {
  const { state, rateLimiter } = options;
  if (options.localAccount) {
    const local = options.localAccount;
    let account: Account | undefined;
    return async () => {
      account ??= await local();
      return { account, key: null };
    };
  }
  return async (req, reply) => {
    const secret = bearer(req);
    if (secret === null) {
      throw new ServiceError('authentication_required', 'send your API key as "Authorization: Bearer <key>"');
    }
    const result = await state.authenticate(secret, req.raw.socket);
    if (!result.ok) {
      if (result.reason === 'revoked')
        throw new ServiceError('api_key_revoked', 'this API key has been revoked');
      throw new ServiceError('invalid_api_key', 'this API key is not valid');
    }
    const { account, key } = result.principal;
    const limit = account.rate_limit_per_minute;
    if (limit !== null) {
      const d = await rateLimiter.take(key.id, limit);
      reply.header('RateLimit-Policy', `"per-key";q=${d.limit};w=${d.windowSeconds}`);
      reply.header('RateLimit', `"per-key";r=${d.remaining};t=${d.resetSeconds}`);
      if (!d.allowed) {
        throw new ServiceError(
          'rate_limited',
          `more than ${d.limit} requests in ${d.windowSeconds} s with this key; retry in ${d.resetSeconds} s`,
          { headers: { 'Retry-After': String(d.resetSeconds) } },
        );
      }
    }
    return { account, key };
  };
}
