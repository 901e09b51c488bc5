import { HeatsourceError, HeatsourceNetworkError } from '@heatsource/sdk/errors';
import { ConfigFileError } from './client-config.js';

/**
 * Exit statuses of the terminal commands, so that scripts can tell apart what to fix: the command line,
 * the question (nothing found), the connection, the credentials, the state of a session, or the inputs
 * that failed. One table for every command; the README and `heatsource --help` print EXIT_TABLE.
 */
export const EXIT = {
  ok: 0,
  /** An unexpected failure of the program itself (a bug: DEBUG=1 prints its stack). */
  internal: 1,
  /** The command line is wrong: unknown flag, missing argument, invalid value, a file or port it names. */
  usage: 2,
  /** Understood, but no sourced answer: unknown brand, model, code or document, ambiguous, no exact source. */
  notFound: 3,
  /** The source of answers failed: server unreachable, timed out, 5xx, rate limited, bundle or state unreadable. */
  unavailable: 4,
  /** The server refused the credentials or the account: missing, invalid or revoked key, quota spent. */
  auth: 5,
  /** Refused by the state of a session: closed or finished, nothing to undo, an answer to another step. */
  conflict: 6,
  /** Done in part: some files failed to ingest (the bundle holds the rest), or a bundle check failed. */
  partial: 7,
} as const;

/** The exit-code table, status and meaning, as the README and the root help show it. */
export const EXIT_TABLE: ReadonlyArray<readonly [number, string]> = [
  [EXIT.ok, 'done: answered, or the work asked for was completed'],
  [EXIT.internal, 'internal error (a bug; DEBUG=1 prints the stack)'],
  [EXIT.usage, 'usage: a flag, argument, file or port on the command line is wrong'],
  [
    EXIT.notFound,
    'no sourced answer: unknown brand, model, code, page or session; ambiguous; no exact source',
  ],
  [
    EXIT.unavailable,
    'source unavailable: server unreachable or failing, rate limited, bundle or state file unreadable',
  ],
  [EXIT.auth, 'API key or quota refused'],
  [EXIT.conflict, 'refused by the session: closed, finished, nothing to undo, or an answer to another step'],
  [EXIT.partial, 'done in part: some files failed to ingest, or a bundle check failed'],
];

/** The exit statuses in one line, as the help of every command states them. */
export const EXIT_HELP = `Exit status: ${EXIT_TABLE.map(([code, meaning]) => `${code} ${meaning.split(':')[0]}`).join(', ')}.`;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure with the message to print and the exit status to end with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exit: ExitCode,
    /** The problem document behind it, printed on stdout under --json. */
    readonly problem?: unknown,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * A bundle or state database that cannot be opened (missing, unreadable, another format). Told by name: importing the
 * reader's class would load the engine in every command, remote ones included.
 */
export function isBundleOpenError(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'BundleOpenError' || err.name === 'StateOpenError');
}

const SESSION_CONFLICTS = new Set([
  'session_closed',
  'session_finished',
  'nothing_to_undo',
  'action_mismatch',
]);

export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exit;
  if (err instanceof ConfigFileError) return EXIT.usage;
  if (isBundleOpenError(err) || err instanceof HeatsourceNetworkError) return EXIT.unavailable;
  if (err instanceof HeatsourceError) {
    if (err.status === 401 || err.status === 403 || err.code === 'quota_exceeded') return EXIT.auth;
    // An unknown route means the server does not offer this call (an older version): not the user's question.
    if (err.code === 'not_found' || err.code === 'method_not_allowed') return EXIT.unavailable;
    if (err.status === 404) return EXIT.notFound;
    // A session's own refusals: retrying will not help, the session has moved on.
    if (err.status === 409 && SESSION_CONFLICTS.has(err.code)) return EXIT.conflict;
    if (err.status === 429 || err.status === 409 || err.status >= 500) return EXIT.unavailable;
    return EXIT.usage;
  }
  return EXIT.internal;
}
