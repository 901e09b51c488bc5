import type { ServiceContext } from '../engine/context.js';
import type { Services } from '../engine/services.js';
import { negotiateVersion, type ProtocolVersion, RPC, RpcError, type RpcRequest } from './protocol.js';
import { PageResources } from './resources.js';
import { ToolCatalog, type ToolOutcome } from './tools.js';

export interface DispatchOptions {
  serverVersion: string;
  /** Page resources per resources/list answer. */
  resourcePageSize: number;
}

/** Who calls and how, for one JSON-RPC request. */
export interface CallContext {
  service: ServiceContext;
  /** The revision of the protocol the request speaks (its MCP-Protocol-Version header). */
  version: ProtocolVersion;
  onInternalError: (err: unknown) => void;
  /** Told about each tool call, for metrics. */
  onToolCall?: (name: string, outcome: ToolOutcome) => void;
}

const INSTRUCTIONS =
  'heatsource answers heat-pump troubleshooting questions from manufacturer manuals, always with a ' +
  'verbatim excerpt and a page citation. For an error code shown by a unit, call diagnose (or ' +
  'diagnose_strict to answer only from the manual of the exact model) with brand, model and error_code; when ' +
  'the state is ambiguous, ask the follow_up_questions. Use search for free-text questions, get_procedure ' +
  'to read a cited procedure in full, and the resource_link of a citation (resources/read) to read the ' +
  'cited page and its snapshot. Results carrying isError hold an RFC 9457 problem document.';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function optionalCursor(params: Record<string, unknown>): string | undefined {
  const cursor = params.cursor;
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string') throw new RpcError(RPC.invalidParams, '"cursor" must be a string');
  return cursor;
}

/** The MCP methods this server answers: lifecycle, tools over the service layer, and manual pages as resources. */
export class McpDispatcher {
  readonly tools: ToolCatalog;
  readonly resources: PageResources;

  constructor(
    services: Services,
    private readonly options: DispatchOptions,
  ) {
    this.tools = new ToolCatalog(services);
    this.resources = new PageResources(services, options.resourcePageSize);
  }

  /** The `result` of a request; throws RpcError for a JSON-RPC error answer. */
  async handle(request: RpcRequest, ctx: CallContext): Promise<unknown> {
    const { params } = request;
    switch (request.method) {
      case 'initialize':
        return this.initialize(params);
      case 'ping':
        return {};
      case 'tools/list':
        if (optionalCursor(params) !== undefined) throw new RpcError(RPC.invalidParams, 'invalid cursor');
        return { tools: this.tools.list() };
      case 'tools/call':
        return this.callTool(params, ctx);
      case 'resources/list':
        return this.resources.list(optionalCursor(params));
      case 'resources/templates/list':
        if (optionalCursor(params) !== undefined) throw new RpcError(RPC.invalidParams, 'invalid cursor');
        return { resourceTemplates: this.resources.templates() };
      case 'resources/read': {
        if (typeof params.uri !== 'string' || params.uri.length === 0) {
          throw new RpcError(RPC.invalidParams, '"uri" must be a non-empty string');
        }
        return { contents: await this.resources.read(params.uri) };
      }
      default:
        throw new RpcError(RPC.methodNotFound, `method not found: ${request.method}`);
    }
  }

  private initialize(params: Record<string, unknown>) {
    if (typeof params.protocolVersion !== 'string') {
      throw new RpcError(RPC.invalidParams, '"protocolVersion" must be a string');
    }
    if (params.capabilities !== undefined && !isObject(params.capabilities)) {
      throw new RpcError(RPC.invalidParams, '"capabilities" must be an object');
    }
    return {
      protocolVersion: negotiateVersion(params.protocolVersion),
      capabilities: {
        tools: { listChanged: false },
        resources: { subscribe: false, listChanged: false },
      },
      serverInfo: { name: 'heatsource', title: 'heatsource', version: this.options.serverVersion },
      instructions: INSTRUCTIONS,
    };
  }

  private async callTool(params: Record<string, unknown>, ctx: CallContext) {
    const { name } = params;
    if (typeof name !== 'string' || name.length === 0) {
      throw new RpcError(RPC.invalidParams, '"name" must be the name of a tool');
    }
    const args = params.arguments ?? {};
    if (!isObject(args)) throw new RpcError(RPC.invalidParams, '"arguments" must be an object');
    const op = this.tools.find(name);
    if (!op) throw new RpcError(RPC.invalidParams, `unknown tool: ${name}`);
    const outcome = await this.tools.call(op, args, ctx.service, {
      version: ctx.version,
      onInternalError: ctx.onInternalError,
    });
    ctx.onToolCall?.(name, outcome);
    return outcome.result;
  }
}
