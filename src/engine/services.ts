import type { BundleReader } from '../bundle/reader.js';
import type { MeResponse } from '../contract/account.js';
import { OPERATIONS, type OperationName, type OperationSpec } from '../contract/operations.js';
import type { StateStore } from '../state/types.js';
import { checkIdempotencyKey, conflictProblem, fingerprint, runBillable } from './billing.js';
import { guardBundleReads } from './bundle-guard.js';
import type { ServiceContext, ServiceResult } from './context.js';
import { type CorpusView, corpusView } from './corpus.js';
import { ServiceError, validationError } from './errors.js';
import { type Handler, type HandlerTable, handlerTable, type LookupCache, lookupCache } from './handlers.js';
import { OfflinePackService } from './offline-pack.js';
import { SessionService, type SessionServiceOptions } from './sessions/service.js';
import { SnapshotService } from './snapshot.js';

/** A handler as `invoke` calls it, once the operation's schema has validated its input. */
type UntypedHandler = (ctx: ServiceContext, input: unknown) => ServiceResult | Promise<ServiceResult>;

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
  readonly operations: OperationSpec[] = OPERATIONS;
  lookups: LookupCache = lookupCache();
  private readonly handlers: HandlerTable;

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
    this.handlers = handlerTable(() => this);
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
    this.lookups = lookupCache();
    return old;
  }

  /** Replaces the handler of an operation, e.g. to make one fail in a test of the error path. */
  handle<K extends OperationName>(name: K, handler: Handler<K>): void {
    (this.handlers as Record<K, Handler<K>>)[name] = handler;
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
    if (!op) throw new ServiceError('not_found', `no operation "${name}"`);
    // The operation was found in the contract's list, so the table has its handler; the input is that
    // operation's, validated just below.
    const handler = guardBundleReads(
      () => this.reader,
      op.name,
      this.handlers[op.name as OperationName] as unknown as UntypedHandler,
    )!;
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
