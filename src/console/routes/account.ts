import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Invitation } from '../../state/holders.js';
import { tokenHash } from '../../state/invitations.js';
import { html } from '../html.js';
import { invitationPage, messagePage, signInPage } from '../pages/account.js';
import { hashPassword, passwordProblem, spendVerifyTime, verifyPassword } from '../passwords.js';
import { anonymousCsrf, csrfValid, currentSession, endSession, startSession } from '../session.js';
import { reserveSignIn, signInSucceeded, throttleScopes } from '../throttle.js';
import type { ConsoleKit } from './kit.js';

type Body = Record<string, string>;

/** Signing in and out, and the invitation link that sets a new holder's password. */
export function accountRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { base, ctx, state, field, sendPage, refuseForm, signedInPost } = kit;

  app.get('/sign-in', async (req, reply) => {
    if (await currentSession(req, state)) return reply.redirect(`${base}/keys`, 303);
    const info = (req.query as { signed_out?: string }).signed_out ? 'You are signed out.' : null;
    return sendPage(reply, signInPage(ctx, { csrf: anonymousCsrf(req, reply, base), info }));
  });

  app.post('/sign-in', async (req, reply) => {
    if (!csrfValid(req, null, field(req, 'csrf'))) return refuseForm(reply);
    const email = field(req, 'email', 320).toLowerCase();
    const password = (req.body as Body | undefined)?.password ?? '';
    const csrf = anonymousCsrf(req, reply, base);
    const scopes = throttleScopes(email, req.ip);
    if (!(await reserveSignIn(state, scopes))) {
      return sendPage(
        reply,
        signInPage(ctx, {
          csrf,
          email,
          error: 'Too many failed sign-ins. Wait 15 minutes, then try again.',
        }),
        429,
      );
    }
    const holder = email ? await state.accountHolders.holderByEmail(email) : undefined;
    let ok = false;
    if (holder) ok = await verifyPassword(holder.password_hash, password);
    else await spendVerifyTime(password);
    if (!holder || !ok) {
      // The failure was counted when the attempt was reserved.
      // One message whether or not the email holds an account: the page tells nothing about who does.
      return sendPage(
        reply,
        signInPage(ctx, { csrf, email, error: 'The email or the password is not right.' }),
        401,
      );
    }
    await signInSucceeded(state, scopes);
    await startSession(req, reply, state, holder.id, base);
    return reply.redirect(`${base}/keys`, 303);
  });

  app.post('/sign-out', async (req, reply) => {
    // Signing out of a session that has already ended needs no token: there is nothing left to end.
    if (!(await currentSession(req, state))) return reply.redirect(`${base}/sign-in`, 303);
    const session = await signedInPost(req, reply);
    if (!session) return reply;
    await endSession(req, reply, state, session, base);
    return reply.redirect(`${base}/sign-in?signed_out=1`, 303);
  });

  // ---- invitations ----

  const invalidInvitation = (reply: FastifyReply) =>
    sendPage(
      reply,
      messagePage(
        ctx,
        'Invitation not valid',
        html`<p>This invitation link cannot be used: it was used already, it expired, or it is incomplete. Ask for a new invitation, or <a href="${base}/sign-in">sign in</a> if you have set your password.</p>`,
      ),
      410,
    );

  /** The set-password form of an open invitation. */
  const showInvitation = async (
    req: FastifyRequest,
    reply: FastifyReply,
    token: string,
    inv: Invitation,
    error: string | null = null,
  ) => {
    const account = await state.account(inv.account_id);
    return sendPage(
      reply,
      invitationPage(ctx, {
        csrf: anonymousCsrf(req, reply, base),
        token,
        email: inv.email,
        account: account?.name ?? '',
        error,
      }),
      error ? 400 : 200,
    );
  };

  app.get('/invitation', async (req, reply) => {
    const token = String((req.query as { token?: string }).token ?? '').slice(0, 100);
    const inv = token ? await state.accountHolders.openInvitation(tokenHash(token)) : undefined;
    if (!inv) return invalidInvitation(reply);
    return showInvitation(req, reply, token, inv);
  });

  app.post('/invitation', async (req, reply) => {
    if (!csrfValid(req, null, field(req, 'csrf'))) return refuseForm(reply);
    const token = field(req, 'token', 100);
    const hash = tokenHash(token);
    const inv = token ? await state.accountHolders.openInvitation(hash) : undefined;
    if (!inv) return invalidInvitation(reply);
    const body = (req.body ?? {}) as Body;
    const problem = passwordProblem(body.password ?? '', body.confirm ?? '');
    if (problem) return showInvitation(req, reply, token, inv, problem);
    const holder = await state.accountHolders.acceptInvitation(hash, await hashPassword(body.password!));
    if (!holder) return invalidInvitation(reply);
    await startSession(req, reply, state, holder.id, base);
    return reply.redirect(`${base}/keys`, 303);
  });
}
