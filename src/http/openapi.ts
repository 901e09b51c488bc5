import { z } from 'zod';
import { Problem } from '../contract/common.js';
import { COMMON_ERRORS, type OperationSpec } from '../contract/operations.js';
import { PROBLEMS, type ProblemCode } from '../contract/problems.js';

type Json = Record<string, unknown>;

/** Collects JSON Schemas generated from zod into `components.schemas`, one entry per schema id. */
class Components {
  readonly schemas: Record<string, Json> = {};

  /** The JSON Schema of `schema` with its named parts moved to components; returns the schema or a $ref. */
  add(schema: z.ZodType, io: 'input' | 'output'): Json {
    const generated = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
    delete generated.$schema;
    const defs = (generated.$defs ?? {}) as Record<string, Json>;
    delete generated.$defs;
    // A schema already collected under the same name (same zod schema seen as input and as output) may
    // differ; the newcomer is then kept as `<name>Input`. Renames can change other definitions' refs,
    // hence the loop.
    const names = new Map(Object.keys(defs).map((n) => [n, n]));
    const rewrite = (value: Json): Json => {
      let text = JSON.stringify(value);
      for (const [from, to] of names)
        text = text.replaceAll(`"#/$defs/${from}"`, `"#/components/schemas/${to}"`);
      return JSON.parse(text) as Json;
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const [name, def] of Object.entries(defs)) {
        const existing = this.schemas[name];
        if (names.get(name) !== name || !existing) continue;
        if (JSON.stringify(existing) !== JSON.stringify(rewrite(def))) {
          names.set(name, `${name}Input`);
          changed = true;
        }
      }
    }
    for (const [name, def] of Object.entries(defs)) this.schemas[names.get(name)!] = rewrite(def);
    return rewrite(generated);
  }

  /** The object schema behind a root that may be a $ref. */
  resolve(schema: Json): Json {
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      return this.schemas[ref.slice('#/components/schemas/'.length)] ?? schema;
    }
    return schema;
  }
}

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!);

function errorResponses(codes: ProblemCode[]): Record<string, Json> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(codes)) {
    const status = PROBLEMS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${PROBLEMS[c].title}`).join('; '),
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      ...(status === 401 ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' } } } } : {}),
      ...(status === 429 || status === 409
        ? { headers: { 'Retry-After': { schema: { type: 'integer' } } } }
        : {}),
    };
  }
  return out;
}

function operationObject(op: OperationSpec, components: Components): Json {
  const inputSchema = components.add(op.input, 'input');
  const inputObject = components.resolve(inputSchema);
  const properties = (inputObject.properties ?? {}) as Record<string, Json>;
  const required = new Set((inputObject.required ?? []) as string[]);
  const inPath = pathParams(op.path);
  const parameters: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: properties[name] ?? { type: 'string' },
  }));
  if (op.method === 'GET') {
    for (const [name, schema] of Object.entries(properties)) {
      if (inPath.includes(name)) continue;
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        schema: rest,
        ...(description ? { description } : {}),
      });
    }
  }
  if (op.idempotency !== 'none') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: op.idempotency === 'required',
      description: 'retries with the same key return the stored response and are never charged twice (24 h)',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const output = components.add(op.output, 'output');
  const success =
    op.response === 'image'
      ? {
          description: 'the page image; the output schema describes it (and is what MCP returns as metadata)',
          headers: {
            ETag: { schema: { type: 'string' } },
            'Cache-Control': { schema: { type: 'string' } },
          },
          content: {
            'image/webp': { schema: { type: 'string', contentMediaType: 'image/webp' } },
            'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } },
          },
        }
      : {
          description: op.summary,
          headers: {
            RateLimit: { schema: { type: 'string' }, description: 'remaining requests and seconds to reset' },
            'RateLimit-Policy': { schema: { type: 'string' } },
          },
          content: { 'application/json': { schema: output } },
        };
  const responses: Record<string, Json> = {
    [String(op.successStatus ?? 200)]: success,
    ...errorResponses([...COMMON_ERRORS, ...op.errors]),
  };
  if (op.response === 'image') responses['304'] = { description: 'not modified (If-None-Match)' };
  const out: Json = {
    operationId: op.name,
    summary: op.summary,
    description: op.description,
    tags: [op.path.startsWith('/v2/') ? 'v2' : 'v1'],
    parameters,
    responses,
    'x-billing': op.billing,
  };
  if (op.method === 'POST') {
    out.requestBody = {
      required: true,
      content: { 'application/json': { schema: bodySchema(inputSchema, inputObject, inPath) } },
    };
  }
  return out;
}

/**
 * The JSON body of a POST: its input schema without the path parameters, which travel in the URL (one zod
 * schema validates both together, so that an MCP tool call carries them as arguments).
 */
function bodySchema(inputSchema: Json, inputObject: Json, inPath: string[]): Json {
  if (inPath.length === 0) return inputSchema;
  const properties = { ...((inputObject.properties ?? {}) as Record<string, Json>) };
  for (const name of inPath) delete properties[name];
  const required = ((inputObject.required ?? []) as string[]).filter((n) => !inPath.includes(n));
  const { $id: _id, ...rest } = inputObject;
  return { ...rest, properties, ...(required.length ? { required } : { required: undefined }) };
}

/** The OpenAPI 3.1 document of the API, generated from the operation list and its zod schemas. */
export function buildOpenApi(
  operations: OperationSpec[],
  info: { version: string; serverUrl?: string },
): Json {
  const components = new Components();
  components.add(Problem, 'output');
  const paths: Record<string, Record<string, Json>> = {};
  for (const op of operations) {
    const p = toOpenApiPath(op.path);
    paths[p] ??= {};
    paths[p][op.method.toLowerCase()] = operationObject(op, components);
  }
  const open = (summary: string, schema: Json) => ({
    get: {
      operationId: summary.replace(/\W+/g, '_').toLowerCase(),
      summary,
      security: [],
      tags: ['service'],
      responses: { '200': { description: summary, content: { 'application/json': { schema } } } },
    },
  });
  paths['/healthz'] = open('Liveness', { type: 'object', properties: { status: { const: 'ok' } } });
  paths['/readyz'] = open('Readiness', { type: 'object', properties: { status: { type: 'string' } } });
  paths['/v1/openapi.json'] = open('This document', { type: 'object' });
  return {
    openapi: '3.1.0',
    info: {
      title: 'heatsource',
      version: info.version,
      description:
        'Sourced answers for heat-pump troubleshooting from manufacturer manuals: every answer carries a ' +
        'verbatim excerpt and a page citation. Errors are RFC 9457 problem documents with a stable `code`.',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    tags: [
      { name: 'v1', description: 'lookup, search and catalogue' },
      { name: 'v2', description: 'strict, exact-model answers' },
      { name: 'service', description: 'health and description, readable without a key' },
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key: ak_live_… or ak_test_…' },
      },
    },
  };
}
