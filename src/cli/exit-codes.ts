import { HeatsourceError, HeatsourceNetworkError } from '@heatsource/sdk';
import { ConfigFileError } from './client-config.js';

/**
 * Exit statuses of the terminal commands, so that scripts can tell apart what to fix: the command line,
 * the question (nothing found), the connection, or the credentials.
 */
export const EXIT = {
  ok: 0,
  /** An unexpected failure of the program itself. */
  internal: 1,
  /** The command line is wrong: unknown flag, missing argument, invalid value, conflicting options. */
  usage: 2,
  /** Understood, but no sourced answer: unknown brand, model, code or document, ambiguous, no exact source. */
  notFound: 3,
  /** The source of answers failed: server unreachable, timed out, 5xx, rate limited, bundle unreadable. */
  unavailable: 4,
  /** The server refused the credentials or the account: missing, invalid or revoked key, quota spent. */
  auth: 5,
} as const;

/** The exit statuses as the help of every command states them. */
export const EXIT_HELP =
  'Exit status: 0 answered, 2 usage error, 3 no sourced answer or not found, 4 source unreachable ' +
  '(network, server error, rate limit, unreadable bundle), 5 API key or quota refused.';

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
 * A bundle that cannot be opened (missing, unreadable, another format). Told by name: importing the
 * reader's class would load the engine in every command, remote ones included.
 */
export function isBundleOpenError(err: unknown): err is Error {
  return err instanceof Error && err.name === 'BundleOpenError';
}

export function exitCodeOf(err: unknown): ExitCode {
  if (err instanceof CliError) return err.exit;
  if (err instanceof ConfigFileError) return EXIT.usage;
  if (isBundleOpenError(err) || err instanceof HeatsourceNetworkError) return EXIT.unavailable;
  if (err instanceof HeatsourceError) {
    if (err.status === 401 || err.status === 403 || err.code === 'quota_exceeded') return EXIT.auth;
    // An unknown route means the server does not offer this call (an older version): not the user's question.
    if (err.code === 'not_found' || err.code === 'method_not_allowed') return EXIT.unavailable;
    if (err.status === 404) return EXIT.notFound;
    if (err.status === 429 || err.status === 409 || err.status >= 500) return EXIT.unavailable;
    return EXIT.usage;
  }
  return EXIT.internal;
}
