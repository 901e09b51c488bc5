import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { loadAssets } from '../assets.js';
import { html } from '../html.js';
import { messagePage } from '../pages/account.js';
import { currentSession } from '../session.js';
import type { ConsoleKit } from './kit.js';

/** Pages may load only what the console serves itself; nothing may frame them. */
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

/**
 * What every console page shares: cookies, form bodies, security headers, the not-found and error
 * pages, the hashed assets, and the entry redirect.
 */
export async function frameRoutes(
  app: FastifyInstance,
  kit: ConsoleKit,
  assets: ReturnType<typeof loadAssets>,
): Promise<void> {
  const { base, ctx, sendPage, state } = kit;
  const byName = new Map([...assets.values()].map((a) => [a.name, a]));

  await app.register(cookie);
  // Forms post application/x-www-form-urlencoded; URLSearchParams is the platform's parser for it.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('Content-Security-Policy', CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts.
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
    return payload;
  });
  app.setNotFoundHandler((_req, reply) =>
    sendPage(
      reply,
      messagePage(ctx, 'Not found', html`<p>No such page. <a href="${base}/">Go to the console</a>.</p>`),
      404,
    ),
  );
  app.setErrorHandler((err, req, reply) => {
    const status = (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return sendPage(
        reply,
        messagePage(ctx, 'Request refused', html`<p>The request could not be read.</p>`),
        status,
      );
    }
    req.log.error({ err }, 'console request failed');
    return sendPage(
      reply,
      messagePage(
        ctx,
        'Something went wrong',
        html`<p>Quote request id <code>${req.id}</code> when reporting it.</p>`,
      ),
      500,
    );
  });

  app.get('/assets/:name', async (req, reply) => {
    const asset = byName.get((req.params as { name: string }).name);
    if (!asset) return reply.callNotFound();
    return reply
      .type(asset.contentType)
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .send(asset.body);
  });

  app.get('/', async (req, reply) => {
    const session = await currentSession(req, state);
    return reply.redirect(`${base}/${session ? 'keys' : 'sign-in'}`, 303);
  });
}
