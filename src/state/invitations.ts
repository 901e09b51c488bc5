import crypto from 'node:crypto';
import type { Invitation } from './holders.js';
import type { Account, StateStore } from './types.js';

/** How long an invitation link can be used. */
export const INVITATION_TTL_MS = 72 * 60 * 60 * 1000;
/** The console's path under the server's base URL. */
export const CONSOLE_PATH = '/console';

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,190}$/;

export class InvitationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvitationError';
  }
}

/** Tokens (invitations, console sessions) are 256 random bits; only their SHA-256 is stored. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function tokenHash(token: string): Buffer {
  return crypto.createHash('sha256').update(token, 'utf8').digest();
}

export function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${CONSOLE_PATH}/invitation?token=${token}`;
}

export interface InvitationReport {
  account: Account;
  account_created: boolean;
  invitation: Invitation;
  /** The one-time link: shown once, only its hash is stored. */
  url: string;
}

/**
 * Invites a person to hold an account in the web console, creating the account when it does not exist.
 * An email already holding another account cannot be invited to this one.
 */
export async function inviteHolder(
  state: StateStore,
  input: { account: string; email: string; baseUrl: string; ttlMs?: number; now?: number },
): Promise<InvitationReport> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new InvitationError(`not an email address: ${input.email}`);
  const name = input.account.trim();
  if (!name) throw new InvitationError('an account name is needed');
  let account = await state.accountByName(name);
  const created = !account;
  const holder = await state.accountHolders.holderByEmail(email);
  if (holder && account && holder.account_id !== account.id) {
    throw new InvitationError(`${email} already holds another account`);
  }
  if (holder && !account) throw new InvitationError(`${email} already holds another account`);
  account ??= await state.createAccount({ name });
  const token = newToken();
  const expires = new Date((input.now ?? Date.now()) + (input.ttlMs ?? INVITATION_TTL_MS)).toISOString();
  const invitation = await state.accountHolders.createInvitation({
    account_id: account.id,
    email,
    token_hash: tokenHash(token),
    expires_at: expires,
  });
  return { account, account_created: created, invitation, url: invitationUrl(input.baseUrl, token) };
}
