import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { BundleReader } from '../bundle/reader.js';
import type { DiagnosticResponse } from '../contract/diagnostic.js';
import type { SearchResponse } from '../contract/search.js';
import type { ServiceContext } from '../engine/context.js';
import { ServiceError } from '../engine/errors.js';
import { highlightFor } from '../engine/highlights.js';
import type { Services } from '../engine/services.js';
import type { Invitation } from '../state/holders.js';
import { CONSOLE_PATH, inviteHolder, tokenHash } from '../state/invitations.js';
import { LOCAL_ACCOUNT } from '../state/local-key.js';
import { periodOf } from '../state/period.js';
import type { KeyMode, StateStore } from '../state/types.js';
import { loadAssets } from './assets.js';
import { html } from './html.js';
import type { LayoutContext } from './layout.js';
import { invitationPage, messagePage, signInPage } from './pages/account.js';
import { keysPage, revokePage } from './pages/keys.js';
import { pageViewPage, type TryForm, type TryResult, tryPage } from './pages/try.js';
import { LEDGER_ROWS_SHOWN, ledgerCsv, usagePage } from './pages/usage.js';
import { hashPassword, passwordProblem, spendVerifyTime, verifyPassword } from './passwords.js';
import {
  anonymousCsrf,
  csrfValid,
  currentSession,
  endSession,
  type SignedIn,
  setFlashSecret,
  startSession,
  takeFlashSecret,
} from './session.js';
import { reserveSignIn, signInSucceeded, throttleScopes } from './throttle.js';

export interface ConsoleOptions {
  services: Services;
  state: StateStore;
  reader: BundleReader;
}

/** Pages may load only what the console serves itself; nothing may frame them. */
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'";

type Body = Record<string, string>;

function field(req: FastifyRequest, name: string, max = 2000): string {
  const v = (req.body as Body | undefined)?.[name];
  return typeof v === 'string' ? v.trim().slice(0, max) : '';
}

function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page);
}

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

async function consolePlugin(app: FastifyInstance, options: ConsoleOptions): Promise<void> {
  const { services, state, reader } = options;
  const base = CONSOLE_PATH;
  const assets = loadAssets();
  const byName = new Map([...assets.values()].map((a) => [a.name, a]));
  const ctx: LayoutContext = { base, asset: (file) => assets.get(file)!.name };

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

  /** The signed-in holder, or a redirect to the sign-in page (null returned). */
  const signedIn = async (req: FastifyRequest, reply: FastifyReply): Promise<SignedIn | null> => {
    const session = await currentSession(req, state);
    if (!session) {
      reply.redirect(`${base}/sign-in`, 303);
      return null;
    }
    return session;
  };

  /** As signedIn, for a form post: also checks its CSRF token. */
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

  // ---- signing in and out ----

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

  // ---- keys ----

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

  // ---- usage ----

  const periodParam = z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional()
    .catch(undefined);

  app.get('/usage', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const id = session.account.id;
    const period = periodOf(Date.now()).name;
    const [quota, daily, ledger, keys] = await Promise.all([
      state.quota(id),
      state.accountHolders.dailyUsage(id, period),
      state.ledger({ account_id: id, period, limit: LEDGER_ROWS_SHOWN + 1 }),
      state.keys(id),
    ]);
    return sendPage(reply, usagePage(ctx, { session, quota, daily, ledger, keys }));
  });

  app.get('/usage.csv', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const period = periodParam.parse((req.query as { period?: string }).period) ?? periodOf(Date.now()).name;
    const id = session.account.id;
    const [ledger, keys] = await Promise.all([
      state.ledger({ account_id: id, period, limit: 1_000_000 }),
      state.keys(id),
    ]);
    return reply
      .type('text/csv; charset=utf-8')
      .header('Cache-Control', 'no-store')
      .header('Content-Disposition', `attachment; filename="heatsource-usage-${period}.csv"`)
      .send(ledgerCsv(ledger, keys));
  });

  // ---- try it ----

  const brands = reader.brands();
  const models = [...new Set(reader.models().map((m) => m.name))].slice(0, 1000);
  const emptyForm: TryForm = { brand: '', model: '', error_code: '', q: '' };
  const serviceContext = (req: FastifyRequest, session: SignedIn): ServiceContext => ({
    account: session.account,
    key: null,
    requestId: req.id,
    idempotencyKey: null,
  });

  app.get('/try', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    return sendPage(reply, tryPage(ctx, { session, form: emptyForm, brands, models }));
  });

  app.post('/try', async (req, reply) => {
    const session = await signedInPost(req, reply);
    if (!session) return reply;
    const form: TryForm = {
      brand: field(req, 'brand', 100),
      model: field(req, 'model', 100),
      error_code: field(req, 'error_code', 32),
      q: field(req, 'q', 500),
    };
    let result: TryResult;
    try {
      if (form.q) {
        const r = await services.invoke(serviceContext(req, session), 'search', { q: form.q, limit: 5 });
        const body = r.body as SearchResponse;
        const top = body.results[0];
        result = {
          kind: 'search',
          body,
          highlight: top
            ? highlightFor(reader, {
                document_id: top.document_id,
                page: top.page,
                text: top.snippet,
                chunk_id: top.chunk_id,
              })
            : null,
        };
      } else {
        const r = await services.invoke(serviceContext(req, session), 'diagnose', diagnosticInput(form));
        const body = r.body as DiagnosticResponse;
        result = {
          kind: 'diagnostic',
          body,
          highlight: body.excerpt
            ? highlightFor(reader, {
                document_id: body.excerpt.document_id,
                page: body.excerpt.page,
                text: body.excerpt.text,
              })
            : null,
        };
      }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      result = { kind: 'error', message: err.detail };
    }
    const status = result.kind === 'error' ? 400 : 200;
    return sendPage(reply, tryPage(ctx, { session, form, brands, models, result }), status);
  });

  const pageQuery = z.object({
    doc: z.string().min(1).max(300),
    page: z.coerce.number().int().min(1).max(100_000),
    text: z.string().max(2000).default(''),
  });

  app.get('/page', async (req, reply) => {
    const session = await signedIn(req, reply);
    if (!session) return reply;
    const q = pageQuery.safeParse(req.query);
    const doc = q.success ? reader.document(q.data.doc) : undefined;
    const h =
      q.success && doc
        ? highlightFor(reader, { document_id: doc.id, page: q.data.page, text: q.data.text })
        : null;
    if (!doc || !h) {
      return sendPage(
        reply,
        messagePage(ctx, 'No such page', html`<p>The bundle has no such page.</p>`),
        404,
      );
    }
    return sendPage(reply, pageViewPage(ctx, { session, highlight: h, title: doc.title }));
  });

  app.get('/snapshot/:doc/:page', async (req, reply) => {
    const session = await currentSession(req, state);
    if (!session) return reply.code(401).type('text/plain').send('sign in first');
    const p = req.params as { doc: string; page: string };
    try {
      const r = await services.invoke(serviceContext(req, session), 'get_pdf_snapshot', {
        document_id: p.doc,
        page: p.page,
        format: 'webp',
      });
      if (!r.binary) return reply.code(404).send();
      return reply
        .type(r.binary.contentType)
        .header('ETag', r.binary.etag)
        .header('Cache-Control', 'private, max-age=86400')
        .send(r.binary.data);
    } catch (err) {
      if (err instanceof ServiceError) return reply.code(err.status).type('text/plain').send(err.detail);
      throw err;
    }
  });
}

/** The diagnostic request of the Try-it form, whose fields carry the contract's names. */
function diagnosticInput(form: TryForm): Record<string, string> {
  return {
    brand: form.brand,
    ...(form.model ? { model: form.model } : {}),
    error_code: form.error_code,
  };
}
