import crypto from 'node:crypto';
import fs from 'node:fs';
import {
  type ApiCall,
  type ApiResult,
  apiOverTransport,
  fillPath,
  HeatsourceError,
  type RequestOptions,
  type Transport,
} from '@heatsource/sdk';
import { BundleReader } from '../bundle/reader.js';
import { buildOpenApi } from '../contract/openapi.js';
import type { ServiceContext } from '../engine/context.js';
import { problem, ServiceError } from '../engine/errors.js';
import { Services } from '../engine/services.js';
import { projectPath } from '../project-path.js';
import { localAccount } from '../state/local-key.js';
import { SqliteStateStore } from '../state/sqlite-store.js';
import type { Account, StateStore } from '../state/types.js';
import type { HeatsourceClient } from './types.js';

export interface LocalClientOptions {
  /** The bundle file to answer from (opened read-only). */
  bundle: string;
  /**
   * The state store calls run against. Default: an in-memory one that lives as long as the client, so
   * nothing is billed or kept.
   */
  state?: StateStore;
}

/**
 * The operation's input as REST builds it: the path parameters over the query (GET) or the body (POST).
 * Path parameters arrive as text over HTTP; sent as text here, the same coercions apply.
 */
function inputOf(call: ApiCall): Record<string, unknown> {
  const rest = call.endpoint.method === 'GET' ? { ...call.query } : { ...(call.body ?? {}) };
  for (const [key, value] of Object.entries(rest)) if (value === undefined) delete rest[key];
  for (const [key, value] of Object.entries(call.params)) rest[key] = String(value);
  return rest;
}

function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/**
 * A client over a bundle on this machine: calls go straight to the service layer (no HTTP server), as
 * the local account, and are not billed.
 */
export async function openLocalClient(options: LocalClientOptions): Promise<HeatsourceClient> {
  const reader = new BundleReader(options.bundle);
  const ownState = options.state === undefined;
  const state = options.state ?? new SqliteStateStore(':memory:');
  let account: Account;
  try {
    account = await localAccount(state);
  } catch (err) {
    reader.close();
    if (ownState) await state.close();
    throw err;
  }
  const services = new Services(reader, state);

  const transport: Transport = async (call: ApiCall, request: RequestOptions): Promise<ApiResult> => {
    request.signal?.throwIfAborted();
    const instance = fillPath(call.endpoint.path, call.params);
    if (call.name === 'openapi') {
      return { status: 200, body: buildOpenApi(services.operations, { version: packageVersion() }) };
    }
    // Every endpoint but the OpenAPI document names the operation it calls: no path is parsed back.
    const op = call.endpoint.operation ? services.operation(call.endpoint.operation) : undefined;
    if (!op) {
      throw new HeatsourceError(
        problem(
          'not_implemented',
          `${call.endpoint.method} ${call.endpoint.path} is not served by this bundle`,
          instance,
        ),
      );
    }
    const input = inputOf(call);
    if (op.response === 'image' && input.format === undefined) input.format = 'webp';
    const ctx: ServiceContext = {
      account,
      key: null,
      requestId: crypto.randomUUID(),
      idempotencyKey: request.idempotencyKey ?? (op.idempotency === 'required' ? crypto.randomUUID() : null),
    };
    try {
      const result = await services.invoke(ctx, op.name, input);
      if (result.binary) {
        const data = result.binary.data;
        return {
          status: result.status,
          body: null,
          [op.response === 'image' ? 'snapshot' : 'file']: {
            data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
            contentType: result.binary.contentType,
            etag: result.binary.etag,
          },
        };
      }
      if (op.name === 'whoami') {
        // Offline calls are never billed: the pseudo-account shows nothing used.
        const me = result.body as { quota: { used: number } };
        return { status: result.status, body: { ...me, quota: { ...me.quota, used: 0 } } };
      }
      return { status: result.status, body: result.body };
    } catch (err) {
      if (err instanceof ServiceError) throw new HeatsourceError(err.toProblem(instance));
      throw err;
    }
  };

  const api = apiOverTransport(transport);
  let closed = false;
  return {
    ...api,
    target: { kind: 'local', bundle: options.bundle },
    async close() {
      if (closed) return;
      closed = true;
      reader.close();
      if (ownState) await state.close();
    },
  };
}
