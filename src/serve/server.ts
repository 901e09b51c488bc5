import net from 'node:net';
import { BundleOpenError, BundleReader } from '../bundle/reader.js';
import { isLoopbackHost } from '../edge/loopback.js';
import { corpusView } from '../engine/corpus.js';
import { exampleDiagnostic } from '../engine/examples.js';
import { curlExample, ensureLocalKey, LOCAL_ACCOUNT } from '../state/local-key.js';
import { defaultStatePath, describeState, openStateStore } from '../state/open.js';
import type { StateStore } from '../state/types.js';
import { buildApp } from './app.js';
import { type LogFormat, readableLine, resolveLogFormat } from './log-lines.js';
import { LogSink } from './log-sink.js';
import { applyRuntimeSettings } from './runtime-settings.js';
import { type SurfaceOptions, surfaces } from './surfaces.js';

export interface ServeOptions {
  bundle: string;
  state: string;
  host: string;
  port: number;
  /** false: no API keys; refused unless `host` is a loopback address. */
  auth: boolean;
  cors?: string[] | '*' | false;
  /** Reverse proxies whose X-Forwarded-For is believed (addresses or CIDR ranges). */
  trustProxy?: string[];
  /** Open guided sessions one API key may hold (default DEFAULT_MAX_OPEN_SESSIONS). */
  maxOpenSessions?: number;
  logLevel?: string;
  /** `lines`: one readable line per request; `json`: pino's records; `auto` (default): lines on a terminal. */
  logFormat?: 'auto' | LogFormat;
  /** How long in-flight requests may take to finish after SIGTERM before the process exits anyway. */
  drainMs?: number;
  /**
   * The browser surfaces beside the API (default: the web console and the field app); what they print
   * comes once the server listens, after the local key, if any.
   */
  surfaces?: SurfaceOptions;
  /** V8 heap growth past the live data between major collections, percent (0: V8's own); see heap-growth.ts. */
  heapGrowthPercent?: number;
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
  /** Settles once the server has been closed (by `close()` or a signal). */
  closed: Promise<void>;
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
  const badProxy = (options.trustProxy ?? []).find((entry) => !isProxyAddress(entry));
  if (badProxy !== undefined) {
    throw new ServeConfigError(
      `--trust-proxy takes IP addresses or CIDR ranges (10.0.0.0/8), or loopback, linklocal, uniquelocal; got "${badProxy}"`,
    );
  }
  applyRuntimeSettings({ heapGrowthPercent: options.heapGrowthPercent });
  let reader: BundleReader;
  try {
    reader = new BundleReader(options.bundle);
  } catch (err) {
    if (err instanceof BundleOpenError) throw new ServeConfigError(err.message);
    throw err;
  }
  let state: StateStore;
  try {
    state = await openStateStore(options.state);
  } catch (err) {
    reader.close();
    throw new ServeConfigError(
      `cannot open the state ${describeState(options.state)}: ${(err as Error).message}`,
    );
  }
  // A server killed mid-request leaves its Idempotency-Keys in flight: released now, a retry is served.
  const released = await state.reclaimAbandonedIdempotency();
  const mounted = surfaces(options.surfaces);
  const format = resolveLogFormat(options.logFormat, process.stdout.isTTY === true);
  const logs = new LogSink(1, undefined, format === 'lines' ? readableLine : undefined);
  const app = await buildApp({
    bundle: reader,
    state,
    auth: options.auth,
    cors: options.cors ?? false,
    trustProxy: options.trustProxy,
    processMetrics: true,
    maxOpenSessions: options.maxOpenSessions,
    logger: { level: options.logLevel ?? 'info', stream: logs },
    extend: mounted.extend,
  });
  if (released > 0) app.log.info({ released }, 'released idempotency keys held by a stopped server');
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
      const stateFlag =
        options.state === defaultStatePath() ? '' : ` --state ${shellWord(describeState(options.state))}`;
      notice(`a new test key: heatsource keys create --account ${LOCAL_ACCOUNT} --mode test${stateFlag}`);
      notice(
        `try it (with the key in HEATSOURCE_API_KEY):\n  ${curlExample(url, '$HEATSOURCE_API_KEY', example)}`,
      );
    }
  }
  // SIGHUP: the bundle file was replaced (by rename); serve the new one from the next request on.
  const retired: BundleReader[] = [];
  const onHangup = () => {
    let next: BundleReader;
    try {
      next = new BundleReader(options.bundle);
    } catch (err) {
      app.log.error({ err }, 'SIGHUP: cannot open the new bundle; still serving the previous one');
      notice(
        `SIGHUP: cannot open ${options.bundle} (${(err as Error).message}); still serving the previous bundle`,
      );
      return;
    }
    const old = app.heatsource.services.reopen(next);
    retired.push(old);
    app.log.info({ bundle: options.bundle, built_at: next.builtAt }, 'bundle reopened');
    notice(`SIGHUP: serving ${options.bundle} built at ${next.builtAt}`);
    // Requests that started on the old bundle have long finished by then.
    setTimeout(() => {
      retired.splice(retired.indexOf(old), 1);
      old.close();
    }, 60_000).unref();
  };
  process.on('SIGHUP', onHangup);

  for (const line of await mounted.notices(url, state)) notice(line);
  const purge = setInterval(() => {
    state.purgeExpiredIdempotency().catch((err) => app.log.error({ err }, 'idempotency purge failed'));
    state.purgeExpiredSessions().catch((err) => app.log.error({ err }, 'session purge failed'));
  }, 10 * 60_000);
  purge.unref();

  let closing: Promise<void> | undefined;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
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
      process.off('SIGHUP', onHangup);
      await state.close();
      app.heatsource.services.reader.close();
      for (const old of retired.splice(0)) old.close();
    })().finally(markClosed);
    return closing;
  };
  // The process exits by the drain deadline whatever happens meanwhile: nothing registered to run at
  // exit may block (the log sink does not write at exit), and lines a stalled log reader has not taken
  // by then are lost rather than waited for.
  const onSignal = (signal: NodeJS.Signals) => {
    notice(`${signal}: finishing requests in flight, then stopping`);
    const deadline = Date.now() + (options.drainMs ?? 10_000);
    const timer = setTimeout(() => {
      notice('requests still in flight after the drain period; stopping anyway');
      process.exit(1);
    }, deadline - Date.now());
    timer.unref();
    close().then(
      async () => {
        // A second at most for the log reader to take the last lines.
        await logs.flush(Math.min(1000, Math.max(0, deadline - Date.now())));
        process.exit(0);
      },
      (err) => {
        notice(`shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return { url, close, closed };
}

/** A file name as a shell word: quoted only when it needs to be. */
function shellWord(value: string): string {
  return /^[\w./:-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** An entry `--trust-proxy` accepts: an address, a CIDR range, or one of proxy-addr's named ranges. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return net.isIP(prefix) === family; // a netmask: 255.255.0.0
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
