import type { HeatsourceApi } from '@heatsource/sdk';

/** Where a client gets its answers: a bundle on this machine, or a server. */
export type ClientTarget = { kind: 'local'; bundle: string } | { kind: 'remote'; url: string };

/**
 * What the terminal talks to: the API's methods (the SDK's own signatures and types), whichever way the
 * calls travel. Failures are the SDK's errors in both cases: HeatsourceError for a problem document,
 * HeatsourceNetworkError when a server cannot be reached.
 */
export interface HeatsourceClient extends HeatsourceApi {
  readonly target: ClientTarget;
  /** Releases the bundle and the state a local client holds; nothing for a remote one. */
  close(): Promise<void>;
}
