import type { FastifyInstance, FastifyReply } from 'fastify';
import type { KeyMode } from '../../state/types.js';
import { html } from '../html.js';
import { messagePage } from '../pages/account.js';
import { keysPage, revokePage } from '../pages/keys.js';
import { type SignedIn, setFlashSecret, takeFlashSecret } from '../session.js';
import type { ConsoleKit } from './kit.js';

/** The account's API keys: list, create (the secret shown once), revoke after confirmation. */
export function keyRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { base, ctx, state, field, sendPage, signedIn, signedInPost } = kit;
  const keysPath = `${base}/keys`;

  app.get('/keys', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const q = req.query as { revoked?: string };
    const secret = takeFlashSecret(req, reply, session, keysPath);
    const keys = await state.keys(session.account.id);
    const revoked = q.revoked ? keys.find((k) => k.id === q.revoked && k.revoked_at) : undefined;
    return sendPage(
      reply,
      keysPage(ctx, {
        session,
        keys,
        secret,
        info: revoked ? `Key ${revoked.prefix}… is revoked.` : null,
      }),
    );
  });

  app.post('/keys', async (req, reply) => {
    const session = await signedInPost(req, reply);
    if (!session) return reply;
    const mode = field(req, 'mode');
    const label = field(req, 'label', 100) || null;
    if (mode !== 'live' && mode !== 'test') {
      return sendPage(
        reply,
        keysPage(ctx, {
          session,
          keys: await state.keys(session.account.id),
          error: 'Choose live or test.',
        }),
        400,
      );
    }
    const created = await state.createKey(session.account.id, mode as KeyMode, label);
    setFlashSecret(req, reply, session, created.secret, keysPath);
    return reply.redirect(keysPath, 303);
  });

  /** A key of the session's account that is not revoked; another account's key is as unknown as no key. */
  const ownKey = async (session: SignedIn, id: string) =>
    (await state.keys(session.account.id)).find((k) => k.id === id && !k.revoked_at);

  const noKey = (reply: FastifyReply) =>
    sendPage(
      reply,
      messagePage(
        ctx,
        'No such key',
        html`<p>No active key with this id. <a href="${keysPath}">Back to keys</a>.</p>`,
      ),
      404,
    );

  app.get('/keys/:id/revoke', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const key = await ownKey(session, (req.params as { id: string }).id);
    if (!key) return noKey(reply);
    return sendPage(reply, revokePage(ctx, { session, key }));
  });

  app.post('/keys/:id/revoke', async (req, reply) => {
    const session = await signedInPost(req, reply);
    if (!session) return reply;
    const key = await ownKey(session, (req.params as { id: string }).id);
    if (!key) return noKey(reply);
    // Revoking through the server's own store clears its authentication cache: refused at once.
    await state.revokeKey(key.id);
    return reply.redirect(`${keysPath}?revoked=${encodeURIComponent(key.id)}`, 303);
  });
}
