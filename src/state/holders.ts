import crypto from 'node:crypto';
import type { Account } from './account.js';

/**
 * The account holders' side of the state: the people who sign in to the web console for an account.
 * Every store (SQLite, PostgreSQL) offers them as `StateStore.accountHolders`, one object per store
 * (sqlite/holders.ts, pg/holders.ts); test/state/holder-store-contract.ts holds the tests any must pass.
 * Secrets never reach the store: invitations and sessions are kept as SHA-256 hashes of their tokens,
 * passwords as argon2id hashes made by the caller.
 */

/** A person who may sign in to the console of one account. The email is stored lower-cased and unique. */
export interface AccountHolder {
  id: string;
  account_id: string;
  email: string;
  created_at: string;
}

export interface AccountHolderWithPassword extends AccountHolder {
  /** argon2id PHC string. */
  password_hash: string;
}

export interface Invitation {
  id: string;
  account_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface ConsoleSessionInfo {
  holder: AccountHolder;
  account: Account;
  expires_at: string;
}

/** Billable units charged on one UTC day (`YYYY-MM-DD`). */
export interface DailyUsage {
  day: string;
  units: number;
}

export interface HolderStore {
  /** Records an invitation by the hash of its token. */
  createInvitation(input: {
    account_id: string;
    email: string;
    token_hash: Buffer;
    expires_at: string;
  }): Promise<Invitation>;
  /** The invitation of a token hash while it can still be used (not used, not expired), else undefined. */
  openInvitation(tokenHash: Buffer): Promise<Invitation | undefined>;
  /**
   * Uses an invitation once, atomically: sets the holder's password (creating the holder, or replacing
   * the password of the holder with that email) and ends the holder's other console sessions. Undefined
   * when the invitation is unknown, used or expired.
   */
  acceptInvitation(tokenHash: Buffer, passwordHash: string): Promise<AccountHolder | undefined>;
  holderByEmail(email: string): Promise<AccountHolderWithPassword | undefined>;
  /** Holders of an account, oldest first. */
  holders(accountId: string): Promise<AccountHolder[]>;

  createConsoleSession(input: { token_hash: Buffer; holder_id: string; expires_at: string }): Promise<void>;
  /** The live session of a token hash with its holder and account, or undefined (unknown or expired). */
  consoleSession(tokenHash: Buffer): Promise<ConsoleSessionInfo | undefined>;
  deleteConsoleSession(tokenHash: Buffer): Promise<void>;

  /** Counts one failed sign-in against each scope (e.g. `email:…`, `ip:…`). */
  recordSignInFailure(scopes: string[]): Promise<void>;
  /** Failed sign-ins of a scope since an instant (ISO 8601). */
  signInFailures(scope: string, since: string): Promise<number>;
  clearSignInFailures(scope: string): Promise<void>;
  /** Takes back the latest failure of a scope: an attempt counted in advance that then succeeded. */
  withdrawSignInFailure(scope: string): Promise<void>;

  /** Billable units per UTC day of a period (`YYYY-MM`), days without charges left out, oldest first. */
  dailyUsage(accountId: string, period: string): Promise<DailyUsage[]>;
}

/** Ids of holders and invitations: 72 random bits after the kind. */
export function newHolderId(kind: 'hol' | 'inv'): string {
  return `${kind}_${crypto.randomBytes(9).toString('base64url')}`;
}

/** Sign-in failures older than this are forgotten when new ones are written (both stores). */
export const FAILURE_MEMORY_MS = 24 * 60 * 60 * 1000;
