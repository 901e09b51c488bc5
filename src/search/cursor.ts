import crypto from 'node:crypto';

/** A cursor that was not issued for this query, or is not a cursor at all. The HTTP layer answers 400. */
export class InvalidCursorError extends Error {
  readonly code = 'invalid_cursor';
  readonly status = 400;
  constructor(message = 'the cursor belongs to another query; repeat the query without a cursor') {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

/** A short fingerprint of everything that decides a result list (not the page size). */
export function queryFingerprint(key: string): string {
  return crypto.createHash('sha256').update(key).digest('base64url').slice(0, 16);
}

/** An opaque base64url cursor: where the next page starts, and which query it belongs to. */
export function encodeCursor(offset: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ o: offset, q: fingerprint })).toString('base64url');
}

/** The offset a cursor points at; throws InvalidCursorError for a foreign or malformed cursor. */
export function decodeCursor(cursor: string, fingerprint: string): number {
  const malformed = () =>
    new InvalidCursorError('the cursor is malformed; use next_cursor from a previous response');
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw malformed();
  }
  const { o, q } = (parsed ?? {}) as { o?: unknown; q?: unknown };
  if (typeof o !== 'number' || !Number.isSafeInteger(o) || o < 0 || typeof q !== 'string') throw malformed();
  if (q !== fingerprint) throw new InvalidCursorError();
  return o;
}
