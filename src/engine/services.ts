import type { BundleReader } from '../bundle/reader.js';
import type { MeResponse } from '../contract/account.js';
import type { ProductRequest, RegistryRequest, SnapshotRequest } from '../contract/catalog.js';
import type { DiagnosticRequest, DiagnosticTurnRequest } from '../contract/diagnostic.js';
import type {
  ModelCoverageRequest,
  ResolveModelRequest,
  StrictDiagnosticRequest,
} from '../contract/models.js';
import type { OfflinePackRequest } from '../contract/offline-pack.js';
import { OPERATIONS, type OperationSpec } from '../contract/operations.js';
import type { SearchQuery } from '../contract/search.js';
import type { SessionRef, SessionRespondRequest } from '../contract/session-requests.js';
import type { CreateSessionRequest } from '../contract/sessions.js';
import type { StateStore } from '../state/types.js';
import { checkIdempotencyKey, conflictProblem, fingerprint, runBillable } from './billing.js';
import { guardBundleReads } from './bundle-guard.js';
import { errorCode, modelCoverage, procedure, product, registry, resolveModelStrict } from './catalog.js';
import type { ServiceContext, ServiceResult } from './context.js';
import { type CorpusView, corpusView } from './corpus.js';
import { diagnose, diagnoseStrict } from './diagnostic.js';
import { ServiceError, validationError } from './errors.js';
import { OfflinePackService } from './offline-pack.js';
import { InvalidCursorError, searchChunks } from './search.js';
import { SessionService, type SessionServiceOptions } from './sessions/service.js';
import { SnapshotService } from './snapshot.js';

/** A service function: validated input in, status and body out; no HTTP in sight. */
// biome-ignore lint/suspicious/noExplicitAny: each handler narrows its own input, validated by its operation's schema
export type Handler = (ctx: ServiceContext, input: any) => ServiceResult | Promise<ServiceResult>;

const ok = <T>(body: T, billable = false): ServiceResult<T> => ({ status: 200, body, billable });

/** A result with its JSON computed once: cached lookups are served again without serialising. */
const serialised = <T>(body: T, billable: boolean): ServiceResult<T> => ({
  status: 200,
  body,
  billable,
  json: JSON.stringify(body),
});

function lookupKey(input: {
  brand: string;
  model?: string | null;
  error_code: string;
  language?: string;
}): string {
  return `${input.brand}\u0000${input.model ?? ''}\u0000${input.error_code}\u0000${input.language ?? ''}`;
}

/** Lookup results by request: a bundle never changes under a running server, so they stay valid. */
class ResultCache {
  private readonly map = new Map<string, ServiceResult>();
  constructor(private readonly max: number) {}
  get(key: string, make: () => ServiceResult): ServiceResult {
    let hit = this.map.get(key);
    if (!hit) {
      hit = make();
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, hit);
    }
    return hit;
  }
}

/**
 * The service layer over one bundle and one state store. REST routes and MCP tools both call
 * `invoke(ctx, name, input)`, so validation, idempotency, billing and the response body are the same
 * whichever way a request comes in.
 */
export class Services {
  /** The bundle and what is built over it; `reopen` replaces them all at once. */
  reader: BundleReader;
  view: CorpusView;
  snapshots: SnapshotService;
  sessions: SessionService;
  packs: OfflinePackService;
  readonly operations: OperationSpec[];
  private readonly handlers = new Map<string, Handler>();
  private lookups = new ResultCache(10_000);

  constructor(
    reader: BundleReader,
    readonly state: StateStore,
    private readonly options: { snapshotCacheBytes?: number; sessions?: SessionServiceOptions } = {},
  ) {
    this.reader = reader;
    this.view = corpusView(reader);
    this.snapshots = new SnapshotService(this.view, { cacheBytes: options.snapshotCacheBytes });
    this.sessions = new SessionService(this.view, state, options.sessions);
    this.packs = new OfflinePackService(this.view, { knowledge: () => this.sessions.knowledge() });
    this.operations = [...OPERATIONS];
    // Handlers read the bundle through `this` at call time, so that a reopened bundle serves the next call.
    this.handle('diagnose', (_ctx, input: DiagnosticRequest) =>
      this.lookups.get(`v1\u0000${lookupKey(input)}`, () => {
        const body = diagnose(this.view, input);
        return serialised(body, body.billable);
      }),
    );
    this.handle('diagnose_guided', (ctx, input: DiagnosticTurnRequest) => this.sessions.turn(ctx, input));
    this.handle('search', (_ctx, input: SearchQuery) => {
      try {
        return ok(searchChunks(this.reader, input));
      } catch (err) {
        if (err instanceof InvalidCursorError) {
          throw new ServiceError('validation_failed', err.message, {
            errors: [{ field: 'cursor', message: err.message }],
          });
        }
        throw err;
      }
    });
    this.handle('get_procedure', (_ctx, input: { chunk_id: string }) => ok(procedure(this.view, input)));
    this.handle('get_error_code', (_ctx, input: { brand: string; code: string }) =>
      ok(errorCode(this.view, input)),
    );
    this.handle('get_product', (_ctx, input: ProductRequest) => ok(product(this.view, input)));
    this.handle('get_pdf_snapshot', async (_ctx, input: SnapshotRequest) => {
      const image = await this.snapshots.get({ ...input, format: input.format ?? 'webp' });
      return {
        status: 200,
        body: image.meta,
        billable: false,
        binary: { contentType: image.meta.content_type, data: image.data, etag: image.meta.etag },
      };
    });
    this.handle('get_registry', (_ctx, input: RegistryRequest) => ok(registry(this.view, input)));
    this.handle('export_offline_pack', (_ctx, input: OfflinePackRequest) => this.packs.export(input));
    this.handle('whoami', async (ctx) => ok(await this.me(ctx)));
    this.handle('diagnose_strict', (_ctx, input: StrictDiagnosticRequest) =>
      this.lookups.get(`v2\u0000${lookupKey(input)}`, () => {
        const body = diagnoseStrict(this.view, input);
        return serialised(body, body.billable);
      }),
    );
    this.handle('resolve_model', (_ctx, input: ResolveModelRequest) =>
      ok(resolveModelStrict(this.view, input)),
    );
    this.handle('get_model_coverage', (_ctx, input: ModelCoverageRequest) =>
      ok(modelCoverage(this.view, input)),
    );
    this.handle('start_diagnostic_session', (ctx, input: CreateSessionRequest) =>
      this.sessions.create(ctx, input),
    );
    this.handle('get_diagnostic_session', (ctx, input: SessionRef) => this.sessions.get(ctx, input));
    this.handle('respond_to_diagnostic_session', (ctx, input: SessionRespondRequest) =>
      this.sessions.respond(ctx, input),
    );
    this.handle('undo_diagnostic_session', (ctx, input: SessionRef) => this.sessions.undo(ctx, input));
    this.handle('close_diagnostic_session', (ctx, input: SessionRef) => this.sessions.close(ctx, input));
    this.handle('get_diagnostic_session_summary', (ctx, input: SessionRef) =>
      this.sessions.summary(ctx, input),
    );
  }

  /**
   * Serves from another bundle from the next call on: the view, the snapshot service, the session
   * service (keeping the knowledge already loaded) and the lookup cache are replaced together. Calls in
   * flight finish on the old ones. Returns the old reader, for the caller to close once they have.
   */
  reopen(reader: BundleReader): BundleReader {
    const old = this.reader;
    const view = corpusView(reader);
    const knowledge = this.sessions.loadedKnowledge();
    const sessions = new SessionService(view, this.state, {
      ...this.options.sessions,
      ...(knowledge ? { knowledge } : {}),
    });
    const snapshots = new SnapshotService(view, { cacheBytes: this.options.snapshotCacheBytes });
    this.reader = reader;
    this.view = view;
    this.sessions = sessions;
    this.snapshots = snapshots;
    this.packs = new OfflinePackService(view, { knowledge: () => sessions.knowledge() });
    this.lookups = new ResultCache(10_000);
    return old;
  }

  /** Sets the handler of an operation; a later feature adds its operation to `operations` and its handler here. */
  handle(name: string, handler: Handler): void {
    this.handlers.set(name, handler);
  }

  /** Adds an operation (and its handler) after construction, e.g. the guided sessions. */
  addOperation(spec: OperationSpec, handler: Handler): void {
    const at = this.operations.findIndex((o) => o.name === spec.name);
    if (at >= 0) this.operations[at] = spec;
    else this.operations.push(spec);
    this.handlers.set(spec.name, handler);
  }

  operation(name: string): OperationSpec | undefined {
    return this.operations.find((o) => o.name === name);
  }

  /**
   * Runs an operation by name for a caller: validates `rawInput` with the operation's schema, requires
   * an Idempotency-Key where the operation does, then runs it under its billing and idempotency rules.
   * Throws ServiceError for anything the caller can act on.
   */
  async invoke(ctx: ServiceContext, name: string, rawInput: unknown): Promise<ServiceResult> {
    const op = this.operation(name);
    const handler = guardBundleReads(() => this.reader, name, this.handlers.get(name));
    if (!op || !handler) throw new ServiceError('not_found', `no operation "${name}"`);
    const parsed = op.input.safeParse(rawInput ?? {});
    if (!parsed.success) throw validationError(parsed.error, op.input);
    const input = parsed.data;
    const idempotent = op.idempotency !== 'none';
    if (idempotent && ctx.idempotencyKey !== null) checkIdempotencyKey(ctx.idempotencyKey);
    if (op.idempotency === 'required' && !ctx.idempotencyKey) {
      throw new ServiceError(
        'idempotency_key_required',
        `${op.method} ${op.path} needs an Idempotency-Key header`,
      );
    }
    const withKey = idempotent && ctx.idempotencyKey !== null;
    if (op.billing === 'none' && !withKey) {
      const result = await handler(ctx, input);
      if (result.sessionWrite) {
        try {
          await this.state.complete({ session: result.sessionWrite });
        } catch (err) {
          throw conflictProblem(err);
        }
      }
      return result;
    }
    return runBillable(
      this.state,
      ctx,
      {
        operation: op.name,
        billing: op.billing,
        idempotent,
        fingerprint: withKey ? fingerprint(op.name, input) : '',
      },
      () => handler(ctx, input),
    );
  }

  async me(ctx: ServiceContext): Promise<MeResponse> {
    const quota = await this.state.quota(ctx.account.id);
    return {
      account: { id: ctx.account.id, name: ctx.account.name, created_at: ctx.account.created_at },
      key: ctx.key
        ? { id: ctx.key.id, prefix: ctx.key.prefix, mode: ctx.key.mode, created_at: ctx.key.created_at }
        : null,
      quota,
      rate_limit: { requests_per_minute: ctx.key ? ctx.account.rate_limit_per_minute : null },
    };
  }
}
