import type { FastifyInstance } from 'fastify';
import { CONSOLE_PATH, inviteHolder } from '../state/invitations.js';
import { LOCAL_ACCOUNT } from '../state/local-key.js';
import type { StateStore } from '../state/types.js';
import { loadAssets } from './assets.js';
import type { LayoutContext } from './layout.js';
import { accountRoutes } from './routes/account.js';
import { frameRoutes } from './routes/frame.js';
import { keyRoutes } from './routes/keys.js';
import { type ConsoleOptions, consoleKit } from './routes/kit.js';
import { tryRoutes } from './routes/try.js';
import { usageRoutes } from './routes/usage.js';

export type { ConsoleOptions } from './routes/kit.js';

/**
 * The account holder's web console, mounted at /console: server-rendered pages over the state store and
 * the same Services as the API. It reads sessions from its own cookie; API keys play no part in it.
 */
export async function registerConsole(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  await app.register(
    async (scope) => {
      await consolePlugin(scope, options);
    },
    { prefix: CONSOLE_PATH },
  );
}

/**
 * What `serve` prints about the console once it listens: its address and, with `invite`, a one-time
 * invitation link making that email a holder of the local account (what `npm start` does).
 */
export function consoleNotices(options: { invite?: string } = {}) {
  return async (url: string, state: StateStore): Promise<string[]> => {
    const lines = [`account console at ${url}${CONSOLE_PATH}/`];
    if (options.invite) {
      const inv = await inviteHolder(state, { account: LOCAL_ACCOUNT, email: options.invite, baseUrl: url });
      lines.push(
        `invitation for ${inv.invitation.email} to the "${inv.account.name}" account (one use, until ${inv.invitation.expires_at}):`,
        `  ${inv.url}`,
      );
    }
    return lines;
  };
}

/** One route module per page group, over the shared kit (stores, page frame, sign-in checks). */
async function consolePlugin(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const assets = loadAssets();
  const ctx: LayoutContext = { base: CONSOLE_PATH, asset: (file) => assets.get(file)!.name };
  const kit = consoleKit(options, ctx);
  await frameRoutes(app, kit, assets);
  accountRoutes(app, kit);
  keyRoutes(app, kit);
  usageRoutes(app, kit);
  tryRoutes(app, kit);
}
