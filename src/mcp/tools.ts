import type { Problem } from '../contract/common.js';
import type { OperationSpec } from '../contract/operations.js';
import type { ServiceContext, ServiceResult } from '../engine/context.js';
import { problem, ServiceError } from '../engine/errors.js';
import type { Services } from '../engine/services.js';
import { type ContentBlock, linksFor } from './content.js';
import type { ProtocolVersion } from './protocol.js';
import { type JsonSchema, REQUEST_ID_ARGUMENT, toolInputSchema, toolOutputSchema } from './tool-schemas.js';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: {
    title: string;
    readOnlyHint: boolean;
    idempotentHint: boolean;
    destructiveHint?: boolean;
    openWorldHint: false;
  };
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent: unknown;
  isError?: true;
}

/** What a call returned, for the transport's metrics and logs. */
export interface ToolOutcome {
  result: CallToolResult;
  service?: ServiceResult;
}

const IDEMPOTENCY_NOTE =
  ' Over MCP, pass the idempotency key as the `request_id` argument (or the Idempotency-Key HTTP header).';

interface Tool {
  definition: ToolDefinition;
  /** Whether the `request_id` argument is the call's Idempotency-Key. */
  takesRequestId: boolean;
}

function toolOf(op: OperationSpec): Tool {
  const input = toolInputSchema(op);
  const description = input.takesRequestId ? op.description + IDEMPOTENCY_NOTE : op.description;
  const definition: ToolDefinition = {
    name: op.name,
    title: op.summary,
    description,
    inputSchema: input.schema,
    outputSchema: toolOutputSchema(op),
    annotations: annotationsOf(op),
  };
  return { definition, takesRequestId: input.takesRequestId };
}

/**
 * Whether an operation changes state a later call sees: POSTs on diagnostic sessions (start, respond,
 * undo, close). Every other operation is a look-up: it reads the bundle (and may charge a unit, which
 * hosts need not confirm), so a repeat with the same arguments answers the same.
 */
function changesSession(op: OperationSpec): boolean {
  return op.method === 'POST' && /\/diagnostic-sessions(\/|$)/.test(op.path);
}

/**
 * Hints for hosts deciding whether to ask before a call: look-ups are read-only and idempotent; session
 * steps are neither, and not destructive (a session keeps its history; undo steps back). No tool reaches
 * beyond the bundle and the account (openWorldHint false).
 */
export function annotationsOf(op: OperationSpec): ToolDefinition['annotations'] {
  const writes = changesSession(op);
  return {
    title: op.summary,
    readOnlyHint: !writes,
    idempotentHint: !writes,
    ...(writes ? { destructiveHint: false } : {}),
    openWorldHint: false,
  };
}

/**
 * One tool per operation of the contract's list (`services.operations`), described from the same
 * schemas as the REST routes; each tool's definition is built once, on its first listing or call.
 */
export class ToolCatalog {
  private readonly tools = new WeakMap<OperationSpec, Tool>();

  constructor(private readonly services: Services) {}

  list(): ToolDefinition[] {
    return this.services.operations.map((op) => this.tool(op).definition);
  }

  find(name: string): OperationSpec | undefined {
    return this.services.operation(name);
  }

  private tool(op: OperationSpec): Tool {
    let tool = this.tools.get(op);
    if (!tool) {
      tool = toolOf(op);
      this.tools.set(op, tool);
    }
    return tool;
  }

  /**
   * Runs a tool through the same `Services.invoke` as its REST route: the result's structured content is
   * the REST body, and a failure is an `isError` result carrying the problem document REST would send.
   */
  async call(
    op: OperationSpec,
    args: Record<string, unknown>,
    ctx: ServiceContext,
    options: { version: ProtocolVersion; onInternalError: (err: unknown) => void },
  ): Promise<ToolOutcome> {
    try {
      const { input, idempotencyKey } = this.splitRequestId(op, args, ctx.idempotencyKey);
      // The caller's context as it is when the key did not change (the frequent case): no copy per call.
      const context = idempotencyKey === ctx.idempotencyKey ? ctx : { ...ctx, idempotencyKey };
      const service = await this.services.invoke(context, op.name, input);
      return { result: successResult(service, options.version), service };
    } catch (err) {
      // The problem's instance is only built for a failure: a success never reads it.
      if (err instanceof ServiceError) {
        return { result: errorResult(err.toProblem(restInstance(op, args))) };
      }
      options.onInternalError(err);
      const internal = problem(
        'internal_error',
        `internal error; quote request id ${ctx.requestId} when reporting it`,
        restInstance(op, args),
      );
      return { result: errorResult(internal) };
    }
  }

  /** Takes `request_id` out of the arguments: it is the call's Idempotency-Key, not part of the operation's input. */
  private splitRequestId(
    op: OperationSpec,
    args: Record<string, unknown>,
    headerKey: string | null,
  ): { input: Record<string, unknown>; idempotencyKey: string | null } {
    if (!(REQUEST_ID_ARGUMENT in args) || !this.tool(op).takesRequestId) {
      return { input: args, idempotencyKey: headerKey };
    }
    const { [REQUEST_ID_ARGUMENT]: requestId, ...input } = args;
    if (requestId === undefined || requestId === null) return { input, idempotencyKey: headerKey };
    if (typeof requestId !== 'string') {
      throw new ServiceError('validation_failed', `invalid field(s): ${REQUEST_ID_ARGUMENT}`, {
        errors: [{ field: REQUEST_ID_ARGUMENT, message: 'must be a string' }],
      });
    }
    if (headerKey !== null && headerKey !== requestId) {
      throw new ServiceError(
        'idempotency_key_invalid',
        `the ${REQUEST_ID_ARGUMENT} argument and the Idempotency-Key header differ; send one of them`,
      );
    }
    return { input, idempotencyKey: requestId };
  }
}

/**
 * The problem `instance` REST would give the same call: the operation's path with its parameters filled
 * in, so that a tool failure carries the very problem document of the REST request.
 */
function restInstance(op: OperationSpec, args: Record<string, unknown>): string {
  return op.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (param, name: string) => {
    const value = args[name];
    // A lone surrogate has no URL form (encodeURIComponent throws); the input schema refuses it anyway.
    return typeof value === 'string' || typeof value === 'number'
      ? encodeURIComponent(String(value).replace(/\p{Cs}/gu, '\uFFFD'))
      : param;
  });
}

function jsonText(result: ServiceResult): string {
  return result.json ?? JSON.stringify(result.body);
}

/**
 * Tool results of cached lookups, by service result and protocol revision: a cached service result is the
 * same object on every repeat (the service keeps it with its JSON), so its content blocks and resource
 * links are built once, like its JSON. Weak, so they go when the service drops the result.
 */
const builtResults = new WeakMap<ServiceResult, Map<ProtocolVersion, CallToolResult>>();

/** The tool results above: answered again, unchanged, to every repeat of their look-up. */
const sharedResults = new WeakSet<CallToolResult>();

/** Whether `result` is the shared result of a cached look-up, which later calls answer again. */
export function isSharedResult(result: CallToolResult): boolean {
  return sharedResults.has(result);
}

function successResult(service: ServiceResult, version: ProtocolVersion): CallToolResult {
  if (service.json === undefined || service.replayed) return buildSuccessResult(service, version);
  let byVersion = builtResults.get(service);
  if (!byVersion) {
    byVersion = new Map();
    builtResults.set(service, byVersion);
  }
  let result = byVersion.get(version);
  if (!result) {
    result = buildSuccessResult(service, version);
    byVersion.set(version, result);
    sharedResults.add(result);
  }
  return result;
}

function buildSuccessResult(service: ServiceResult, version: ProtocolVersion): CallToolResult {
  const content: ContentBlock[] = [{ type: 'text', text: jsonText(service) }];
  // Images go to the model; other files (an offline pack) are for apps, which fetch them over REST.
  if (service.binary?.contentType.startsWith('image/')) {
    content.push({
      type: 'image',
      data: service.binary.data.toString('base64'),
      mimeType: service.binary.contentType,
    });
  }
  // Read once: a cached lookup parses its body from its JSON on every read.
  const body = service.body;
  content.push(...linksFor(body, version));
  return { content, structuredContent: body };
}

function errorResult(doc: Problem): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(doc) }],
    structuredContent: doc,
    isError: true,
  };
}
