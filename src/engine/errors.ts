import type { z } from 'zod';
import type { Problem } from '../contract/common.js';
import { PROBLEMS, type ProblemCode, problemType } from '../contract/problems.js';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * A failure the caller can act on, with its stable code. Adapters turn it into a problem document (REST)
 * or an error result (MCP); anything else thrown is an internal error and shows no detail.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'ServiceError';
    this.status = PROBLEMS[code].status;
    this.title = PROBLEMS[code].title;
  }

  toProblem(instance: string): Problem {
    return problem(this.code, this.detail, instance, this.options.errors);
  }
}

export function problem(code: ProblemCode, detail: string, instance: string, errors?: FieldError[]): Problem {
  const p: Problem = {
    type: problemType(code),
    title: PROBLEMS[code].title,
    status: PROBLEMS[code].status,
    detail,
    instance,
    code,
  };
  if (errors) p.errors = errors;
  return p;
}

/**
 * Field names a client may send for a field the contract names otherwise. `code` is what an error code
 * is often called; the service document names the request field `error_code`, and a body sending `code`
 * is refused with a message that names the right field.
 */
const FORMER_NAMES: Record<string, string> = { code: 'error_code' };

/** The top-level fields of an object schema (refined or not); empty for any other schema. */
function topLevelFields(schema: z.ZodType | undefined): Set<string> {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return new Set(shape && typeof shape === 'object' ? Object.keys(shape) : []);
}

/**
 * Field errors from a zod failure, with dotted paths (`steps.0.text`); the root is `(body)`. Given the
 * schema, an unknown top-level field sent under a former name says which field to send instead.
 */
export function fieldErrors(error: z.ZodError, schema?: z.ZodType): FieldError[] {
  const out: FieldError[] = [];
  const fields = topLevelFields(schema);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const instead = issue.path.length === 0 ? FORMER_NAMES[key] : undefined;
        const message =
          instead && fields.has(instead)
            ? `unknown field: the field is named \`${instead}\``
            : 'unknown field';
        out.push({ field: joinPath([...issue.path, key]), message });
      }
      continue;
    }
    out.push({ field: joinPath(issue.path), message: issueMessage(issue) });
  }
  return out;
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(body)' : path.map(String).join('.');
}

/** zod's own default wording ("Too small: expected string to have >=1 characters"); a schema's own message is kept. */
const ZOD_DEFAULT = /^(?:Too small|Too big|Invalid input|Invalid option|Invalid string)\b/;

const quoteAll = (values: readonly unknown[]) => values.map((v) => JSON.stringify(v)).join(', ');

function bound(issue: { origin?: string; inclusive?: boolean }, n: number | bigint, least: boolean): string {
  const limit = issue.inclusive === false ? (least ? Number(n) + 1 : Number(n) - 1) : Number(n);
  const word = least ? 'at least' : 'at most';
  if (issue.origin === 'string') {
    if (least && limit === 1) return 'must not be empty';
    return `must be ${word} ${limit} character${limit === 1 ? '' : 's'} long`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    if (least && limit === 1) return 'must hold at least one item';
    return `must hold ${word} ${limit} item${limit === 1 ? '' : 's'}`;
  }
  return `must be ${word} ${limit}`;
}

/**
 * A field's problem in the service's own words, the same on REST, MCP and the terminal: zod's default
 * messages are written for developers of the schema ("Too small: expected string to have >=1 characters"),
 * not for the people who sent the value.
 */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) return 'is required';
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'too_small':
      return bound(issue, issue.minimum, true);
    case 'too_big':
      return bound(issue, issue.maximum, false);
    case 'invalid_type':
      return issue.expected === 'int' ? 'must be a whole number' : `must be a ${issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${quoteAll(issue.values)}`
        : `must be one of ${quoteAll(issue.values)}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `is not a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

export function validationError(error: z.ZodError, schema?: z.ZodType): ServiceError {
  const errors = fieldErrors(error, schema);
  const fields = [...new Set(errors.map((e) => e.field))].join(', ');
  return new ServiceError('validation_failed', `invalid field(s): ${fields}`, { errors });
}
