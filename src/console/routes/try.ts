import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { DiagnosticResponse } from '../../contract/diagnostic.js';
import type { SearchResponse } from '../../contract/search.js';
import type { ServiceContext } from '../../engine/context.js';
import { ServiceError } from '../../engine/errors.js';
import { highlightFor } from '../../engine/highlights.js';
import { html } from '../html.js';
import { messagePage } from '../pages/account.js';
import { pageViewPage, type TryForm, type TryResult, tryPage } from '../pages/try.js';
import { currentSession, type SignedIn } from '../session.js';
import type { ConsoleKit } from './kit.js';

/** Try it: a look-up or a search through the same Services as the API, the cited page and its snapshot. */
export function tryRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { ctx, services, state, reader, field, sendPage, signedIn, signedInPost } = kit;

  // The form's brand and model choices, read when the page is first shown rather than when the server
  // starts: at 100,000 pages the bundle names 14,528 models, and reading them delayed every start.
  let choices: { brands: string[]; models: string[] } | undefined;
  const lists = () =>
    (choices ??= {
      brands: reader.brands(),
      models: [...new Set(reader.models().map((m) => m.name))].slice(0, 1000),
    });
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
    return sendPage(reply, tryPage(ctx, { session, form: emptyForm, ...lists() }));
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
    return sendPage(reply, tryPage(ctx, { session, form, ...lists(), result }), status);
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
