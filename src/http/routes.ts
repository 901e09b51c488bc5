import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OperationSpec } from '../contract/operations.js';
import type { Authenticator } from '../edge/auth.js';
import type { HttpMetrics } from '../edge/metrics.js';
import { type ServiceContext, type ServiceResult, stateOf } from '../engine/context.js';
import { ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';
import { keptUtf8 } from '../kept-bytes.js';

/**
 * The image format an Accept header prefers among the two we serve: WebP (as stored) unless PNG is
 * ranked higher; null when the header accepts neither.
 */
export function negotiateImage(accept: string | undefined): 'webp' | 'png' | null {
  if (!accept?.trim()) return 'webp';
  const quality = { webp: -1, png: -1 };
  const specificity = { webp: -1, png: -1 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    const value = q === undefined ? 1 : Number(q);
    for (const format of ['webp', 'png'] as const) {
      const s = range === `image/${format}` ? 2 : range === 'image/*' ? 1 : range === '*/*' ? 0 : -1;
      if (s > specificity[format]) {
        specificity[format] = s;
        quality[format] = Number.isFinite(value) ? value : 0;
      }
    }
  }
  if (quality.webp <= 0 && quality.png <= 0) return null;
  return quality.png > quality.webp ? 'png' : 'webp';
}

/**
 * The UTF-8 bytes of a cached result's JSON, made on its first answer over REST and kept for as long as
 * the lookup cache keeps the result: a repeat is written as these bytes, where the JSON text would be
 * measured (its UTF-8 length, for Content-Length), joined to the headers and encoded again on every
 * answer.
 */
const cachedBytes = new WeakMap<ServiceResult, Buffer>();

export function jsonBody(result: ServiceResult & { json: string }): string | Buffer {
  // A replayed response is read from the store for this request only: its text is sent as it is.
  if (result.replayed) return result.json;
  let bytes = cachedBytes.get(result);
  if (bytes === undefined) {
    bytes = keptUtf8(result.json);
    cachedBytes.set(result, bytes);
  }
  return bytes;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/** Reads the request into the operation's input: path parameters, then query (GET) or JSON body (POST). */
function inputOf(op: OperationSpec, req: FastifyRequest): Record<string, unknown> {
  const params = (req.params ?? {}) as Record<string, unknown>;
  if (op.method === 'GET') return { ...((req.query ?? {}) as Record<string, unknown>), ...params };
  const type = req.headers['content-type'];
  // Fastify also reads text/plain bodies; an operation's body is JSON only.
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw new ServiceError('unsupported_media_type', 'send the body as application/json');
  }
  const body = req.body ?? {};
  if (!isPlainObject(body)) {
    throw new ServiceError('validation_failed', 'the body must be a JSON object', {
      errors: [{ field: '(body)', message: 'must be a JSON object' }],
    });
  }
  return { ...body, ...params };
}

function idempotencyKeyOf(req: FastifyRequest): string | null {
  const h = req.headers['idempotency-key'];
  if (Array.isArray(h)) throw new ServiceError('idempotency_key_invalid', 'send one Idempotency-Key header');
  return h ?? null;
}

/** One route per operation: authenticate, read the input, invoke the service, write its result. */
export function registerOperations(
  app: FastifyInstance,
  services: Services,
  authenticate: Authenticator,
  metrics: HttpMetrics,
): void {
  for (const op of services.operations) {
    app.route({
      method: op.method,
      url: op.path,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const caller = await authenticate(req, reply);
        const ctx: ServiceContext = {
          account: caller.account,
          key: caller.key,
          requestId: req.id,
          idempotencyKey: idempotencyKeyOf(req),
        };
        const input = inputOf(op, req);
        if (op.response === 'image' && input.format === undefined) {
          const format = negotiateImage(req.headers.accept);
          if (!format) throw new ServiceError('not_acceptable', 'this resource is image/webp or image/png');
          input.format = format;
        }
        const result = await services.invoke(ctx, op.name, input);
        if (result.billable && !result.replayed) metrics.billable.inc({ operation: op.name });
        const state = stateOf(result);
        if (op.billing !== 'none' && state !== undefined)
          metrics.diagnostics.inc({ operation: op.name, state });
        if (result.replayed) reply.header('Idempotency-Replayed', 'true');
        if (result.binary) {
          reply
            .header('ETag', result.binary.etag)
            // The response is keyed (and a page image billed): only the client's own cache may keep it,
            // never a shared one that would hand it to anyone asking for the URL. A page image never
            // changes under its URL; a pack changes with the bundle, so it is revalidated.
            .header(
              'Cache-Control',
              op.response === 'image' ? 'private, max-age=31536000, immutable' : 'private, no-cache',
            )
            .header('Vary', 'Accept');
          if (etagMatches(req.headers['if-none-match'], result.binary.etag)) return reply.code(304).send();
          return reply.code(result.status).type(result.binary.contentType).send(result.binary.data);
        }
        if (result.json !== undefined) {
          return reply
            .code(result.status)
            .type('application/json; charset=utf-8')
            .send(jsonBody(result as ServiceResult & { json: string }));
        }
        return reply.code(result.status).send(result.body);
      },
    });
  }
}
