import fs from 'node:fs';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';
import type { Authenticator } from '../edge/auth.js';
import type { HttpMetrics } from '../edge/metrics.js';
import { sendServiceError } from '../edge/problem.js';
import { projectPath } from '../project-path.js';
import { McpDispatcher } from './dispatch.js';
import { hostName, isLoopbackHost, OriginPolicy } from '../edge/origin.js';
import {
  classify,
  DEFAULT_PROTOCOL_VERSION,
  errorMessage,
  isProtocolVersion,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type RequestId,
  RPC,
  RpcError,
  resultMessage,
} from './protocol.js';
import type { ToolOutcome } from './tools.js';

export interface McpRoutesOptions {
  /** The service layer the REST routes use: every tool call goes through `services.invoke`. */
  services: Services;
  /** The REST authenticator: same keys, same rate limit, same 401 problem documents. */
  auth: Authenticator;
  /** Where the endpoint listens. */
  path?: string;
  /**
   * Browser origins allowed besides loopback ones (a request carrying any other Origin is refused with
   * 403), or '*'. Pass the CORS origins of the app.
   */
  allowedOrigins?: string[] | '*';
  /**
   * Refuse requests whose Host header is not a loopback name: DNS-rebinding protection for a server
   * running without keys (which `serve` only allows on loopback).
   */
  requireLoopbackHost?: boolean;
  /** Billable units and diagnostic results are counted as for REST. */
  metrics?: HttpMetrics;
  /** Reported in `initialize`; the package version by default. */
  serverVersion?: string;
  /** Page resources per resources/list answer. */
  resourcePageSize?: number;
}

const JSON_TYPE = 'application/json; charset=utf-8';

function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

function sendRpcError(reply: FastifyReply, status: number, id: RequestId | null, error: RpcError) {
  return reply.code(status).type(JSON_TYPE).send(errorMessage(id, error));
}

function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return true;
  const type = header.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The protocol revision of a request from its header, or null when the header names one we do not speak. */
function protocolVersionOf(req: FastifyRequest): ProtocolVersion | null {
  const header = req.headers['mcp-protocol-version'];
  if (header === undefined) return DEFAULT_PROTOCOL_VERSION;
  const value = Array.isArray(header) ? undefined : header.trim();
  return isProtocolVersion(value) ? value : null;
}

/** Why a request is refused before anything else is read: a foreign origin or host, or a body that is not JSON. */
function refusal(
  req: FastifyRequest,
  origins: OriginPolicy,
  requireLoopbackHost: boolean,
): { status: number; error: RpcError } | null {
  const origin = req.headers.origin;
  if (!origins.allows(origin)) {
    return { status: 403, error: new RpcError(RPC.invalidRequest, `origin not allowed: ${origin}`) };
  }
  if (requireLoopbackHost && !isLoopbackHost(hostName(req.headers.host ?? ''))) {
    return {
      status: 403,
      error: new RpcError(
        RPC.invalidRequest,
        'this server answers only requests addressed to a loopback host',
      ),
    };
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    return {
      status: 415,
      error: new RpcError(RPC.invalidRequest, 'the body must be a JSON-RPC message sent as application/json'),
    };
  }
  return null;
}

/**
 * The MCP endpoint (Streamable HTTP, stateless, JSON responses only): JSON-RPC 2.0 messages POSTed one at
 * a time, answered by the same service layer as REST. GET and DELETE answer 405 as no stream or session
 * is ever offered. Registered in a scope of its own so that its body parsing and errors do not touch REST.
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRoutesOptions): Promise<void> {
  const path = options.path ?? '/mcp';
  const origins = new OriginPolicy(options.allowedOrigins ?? []);
  const dispatcher = new McpDispatcher(options.services, {
    serverVersion: options.serverVersion ?? packageVersion(),
    resourcePageSize: options.resourcePageSize ?? 100,
  });
  const { auth, metrics } = options;

  const countToolCall = (name: string, outcome: ToolOutcome) => {
    const result = outcome.service;
    if (!metrics || !result) return;
    if (result.billable && !result.replayed) metrics.billable.inc({ operation: name });
    const op = options.services.operation(name);
    const body = result.body as { state?: unknown; status?: unknown } | null;
    const state = body?.state ?? body?.status;
    if (op && op.billing !== 'none' && typeof state === 'string') {
      metrics.diagnostics.inc({ operation: name, state });
    }
  };

  await app.register(async (scope) => {
    // The body is read as text and parsed here, so that invalid JSON answers a JSON-RPC parse error.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    scope.setErrorHandler((err: FastifyError, req, reply) => {
      if (err instanceof ServiceError) return sendServiceError(req, reply, err);
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendRpcError(reply, 413, null, new RpcError(RPC.invalidRequest, 'the body is too large'));
      }
      if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
        return sendRpcError(
          reply,
          400,
          null,
          new RpcError(RPC.invalidRequest, 'the request could not be read'),
        );
      }
      req.log.error({ err }, 'MCP request failed');
      return sendRpcError(
        reply,
        500,
        null,
        new RpcError(RPC.internalError, `internal error; quote request id ${req.id} when reporting it`),
      );
    });

    scope.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url: path,
      handler: async (_req, reply) => {
        reply.header('Allow', 'POST');
        return sendRpcError(
          reply,
          405,
          null,
          new RpcError(
            RPC.invalidRequest,
            'method not allowed: POST one JSON-RPC message per request; this server offers no stream and no session',
          ),
        );
      },
    });

    scope.post(path, async (req, reply) => {
      const refused = refusal(req, origins, options.requireLoopbackHost === true);
      if (refused) return sendRpcError(reply, refused.status, null, refused.error);

      const caller = await auth(req, reply);

      const version = protocolVersionOf(req);
      if (version === null) {
        return sendRpcError(
          reply,
          400,
          null,
          new RpcError(
            RPC.invalidRequest,
            `unsupported MCP-Protocol-Version; supported: ${PROTOCOL_VERSIONS.join(', ')}`,
            { supported: [...PROTOCOL_VERSIONS] },
          ),
        );
      }

      let parsed: unknown;
      try {
        parsed = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch {
        return sendRpcError(
          reply,
          400,
          null,
          new RpcError(RPC.parseError, 'parse error: the body is not valid JSON'),
        );
      }
      const message = classify(parsed);
      if (message.kind === 'no_reply') return reply.code(202).send();
      if (message.kind === 'invalid') {
        const status = message.error.code === RPC.invalidParams ? 200 : 400;
        return sendRpcError(reply, status, message.id, message.error);
      }

      const idempotencyKey = req.headers['idempotency-key'];
      try {
        const result = await dispatcher.handle(message, {
          service: {
            account: caller.account,
            key: caller.key,
            requestId: req.id,
            idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
          },
          version,
          onInternalError: (err) => req.log.error({ err, tool: message.params.name }, 'tool call failed'),
          onToolCall: countToolCall,
        });
        return reply.code(200).type(JSON_TYPE).send(resultMessage(message.id, result));
      } catch (err) {
        if (err instanceof RpcError) return sendRpcError(reply, 200, message.id, err);
        req.log.error({ err, method: message.method }, 'MCP request failed');
        return sendRpcError(
          reply,
          200,
          message.id,
          new RpcError(RPC.internalError, `internal error; quote request id ${req.id} when reporting it`),
        );
      }
    });
  });
}
