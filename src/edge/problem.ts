import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Problem } from '../contract/common.js';
import type { ProblemCode } from '../contract/problems.js';
import { problem, ServiceError } from '../engine/errors.js';

export const PROBLEM_JSON = 'application/problem+json';

/** The path of a request without its query string: the problem's `instance`. */
export function instanceOf(req: FastifyRequest): string {
  const q = req.url.indexOf('?');
  return q < 0 ? req.url : req.url.slice(0, q);
}

export function sendProblem(
  reply: FastifyReply,
  body: Problem,
  headers: Record<string, string> = {},
): FastifyReply {
  if (body.status === 401) reply.header('WWW-Authenticate', 'Bearer realm="heatsource"');
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.code(body.status).type(PROBLEM_JSON).send(body);
}

export function sendServiceError(req: FastifyRequest, reply: FastifyReply, err: ServiceError): FastifyReply {
  return sendProblem(reply, err.toProblem(instanceOf(req)), err.options.headers);
}

export function sendCode(
  req: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  headers?: Record<string, string>,
): FastifyReply {
  return sendProblem(reply, problem(code, detail, instanceOf(req)), headers);
}

/** Fastify's own errors (body parsing, limits) mapped to stable codes. */
const FASTIFY_CODES: Record<string, [ProblemCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['malformed_json', 'the body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['malformed_json', 'the body is empty; send a JSON object'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'the body is larger than this server accepts'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['validation_failed', 'Content-Length does not match the body'],
  FST_ERR_BAD_URL: ['validation_failed', 'the path is not a valid percent-encoded URL'],
  FST_ERR_MAX_PARAM_LENGTH: ['validation_failed', 'a path parameter is longer than any identifier'],
};

/**
 * Fastify's errors raised before a route is found (a path that does not decode, a parameter longer than
 * the router takes): the same problem documents as the route errors.
 */
export function frameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const mapped = FASTIFY_CODES[err.code] ?? ['malformed_request', 'the request could not be routed'];
  return sendCode(req, reply, mapped[0], mapped[1]);
}

/** The problem of an error Node's HTTP parser raised on a connection, before any request object exists. */
function connectionProblem(err: NodeJS.ErrnoException): Problem {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return problem('request_timeout', 'the request headers and body must arrive within the time limit', '/');
  }
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    return problem('headers_too_large', 'the request headers are larger than this server accepts', '/');
  }
  return problem('malformed_request', 'the request is not well-formed HTTP/1.1', '/');
}

/**
 * Answers a connection whose request Node could not parse (malformed HTTP, oversized headers, a request
 * not received in time) with a problem document, then closes it. Replaces Fastify's default handler,
 * which answers plain JSON. A connection reset, or one whose response has already begun, gets nothing.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !started) {
    const doc = connectionProblem(err);
    const body = JSON.stringify(doc);
    socket.write(
      `HTTP/1.1 ${doc.status} ${STATUS_CODES[doc.status]}\r\nContent-Type: ${PROBLEM_JSON}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Problem documents for every error: thrown service errors, Fastify's errors, unknown routes and methods. */
export function installProblemHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ServiceError) return sendServiceError(req, reply, err);
    const mapped = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (mapped) return sendCode(req, reply, mapped[0], mapped[1]);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendCode(req, reply, 'validation_failed', 'the request could not be read');
    }
    req.log.error({ err }, 'request failed');
    return sendCode(
      req,
      reply,
      'internal_error',
      `internal error; quote request id ${req.id} when reporting it`,
    );
  });

  app.setNotFoundHandler((req, reply) => {
    const path = instanceOf(req);
    const allowed = METHODS.filter(
      (m) => m !== req.method && app.findRoute({ method: m, url: path }) !== null,
    );
    if (allowed.length > 0) {
      const allow = allowed.includes('GET')
        ? ['GET', 'HEAD', ...allowed.filter((m) => m !== 'GET')]
        : allowed;
      return sendCode(req, reply, 'method_not_allowed', `${req.method} is not allowed on ${path}`, {
        Allow: allow.join(', '),
      });
    }
    return sendCode(req, reply, 'not_found', `no route ${req.method} ${path}`);
  });
}
