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
 * Per-key request limits. The counters are per process: a deployment with several processes behind a
 * balancer divides its limit among them, or implements this interface over a shared store.
 */
export interface RateLimiter {
  take(key: string, limitPerMinute: number): RateDecision;
}

const WINDOW_MS = 60_000;

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
