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
 * Counts a sign-in attempt as failed before the password is checked, and says whether it may go on. The
 * attempt is recorded first and the failures counted after, so that of concurrent attempts at most the
 * limit's worth see a count within it: checking first and recording after the (slow) argon2 verification
 * let forty parallel attempts through a limit of five. A refused attempt stays counted; one that succeeds
 * is taken back (`signInSucceeded`).
 */
export async function reserveSignIn(
  state: StateStore,
  scopes: { email: string; address: string },
  now = Date.now(),
): Promise<boolean> {
  await state.accountHolders.recordSignInFailure([scopes.email, scopes.address]);
  const since = new Date(now - THROTTLE_WINDOW_MS).toISOString();
  const [byEmail, byAddress] = await Promise.all([
    state.accountHolders.signInFailures(scopes.email, since),
    state.accountHolders.signInFailures(scopes.address, since),
  ]);
  return byEmail <= MAX_FAILURES_PER_EMAIL && byAddress <= MAX_FAILURES_PER_ADDRESS;
}

/** A reserved attempt succeeded: the email's failures are forgotten, the address's advance one taken back. */
export async function signInSucceeded(
  state: StateStore,
  scopes: { email: string; address: string },
): Promise<void> {
  await state.accountHolders.clearSignInFailures(scopes.email);
  await state.accountHolders.withdrawSignInFailure(scopes.address);
}
