import { hostName, isLoopbackHost } from './loopback.js';

export { hostName, isLoopbackHost };

function normaliseOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    return url.origin === 'null' ? null : url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * Which browser origins may call the endpoint. Pages served from the machine itself (loopback origins,
 * any port) always may; others only when listed, or with '*'. Requests without Origin (every
 * non-browser client) are not concerned.
 */
export class OriginPolicy {
  private readonly listed: Set<string>;
  private readonly any: boolean;

  constructor(allowed: string[] | '*' = []) {
    this.any = allowed === '*';
    this.listed = new Set(
      allowed === '*' ? [] : allowed.map(normaliseOrigin).filter((o): o is string => o !== null),
    );
  }

  allows(origin: string | undefined): boolean {
    if (origin === undefined || this.any) return true;
    const normal = normaliseOrigin(origin);
    if (normal === null) return false;
    if (this.listed.has(normal)) return true;
    const url = new URL(normal);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  }
}
