import { Flags } from '@oclif/core';
import { HeatsourceCommand } from '../src/cli/base-command.js';
import { CliError, EXIT } from '../src/cli/exit-codes.js';
import { stateFlag } from '../src/cli/state-flag.js';
import { projectPath } from '../src/project-path.js';
import { DEFAULT_HEAP_GROWTH_PERCENT } from '../src/serve/heap-growth.js';
import { ServeConfigError, startServer } from '../src/serve/server.js';
import { defaultStatePath } from '../src/state/open.js';
import { DEFAULT_MAX_OPEN_SESSIONS } from '../src/state/quota.js';

export default class Serve extends HeatsourceCommand {
  static override summary = 'Serve the REST API (v1, v2), MCP and the account console over a bundle.';
  static override description =
    'Opens the bundle read-only and the state (accounts, keys, usage, idempotency, sessions): a SQLite file for ' +
    'one process, or a PostgreSQL URL shared by any number of replicas; then listens. ' +
    'With an empty state it creates a local account and prints one test key, once. SIGTERM drains requests ' +
    'in flight before stopping. The web console for account holders is at /console (invite holders with ' +
    '`accounts invite`). Logs are JSON lines on stdout; notices (and the key) go to stderr.';
  static override examples = [
    '<%= config.bin %> serve',
    '<%= config.bin %> serve --bundle corpus.bundle --state /var/lib/heatsource/state.sqlite --host 0.0.0.0 --port 8080',
    '<%= config.bin %> serve --no-auth --port 8081',
    '<%= config.bin %> serve --state postgres://heatsource@db.internal/heatsource --host 0.0.0.0',
  ];
  static override flags = {
    bundle: Flags.string({
      char: 'b',
      description: 'bundle file (default: data/demo.bundle)',
      env: 'HEATSOURCE_BUNDLE',
    }),
    ...stateFlag,
    host: Flags.string({ description: 'address to listen on', env: 'HOST', default: '127.0.0.1' }),
    port: Flags.integer({ char: 'p', description: 'port', env: 'PORT', default: 8080, min: 0, max: 65535 }),
    auth: Flags.boolean({
      description: 'require API keys; --no-auth serves without keys and only on a loopback address',
      default: true,
      allowNo: true,
    }),
    cors: Flags.string({
      description: 'origins allowed to call from browsers, comma-separated, or *',
      env: 'HEATSOURCE_CORS_ORIGINS',
    }),
    'trust-proxy': Flags.string({
      description:
        'addresses or CIDR ranges of reverse proxies whose X-Forwarded-For names the client, comma-separated',
      env: 'HEATSOURCE_TRUST_PROXY',
    }),
    'max-open-sessions': Flags.integer({
      description: 'open guided sessions one API key may hold; one more is refused (409) until one is closed',
      env: 'HEATSOURCE_MAX_OPEN_SESSIONS',
      default: DEFAULT_MAX_OPEN_SESSIONS,
      min: 1,
    }),
    'heap-growth': Flags.integer({
      description:
        'percent the V8 heap may grow past its live data before a major garbage collection (0: V8 decides, which lets it reach several times the live data)',
      env: 'HEATSOURCE_HEAP_GROWTH',
      default: DEFAULT_HEAP_GROWTH_PERCENT,
      min: 0,
      max: 1000,
    }),
    'log-level': Flags.string({
      description: 'log level',
      options: ['fatal', 'error', 'warn', 'info', 'debug', 'silent'],
      default: 'info',
      env: 'LOG_LEVEL',
    }),
    'log-format': Flags.string({
      description:
        'lines: one readable line per request; json: one JSON record per line; auto: lines on a terminal',
      options: ['auto', 'lines', 'json'],
      default: 'auto',
      env: 'HEATSOURCE_LOG_FORMAT',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    const cors = flags.cors?.trim()
      ? flags.cors.trim() === '*'
        ? '*'
        : flags.cors
            .split(',')
            .map((o) => o.trim())
            .filter(Boolean)
      : false;
    // A notice to a reader that went away must not crash the server (EPIPE): it is dropped.
    process.stderr.on('error', () => {});
    try {
      const server = await startServer(
        {
          bundle: flags.bundle ?? projectPath('data', 'demo.bundle'),
          state: flags.state ?? defaultStatePath(),
          host: flags.host,
          port: flags.port,
          auth: flags.auth,
          cors,
          trustProxy: (flags['trust-proxy'] ?? '')
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
          maxOpenSessions: flags['max-open-sessions'],
          heapGrowthPercent: flags['heap-growth'],
          logLevel: flags['log-level'],
          logFormat: flags['log-format'] as 'auto' | 'lines' | 'json',
          // The web console and the field app beside the API.
          surfaces: {},
        },
        (line) => process.stderr.write(`${line}\n`),
      );
      // Returning would let the CLI framework wait for stdout to drain, and fail when a log reader
      // stalls; the process ends when the server has stopped (on SIGTERM/SIGINT).
      await server.closed;
    } catch (err) {
      if (err instanceof ServeConfigError) throw new CliError(err.message, EXIT.usage);
      throw err;
    }
  }
}
