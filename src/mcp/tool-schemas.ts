import { z } from 'zod';
import { Problem } from '../contract/common.js';
import type { OperationSpec } from '../contract/operations.js';

export type JsonSchema = Record<string, unknown>;

/** The argument through which a tool call carries its idempotency key (the REST Idempotency-Key header). */
export const REQUEST_ID_ARGUMENT = 'request_id';

/**
 * Zod writes a schema carrying an id as a `$ref` to its own `$defs` entry; MCP wants the root of a tool's
 * schemas to be an object schema, so the root definition moves up and stays in `$defs` only when
 * something else refers to it.
 */
function hoistRoot(schema: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  const defs = { ...((schema.$defs as Record<string, JsonSchema> | undefined) ?? {}) };
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/')) return schema;
  const name = ref.slice('#/$defs/'.length);
  const root = defs[name];
  if (!root) return schema;
  const { $ref: _ref, $defs: _defs, ...rest } = schema;
  if (!JSON.stringify(Object.values(defs).filter((d) => d !== root)).includes(`"${ref}"`)) delete defs[name];
  const out: JsonSchema = { ...rest, ...root };
  if (Object.keys(defs).length > 0) out.$defs = defs;
  return out;
}

const SAFE_MIN = Number.MIN_SAFE_INTEGER;
const SAFE_MAX = Number.MAX_SAFE_INTEGER;

/** Drops the safe-integer bounds zod adds to every integer: they say nothing and cost every reader tokens. */
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === 'minimum' && v === SAFE_MIN) || (k === 'maximum' && v === SAFE_MAX)) continue;
    out[k] = dropSafeIntegerBounds(v);
  }
  return out;
}

/**
 * Rewrites tuples (`prefixItems`, a 2020-12 keyword) as arrays of a fixed length whose items match one of
 * the positions: exact for the tuples of the contract (all positions alike), and read the same way by
 * validators of every draft. The SDK's default validator (Ajv, draft-07) ignores `prefixItems` but
 * applies `items: false` to every element, refusing any tuple.
 */
function portableTuples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portableTuples);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) out[k] = portableTuples(v);
  if (!Array.isArray(out.prefixItems)) return out;
  const { prefixItems, items, ...rest } = out as JsonSchema & { prefixItems: unknown[] };
  const positions = [...prefixItems, ...(items === undefined || items === false ? [] : [items])];
  const distinct = [...new Map(positions.map((p) => [JSON.stringify(p), p])).values()];
  const tuple: JsonSchema = { ...rest, minItems: prefixItems.length };
  if (items === false) tuple.maxItems = prefixItems.length;
  if (distinct.length > 0) tuple.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
  return tuple;
}

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = hoistRoot(z.toJSONSchema(schema, { io }) as JsonSchema);
  return portableTuples(dropSafeIntegerBounds(generated)) as JsonSchema;
}

/**
 * A tool's input schema: the operation's request schema (path parameters and body, or query) as JSON
 * Schema, plus `request_id` where the operation takes an Idempotency-Key (then `takesRequestId`).
 */
export function toolInputSchema(op: OperationSpec): { schema: JsonSchema; takesRequestId: boolean } {
  const schema = toJsonSchema(op.input, 'input');
  if (schema.type !== 'object') throw new Error(`operation ${op.name}: its input is not an object schema`);
  // The operation must honour idempotency keys and have no field of that name already.
  const props = schema.properties as Record<string, unknown> | undefined;
  if (op.idempotency === 'none' || (props && REQUEST_ID_ARGUMENT in props)) {
    return { schema, takesRequestId: false };
  }
  const required = op.idempotency === 'required';
  const withRequestId: JsonSchema = {
    ...schema,
    properties: {
      ...((schema.properties as Record<string, unknown> | undefined) ?? {}),
      [REQUEST_ID_ARGUMENT]: {
        type: 'string',
        minLength: 1,
        maxLength: 255,
        pattern: '^[\\x21-\\x7e]+$',
        description:
          'Idempotency key of this call, as the Idempotency-Key header over REST: a retry with the same ' +
          'request_id returns the first answer and is never charged twice.' +
          (required ? ' Required unless the HTTP request carries an Idempotency-Key header.' : ''),
      },
    },
  };
  return { schema: withRequestId, takesRequestId: true };
}

/**
 * A tool's output schema: the REST response body, or, on a result flagged `isError`, the problem
 * document REST would answer. Both are listed so that clients validating every structured result
 * against the schema accept failures too.
 */
export function toolOutputSchema(op: OperationSpec): JsonSchema {
  const schema = toJsonSchema(z.union([op.output, Problem]), 'output');
  const body = op.response === 'image' ? 'the metadata of the image' : 'the REST response body';
  return {
    ...schema,
    type: 'object',
    description: `${body} of ${op.method} ${op.path}; with isError, an RFC 9457 problem document`,
  };
}
