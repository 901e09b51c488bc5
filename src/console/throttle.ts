import type { StateStore } from '../state/types.js';

/** Failed sign-ins counted over this window. */
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per email (whether or not it holds an account) and per client address. */
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export function throttleScopes(email: string, address: string): { email: string; address: string } {
  return { email: `email:${email.trim().toLowerCase()}`, address: `ip:${address}` };
}

/**
 * Whether a sign-in may be attempted: counted in the state store, so that every process of a deployment
 * sees the same failures. Unknown emails are counted like known ones, so that throttling reveals nothing.
 */
export async function signInAllowed(
  state: StateStore,
  scopes: { email: string; address: string },
  now = Date.now(),
): Promise<boolean> {
  const since = new Date(now - THROTTLE_WINDOW_MS).toISOString();
  const [byEmail, byAddress] = await Promise.all([
    state.accountHolders.signInFailures(scopes.email, since),
    state.accountHolders.signInFailures(scopes.address, since),
  ]);
  return byEmail < MAX_FAILURES_PER_EMAIL && byAddress < MAX_FAILURES_PER_ADDRESS;
}
