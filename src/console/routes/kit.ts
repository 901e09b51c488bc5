import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BundleReader } from '../../bundle/reader.js';
import type { Services } from '../../engine/services.js';
import { CONSOLE_PATH } from '../../state/invitations.js';
import type { StateStore } from '../../state/types.js';
import { html } from '../html.js';
import type { LayoutContext } from '../layout.js';
import { messagePage } from '../pages/account.js';
import { csrfValid, currentSession, type SignedIn } from '../session.js';

export interface ConsoleOptions {
  services: Services;
  state: StateStore;
  reader: BundleReader;
}

type Body = Record<string, string>;

/** What every route module of the console shares: the stores, the page frame and the sign-in checks. */
export interface ConsoleKit extends ConsoleOptions {
  /** Where the console is mounted: `/console`. */
  base: string;
  ctx: LayoutContext;
  /** A form field, trimmed and cut to `max` characters; '' when absent. */
  field(req: FastifyRequest, name: string, max?: number): string;
  sendPage(reply: FastifyReply, page: string, status?: number): FastifyReply;
  /** The page for a form post that failed its CSRF check. */
  refuseForm(reply: FastifyReply): FastifyReply;
  /** The signed-in holder, or a redirect to the sign-in page (null returned). */
  signedIn(req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null>;
  /** As signedIn, for a form post: also checks its CSRF token. */
  signedInPost(req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null>;
}

export function consoleKit(options: ConsoleOptions, ctx: LayoutContext): ConsoleKit {
  const { state } = options;
  const base = CONSOLE_PATH;
  const field = (req: FastifyRequest, name: string, max = 2000): string => {
    const v = (req.body as Body | undefined)?.[name];
    return typeof v === 'string' ? v.trim().slice(0, max) : '';
  };
  const sendPage = (reply: FastifyReply, page: string, status = 200): FastifyReply =>
    reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);

  const refuseForm = (reply: FastifyReply) =>
    sendPage(
      reply,
      messagePage(
        ctx,
        'Form refused',
        html`<p>This form could not be accepted: it expired or was sent from another site. Go back, reload the page and try again.</p>`,
      ),
      403,
    );

  const signedIn = async (req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> => {
    const session = await currentSession(req, state);
    if (!session) {
      reply.redirect(`${base}/sign-in`, 303);
      return null;
    }
    return session;
  };

  const signedInPost = async (req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> => {
    const session = await currentSession(req, state);
    if (!csrfValid(req, session, field(req, 'csrf'))) {
      refuseForm(reply);
      return null;
    }
    if (!session) {
      reply.redirect(`${base}/sign-in`, 303);
      return null;
    }
    return session;
  };

  return { ...options, base, ctx, field, sendPage, refuseForm, signedIn, signedInPost };
}
