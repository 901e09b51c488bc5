import { type ClientOptions, createClient } from '@heatsource/sdk';
import type { HeatsourceClient } from './types.js';

export interface RemoteClientOptions {
  url: string;
  apiKey?: string;
  timeoutMs?: number;
  retries?: number;
  fetch?: ClientOptions['fetch'];
}

/** A client of a heatsource server, through the SDK. */
export function openRemoteClient(options: RemoteClientOptions): HeatsourceClient {
  const api = createClient({
    baseUrl: options.url,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { ...api, target: { kind: 'remote', url: options.url }, close: async () => {} };
}
