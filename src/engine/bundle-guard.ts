import { BundleOpenError, type BundleReader } from '../bundle/reader.js';
import type { ServiceContext, ServiceResult } from './context.js';
import { ServiceError } from './errors.js';

type Handler = (ctx: ServiceContext, input: never) => ServiceResult | Promise<ServiceResult>;

/** Operations that read the state store only, and answer while the bundle cannot be read. */
const STATE_ONLY = new Set(['whoami']);

/** SQLite's codes for a file that is damaged or cannot be read (better-sqlite3 puts them on `code`). */
const UNREADABLE = /^SQLITE_(CORRUPT|NOTADB|IOERR)/;

const DETAIL =
  'the bundle cannot be read (it was written to in place or is damaged); the operator must publish it ' +
  'again by rename and reload the server';

/**
 * The 503 a caller gets when what it asked for cannot be read: the bundle was written to in place, or
 * SQLite found a file damaged. Anything else is returned as null, for the caller to handle. The detail
 * names no path: the file is the operator's business, and /readyz fails for the balancer.
 */
export function unreadableProblem(err: unknown): ServiceError | null {
  if (err instanceof BundleOpenError) return new ServiceError('service_unavailable', DETAIL);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNREADABLE.test(code))
    return new ServiceError(
      'service_unavailable',
      'stored data cannot be read (a damaged file); retry later',
    );
  return null;
}

/**
 * A handler that first checks the bundle was not written to in place since it was opened (a stat), and
 * answers 503 for a bundle that cannot be read rather than a 500, or an answer read from damaged pages.
 */
export function guardBundleReads<H extends Handler>(
  reader: () => BundleReader,
  name: string,
  handler: H | undefined,
): H | undefined {
  if (!handler || STATE_ONLY.has(name)) return handler;
  return (async (ctx: ServiceContext, input: never) => {
    try {
      reader().assertIntact();
      return await handler(ctx, input);
    } catch (err) {
      throw unreadableProblem(err) ?? err;
    }
  }) as H;
}
