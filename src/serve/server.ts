import { BundleOpenError, BundleReader } from '../bundle/reader.js';
import { isLoopbackHost } from '../edge/loopback.js';
import { corpusView } from '../engine/corpus.js';
import { exampleDiagnostic } from '../engine/examples.js';
import { curlExample, ensureLocalKey, LOCAL_ACCOUNT } from '../state/local-key.js';
import { defaultStatePath } from '../state/open.js';
import { SqliteStateStore } from '../state/sqlite-store.js';
import type { StateStore } from '../state/types.js';
import { type BuildAppOptions, buildApp } from './app.js';

export interface ServeOptions {
  bundle: string;
  state: string;
  host: string;
  port: number;
  /** false: no API keys; refused unless `host` is a loopback address. */
  auth: boolean;
  cors?: string[] | '*' | false;
  logLevel?: string;
  /** How long in-flight requests may take to finish after SIGTERM before the process exits anyway. */
  drainMs?: number;
  /** Further routes (the web console), registered once the API is. */
  extend?: BuildAppOptions['extend'];
  /** Lines for the person starting the server, once it listens (after the local key, if any). */
  afterListen?: (url: string, state: StateStore) => Promise<string[]>;
}

/** A configuration `serve` refuses, with the reason to show. */
export class ServeConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServeConfigError';
  }
}

export interface RunningServer {
  url: string;
  /** Stops accepting requests, waits for those in flight, closes the stores. */
  close(): Promise<void>;
}

/**
 * Starts the API: opens the bundle read-only and the state store, shows a key when the state is empty,
 * listens, and drains on SIGTERM/SIGINT. `notice` receives the lines meant for the person starting it
 * (never logs: the key must not reach a log collector).
 */
export async function startServer(
  options: ServeOptions,
  notice: (line: string) => void,
): Promise<RunningServer> {
  if (!options.auth && !isLoopbackHost(options.host)) {
    throw new ServeConfigError(
      `--no-auth serves without API keys and is allowed only on a loopback address (127.0.0.1, ::1, localhost); got --host ${options.host}`,
    );
  }
  let reader: BundleReader;
  try {
    reader = new BundleReader(options.bundle);
  } catch (err) {
    if (err instanceof BundleOpenError) throw new ServeConfigError(err.message);
    throw err;
  }
  let state: SqliteStateStore;
  try {
    state = new SqliteStateStore(options.state);
  } catch (err) {
    reader.close();
    throw new ServeConfigError(`cannot open the state database ${options.state}: ${(err as Error).message}`);
  }
  const app = await buildApp({
    bundle: reader,
    state,
    auth: options.auth,
    cors: options.cors ?? false,
    processMetrics: true,
    logger: { level: options.logLevel ?? 'info' },
    extend: options.extend,
  });
  const address = await app.listen({ host: options.host, port: options.port });
  const url = address.replace('0.0.0.0', '127.0.0.1');
  notice(
    `heatsource serving ${options.bundle} at ${url}${options.auth ? '' : ' without API keys (loopback only)'}`,
  );
  if (options.auth) {
    const created = await ensureLocalKey(state);
    const example = exampleDiagnostic(corpusView(reader)) ?? undefined;
    if (created) {
      notice(
        `created account "${created.account.name}" with a test key (shown once, only its hash is stored):`,
      );
      notice(`  ${created.secret}`);
      notice(`try it:\n  ${curlExample(url, created.secret, example)}`);
    } else {
      // Keys are stored as hashes and cannot be shown again: say how to get a new one, every start.
      const stateFlag = options.state === defaultStatePath() ? '' : ` --state ${shellWord(options.state)}`;
      notice(`a new test key: heatsource keys create --account ${LOCAL_ACCOUNT} --mode test${stateFlag}`);
      notice(
        `try it (with the key in HEATSOURCE_API_KEY):\n  ${curlExample(url, '$HEATSOURCE_API_KEY', example)}`,
      );
    }
  }
  if (options.afterListen) for (const line of await options.afterListen(url, state)) notice(line);
  const purge = setInterval(() => {
    state.purgeExpiredIdempotency().catch((err) => app.log.error({ err }, 'idempotency purge failed'));
  }, 10 * 60_000);
  purge.unref();

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      app.heatsource.draining = true;
      clearInterval(purge);
      // Requests in flight finish with `Connection: close`; idle keep-alive connections are closed as
      // they appear, so that the drain ends when the last request does.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 50);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await state.close();
      reader.close();
    })();
    return closing;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    notice(`${signal}: finishing requests in flight, then stopping`);
    const timer = setTimeout(() => {
      notice('requests still in flight after the drain period; stopping anyway');
      process.exit(1);
    }, options.drainMs ?? 10_000);
    timer.unref();
    close().then(
      () => process.exit(0),
      (err) => {
        notice(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { url, close };
}

/** A file name as a shell word: quoted only when it needs to be. */
function shellWord(value: string): string {
  return /^[\w./:-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}
