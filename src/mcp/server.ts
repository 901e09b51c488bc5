import {
  ProtocolError,
  ProtocolErrorCode,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ServiceContext } from '../engine/context.js';
import type { Services } from '../engine/services.js';
import { type CompletionRequest, completeArgument } from './completion.js';
import { ParamCheckedServer } from './param-errors.js';
import { TROUBLESHOOT_PROMPT, troubleshootMessages } from './prompts.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION, type ProtocolVersion } from './protocol.js';
import { PageResources } from './resources.js';
import { isSharedResult, ToolCatalog, type ToolOutcome } from './tools.js';

/** Who calls and how, for one HTTP request to the endpoint. */
export interface CallContext {
  service: ServiceContext;
  /** The revision of the protocol the request speaks. */
  version: ProtocolVersion;
  onInternalError: (err: unknown) => void;
  /** Told about each tool call, for metrics. */
  onToolCall?: (name: string, outcome: ToolOutcome) => void;
}

export interface McpCatalogOptions {
  serverVersion: string;
  /** Page resources per resources/list answer. */
  resourcePageSize: number;
}

const INSTRUCTIONS =
  'heatsource answers heat-pump troubleshooting questions from manufacturer manuals, always with a ' +
  'verbatim excerpt and a page citation. For an error code shown by a unit, call diagnose (or ' +
  'diagnose_strict to answer only from the manual of the exact model) with brand, model and error_code; ' +
  'when the state is ambiguous, ask the follow_up_questions. For a guided session, use the ' +
  `${TROUBLESHOOT_PROMPT.name} prompt or start_diagnostic_session. Use search for free-text questions, ` +
  'get_procedure to read a cited procedure in full, and the resource_link of a citation (resources/read) ' +
  'to read the cited page and its snapshot. Results carrying isError hold an RFC 9457 problem document.';

/**
 * How long clients may keep list results (2026-07-28 cache hints). A bundle never changes under a running
 * server, but a restart may serve another one: an hour, and private to the caller, whose key decides what
 * it may see.
 */
const LIST_TTL_MS = 60 * 60 * 1000;

function noCursor(cursor: unknown): void {
  if (cursor !== undefined && cursor !== null) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'invalid cursor');
  }
}

/** The caller of the request a handler serves, from the handler's SDK context. */
export type CallerOf = (ctx: ServerContext) => CallContext;

/** Told when a tool call answers a shared result (a cached look-up's, returned again on each repeat). */
export type OnSharedResult = (ctx: ServerContext, result: object) => void;

/**
 * What the endpoint serves, built once per app: one tool per operation of the service layer, manual pages
 * as resources, the troubleshooting prompt and argument completion. `server()` makes the SDK's low-level
 * server: a fresh one for each exchange the SDK's own stateless HTTP handling serves (whose caller is then
 * fixed), or a long-lived one serving many exchanges (exchange.ts), whose caller is read per request and
 * which is told when a call answers a shared result (whose answer's bytes it may then reuse).
 */
export class McpCatalog {
  readonly tools: ToolCatalog;
  readonly resources: PageResources;

  constructor(
    private readonly services: Services,
    private readonly options: McpCatalogOptions,
  ) {
    this.tools = new ToolCatalog(services);
    this.resources = new PageResources(services, options.resourcePageSize);
  }

  server(callerOf: CallerOf, onSharedResult?: OnSharedResult): Server {
    // The low-level server (not McpServer): tools, resources and prompts are described by our zod contract
    // and served by our service layer, which McpServer's registration API would have us duplicate.
    const server = new ParamCheckedServer(
      { name: 'heatsource', title: 'heatsource', version: this.options.serverVersion },
      {
        capabilities: {
          tools: { listChanged: false },
          resources: { subscribe: false, listChanged: false },
          prompts: { listChanged: false },
          completions: {},
        },
        instructions: INSTRUCTIONS,
        // Newest 2025 revision first: `initialize` counter-offers the first 2025-era entry.
        supportedProtocolVersions: [MODERN_PROTOCOL_VERSION, ...[...LEGACY_PROTOCOL_VERSIONS].reverse()],
        cacheHints: {
          'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
          'prompts/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
          'resources/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
          'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
          'resources/read': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
          'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
        },
      },
    );

    server.setRequestHandler('tools/list', async (request) => {
      noCursor(request.params?.cursor);
      return { tools: this.tools.list() as never };
    });
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const call = callerOf(ctx);
      const { name } = request.params;
      const op = this.tools.find(name);
      if (!op) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool: ${name}`);
      const outcome = await this.tools.call(op, request.params.arguments ?? {}, call.service, {
        version: call.version,
        onInternalError: call.onInternalError,
      });
      call.onToolCall?.(name, outcome);
      if (onSharedResult && isSharedResult(outcome.result)) onSharedResult(ctx, outcome.result);
      return outcome.result as never;
    });
    server.setRequestHandler('resources/list', async (request) =>
      this.resources.list(request.params?.cursor ?? undefined),
    );
    server.setRequestHandler('resources/templates/list', async (request) => {
      noCursor(request.params?.cursor);
      return { resourceTemplates: this.resources.templates() };
    });
    server.setRequestHandler('resources/read', async (request) => {
      const { uri } = request.params;
      if (typeof uri !== 'string' || uri.length === 0) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, '"uri" must be a non-empty string');
      }
      return { contents: await this.resources.read(uri) };
    });
    server.setRequestHandler('prompts/list', async (request) => {
      noCursor(request.params?.cursor);
      return { prompts: [TROUBLESHOOT_PROMPT as never] };
    });
    server.setRequestHandler('prompts/get', async (request) => {
      if (request.params.name !== TROUBLESHOOT_PROMPT.name) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt: ${request.params.name}`);
      }
      return troubleshootMessages(this.services, request.params.arguments);
    });
    server.setRequestHandler('completion/complete', async (request) => ({
      completion: completeArgument(this.services.view, request.params as CompletionRequest),
    }));
    return server;
  }
}
