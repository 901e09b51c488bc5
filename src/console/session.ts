import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSessionInfo } from '../state/holders.js';
import { newToken, tokenHash } from '../state/invitations.js';
import type { StateStore } from '../state/types.js';

/** A console session lasts this long from sign-in. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

const SESSION = 'hs_session';
/** A random value for forms shown before sign-in: their CSRF token derives from it. */
const PRE = 'hs_pre';
/** The key just created, encrypted with the session, for the one page that shows it. */
const FLASH = 'hs_new_key';

/**
 * Whether the browser reached us over HTTPS: directly, or through a proxy saying so. Trusting the
 * header without a trusted proxy is safe here: it can only make the cookie stricter (Secure).
 */
export function isHttps(req: FastifyRequest): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  return req.protocol === 'https' || (typeof forwarded === 'string' && /^https\b/i.test(forwarded));
}

function cookieOptions(req: FastifyRequest, path: string) {
  return {
    path,
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: isHttps(req),
  };
}

export interface SignedIn extends ConsoleSessionInfo {
  token: string;
  csrf: string;
}

function csrfOf(secret: string): string {
  return crypto.createHash('sha256').update(`csrf\u0000${secret}`).digest('base64url');
}

export async function currentSession(req: FastifyRequest, state: StateStore): Promise<SignedIn | null> {
  const token = req.cookies[SESSION];
  if (!token) return null;
  const info = await state.accountHolders.consoleSession(tokenHash(token));
  return info ? { ...info, token, csrf: csrfOf(token) } : null;
}

export async function startSession(
  req: FastifyRequest,
  reply: FastifyReply,
  state: StateStore,
  holderId: string,
  base: string,
): Promise<void> {
  const token = newToken();
  await state.accountHolders.createConsoleSession({
    token_hash: tokenHash(token),
    holder_id: holderId,
    expires_at: new Date(Date.now() + SESSION_TTL_MS).toISOString(),
  });
  reply.setCookie(SESSION, token, { ...cookieOptions(req, base), maxAge: SESSION_TTL_MS / 1000 });
}

export async function endSession(
  req: FastifyRequest,
  reply: FastifyReply,
  state: StateStore,
  session: SignedIn,
  base: string,
): Promise<void> {
  await state.accountHolders.deleteConsoleSession(tokenHash(session.token));
  reply.clearCookie(SESSION, cookieOptions(req, base));
}

/** The CSRF token for a form shown before sign-in, setting the cookie it derives from when missing. */
export function anonymousCsrf(req: FastifyRequest, reply: FastifyReply, base: string): string {
  let pre = req.cookies[PRE];
  if (!pre || !/^[A-Za-z0-9_-]{43}$/.test(pre)) {
    pre = newToken();
    reply.setCookie(PRE, pre, cookieOptions(req, base));
  }
  return csrfOf(pre);
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Whether a form post carries the CSRF token of this browser: derived from the session when signed in,
 * else from the pre-sign-in cookie; and, when the browser names the origin, that it is this server.
 */
export function csrfValid(req: FastifyRequest, session: SignedIn | null, given: unknown): boolean {
  const origin = req.headers.origin;
  if (origin && origin !== 'null') {
    try {
      if (new URL(origin).host !== req.headers.host) return false;
    } catch {
      return false;
    }
  } else if (origin === 'null') return false;
  if (typeof given !== 'string' || given.length === 0) return false;
  if (session) return sameToken(given, session.csrf);
  const pre = req.cookies[PRE];
  return pre !== undefined && sameToken(given, csrfOf(pre));
}

function flashKey(session: SignedIn): Buffer {
  return crypto.createHash('sha256').update(`flash\u0000${session.token}`).digest();
}

/**
 * Carries a new key's secret to the page shown after the redirect, and to that page only: encrypted
 * (AES-256-GCM) with a key derived from the session token, in a cookie that the page deletes. Nothing is
 * stored on the server, so any process of a deployment can show it, and a reload no longer can.
 */
export function setFlashSecret(
  req: FastifyRequest,
  reply: FastifyReply,
  session: SignedIn,
  secret: string,
  path: string,
): void {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', flashKey(session), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const value = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  reply.setCookie(FLASH, value, { ...cookieOptions(req, path), maxAge: 300 });
}

export function takeFlashSecret(
  req: FastifyRequest,
  reply: FastifyReply,
  session: SignedIn,
  path: string,
): string | null {
  const value = req.cookies[FLASH];
  if (!value) return null;
  reply.clearCookie(FLASH, cookieOptions(req, path));
  try {
    const raw = Buffer.from(value, 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', flashKey(session), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
