import { HeatsourceError, HeatsourceNetworkError } from '@heatsource/sdk/errors';
import { CliError, EXIT, type ExitCode, exitCodeOf, isBundleOpenError } from './exit-codes.js';
import type { Target } from './target.js';

/** A Node.js system error (fs, net): its code says what happened and its path or port says to what. */
interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
  dest?: string;
  address?: string;
  port?: number;
}

function isSystemError(err: unknown): err is SystemError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'string' && 'syscall' in err;
}

/** SQLite's own errors carry codes such as SQLITE_NOTADB; the file they concern is named by the caller. */
function isSqliteError(err: unknown): err is Error & { code: string } {
  return err instanceof Error && /^SQLITE_/.test(String((err as { code?: unknown }).code ?? ''));
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EEXIST: 'already exists',
};

/** The exit status of any failure a command can meet, the one table of EXIT applied to it. */
export function failureExit(err: unknown): ExitCode {
  if (isSystemError(err)) {
    if (err.code === 'EADDRINUSE' || err.code === 'EADDRNOTAVAIL' || err.code === 'EACCES') {
      return err.syscall === 'listen' || err.syscall === 'bind' ? EXIT.usage : EXIT.unavailable;
    }
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EISDIR') return EXIT.usage;
    return EXIT.unavailable;
  }
  if (isSqliteError(err)) return EXIT.unavailable;
  return exitCodeOf(err);
}

/**
 * One line saying what went wrong and with which file, value or address: the one style of every command's
 * failure. The line never holds a stack, an error class name or a library's own error code.
 */
export function describeFailure(err: unknown, target?: Target): string {
  const flat = (s: string) => s.replace(/\s*\n\s*/g, ' ').trim();
  if (err instanceof HeatsourceError) {
    let hint = '';
    const code = exitCodeOf(err);
    if (code === EXIT.auth && err.status === 401) {
      hint =
        target?.kind === 'remote' && !target.apiKey
          ? '; no API key: pass --key, set HEATSOURCE_API_KEY, or run `heatsource login`'
          : '; check the key (`heatsource login --url URL --key KEY` saves a new one)';
    } else if (err.code === 'rate_limited' && err.retryAfter !== null) {
      hint = `; retry in ${err.retryAfter} s`;
    } else if (err.status >= 500 && err.requestId) {
      hint = ` (request ${err.requestId})`;
    }
    // A rejected value is said once, as "field: what is wrong with it", rather than after a list of names.
    if (err.code === 'validation_failed' && err.errors.length > 0) {
      return flat(`${err.errors.map((e) => `${e.field}: ${e.message}`).join('; ')} (${err.code})${hint}`);
    }
    const fields =
      err.errors.length > 0 ? ` [${err.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}]` : '';
    return flat(`${err.detail || err.title}${fields} (${err.code})${hint}`);
  }
  if (err instanceof HeatsourceNetworkError) {
    return flat(`${err.message}; --offline answers from the local bundle`);
  }
  if (isBundleOpenError(err)) {
    const hint =
      err.name === 'BundleOpenError' && target?.kind === 'local' && target.from === 'default'
        ? '; `heatsource demo` builds it'
        : '';
    return flat(`${err.message}${hint}`);
  }
  if (err instanceof CliError) return flat(err.message);
  if (isSystemError(err)) {
    if (err.code === 'EADDRINUSE' && (err.syscall === 'listen' || err.syscall === 'bind')) {
      return `${err.address ?? 'the address'}:${err.port ?? '?'} is already in use; stop what listens there or choose another --port`;
    }
    if (err.code === 'EADDRNOTAVAIL')
      return `cannot listen on ${err.address ?? 'that address'}: not an address of this machine`;
    if (err.code === 'EACCES' && err.syscall === 'listen') {
      return `not allowed to listen on port ${err.port ?? '?'}; ports below 1024 need privileges`;
    }
    const reason = SYSTEM_REASONS[err.code] ?? err.code.toLowerCase();
    const what = err.path ?? err.dest;
    return what ? `${what}: ${reason}` : flat(err.message);
  }
  if (isSqliteError(err)) return flat(`state database: ${err.message}`);
  return flat(err instanceof Error ? err.message : String(err));
}

/**
 * oclif's parse errors span several lines, often a header ("The following errors occurred:") with the
 * real reasons below it; keep the reasons, on one line. A missing argument is named by its name and
 * description, as `--help` shows it.
 */
export function usageLine(message: string): string {
  const missing = /Missing (\d+) required args?:\s*\n?([\s\S]*)/i.exec(message);
  if (missing) {
    const args = missing[2]!
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^See more help with --help$/i.test(l))
      .map((l) => {
        const [name, ...rest] = l.split(/\s{2,}|:\s+/);
        return rest.length > 0 ? `${name!.toUpperCase()} (${rest.join(' ')})` : name!.toUpperCase();
      });
    return `missing argument${args.length > 1 ? 's' : ''} ${args.join(', ')}`;
  }
  const reasons = message
    .split('\n')
    .map((l) => l.replace(/^\s*(?:Error:)?\s*/, '').trim())
    .filter(
      (l) => l && !/^The following errors? occurred:?$/i.test(l) && !/^See more help with --help$/i.test(l),
    );
  return reasons.join('; ') || 'invalid command line';
}
