/** Backoff between attempts: exponential, capped, with jitter so that clients do not retry in step. */
export interface BackoffOptions {
  /** Delay before the first retry, before jitter. Default 300 ms. */
  initialMs?: number;
  /** Largest delay computed by the backoff. Default 8 s. */
  maxMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown instead. Default 60 s. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = {
  initialMs: 300,
  maxMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Delay before retry number `attempt` (0 for the first retry): half fixed, half random. */
export function backoffDelay(
  attempt: number,
  options: Required<BackoffOptions>,
  random = Math.random,
): number {
  const ceiling = Math.min(options.maxMs, options.initialMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After in seconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Waits, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random UUID (v4) from Web Crypto, which browsers and Node 20+ both provide. */
export function randomKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  if (!c || typeof c.getRandomValues !== 'function') {
    throw new Error('no Web Crypto: pass idempotencyKey explicitly');
  }
  // randomUUID exists only in secure contexts in browsers; getRandomValues everywhere.
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
