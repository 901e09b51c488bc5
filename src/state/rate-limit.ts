/** The outcome of counting one request against a key's limit, with what the RateLimit fields report. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Per-key request limits. The state stores count in their database (StateStore.rateLimiter), so that
 * processes sharing a store share the limit; MemoryRateLimiter counts in one process only.
 */
export interface RateLimiter {
  take(key: string, limitPerMinute: number): RateDecision | Promise<RateDecision>;
}

export const WINDOW_MS = 60_000;

/** The decision for the `count`-th request of a window that started at `windowStart`. */
export function rateDecision(limit: number, count: number, windowStart: number, now: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)),
    windowSeconds: WINDOW_MS / 1000,
  };
}

/**
 * One statement that counts a request in a fixed one-minute window per key, aligned to the key's first
 * request, and returns the window: the same SQL on SQLite and PostgreSQL (placeholders aside).
 */
export function rateWindowSql(placeholders: [string, string]): string {
  const [key, now] = placeholders;
  return `INSERT INTO rate_windows (key, window_start, count) VALUES (${key}, ${now}, 1)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_windows.window_start <= excluded.window_start - ${WINDOW_MS} THEN 1 ELSE rate_windows.count + 1 END,
      window_start = CASE WHEN rate_windows.window_start <= excluded.window_start - ${WINDOW_MS} THEN excluded.window_start ELSE rate_windows.window_start END
    RETURNING window_start, count`;
}

/** Fixed one-minute windows, aligned per key to its first request. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, limitPerMinute: number): RateDecision {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (this.windows.size > 100_000) this.prune(now);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    const resetSeconds = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    if (w.count >= limitPerMinute) {
      return {
        allowed: false,
        limit: limitPerMinute,
        remaining: 0,
        resetSeconds,
        windowSeconds: WINDOW_MS / 1000,
      };
    }
    w.count++;
    return {
      allowed: true,
      limit: limitPerMinute,
      remaining: limitPerMinute - w.count,
      resetSeconds,
      windowSeconds: WINDOW_MS / 1000,
    };
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(k);
  }
}
