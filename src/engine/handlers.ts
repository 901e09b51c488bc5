import { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { BundleReader } from '../bundle/reader.js';
import type { MeResponse } from '../contract/account.js';
import type { OperationName, OperationNamed } from '../contract/operations.js';
import { Admission } from './admission.js';
import { errorCode, modelCoverage, procedure, product, registry, resolveModelStrict } from './catalog.js';
import type { ServiceContext, ServiceResult } from './context.js';
import type { CorpusView } from './corpus.js';
import { diagnose, diagnoseStrict } from './diagnostic.js';
import { ServiceError } from './errors.js';
import type { OfflinePackService } from './offline-pack.js';
import { InvalidCursorError, searchChunks } from './search.js';
import type { SessionService } from './sessions/service.js';
import type { SnapshotService } from './snapshot.js';

/** What an operation's handler receives: its input schema's output, i.e. the input after validation. */
export type InputOf<K extends OperationName> = z.output<OperationNamed<K>['input']>;
/** What an operation's handler answers: a body of its output schema. */
export type OutputOf<K extends OperationName> = z.output<OperationNamed<K>['output']>;

/** A service function: validated input in, status and body out; no HTTP in sight. */
export type Handler<K extends OperationName> = (
  ctx: ServiceContext,
  input: InputOf<K>,
) => ServiceResult<OutputOf<K>> | Promise<ServiceResult<OutputOf<K>>>;

/**
 * One handler per operation of the contract, each typed by its operation's schemas: an operation without
 * a handler, a handler without an operation, or a handler reading a field its input does not have fails
 * to compile.
 */
export type HandlerTable = { [K in OperationName]: Handler<K> };

/** What the handlers serve from; `Services` holds these and replaces them together on `reopen`. */
export interface HandlerDeps {
  readonly reader: BundleReader;
  readonly view: CorpusView;
  readonly snapshots: SnapshotService;
  readonly sessions: SessionService;
  readonly packs: OfflinePackService;
  readonly lookups: LookupCache;
  me(ctx: ServiceContext): Promise<MeResponse>;
}

/**
 * Lookup results by request, as their JSON: a bundle never changes under a running server, so they stay
 * valid until `reopen` replaces the cache. Bounded by count and by the memory of their JSON, least
 * recently used first out.
 */
export type LookupCache = LRUCache<string, ServiceResult>;

/**
 * The most lookups the cache keeps. A full cache of codes the manuals lack held 1.3 KiB per entry (heap
 * and the REST bytes): 13 MB at 10,000 entries, the bound before, reached in a 10-minute soak where one
 * request in ten asks for a new code. At 2,000, an entry goes only once 2,000 other lookups have been
 * asked since it was last asked (at 200 requests a second of the soak's mix, about a minute and a half),
 * so the codes asked again and again stay, for a fifth of the memory (BENCHMARKS.md, soak).
 */
export const LOOKUP_CACHE_ENTRIES = 2_000;

export function lookupCache(): LookupCache {
  return new LRUCache<string, ServiceResult>({
    max: LOOKUP_CACHE_ENTRIES,
    maxSize: 32 * 1024 * 1024,
    // An entry holds its JSON (one byte per character, two for text beyond Latin-1) and the REST routes
    // keep its UTF-8 bytes beside it once they have answered with it; an MCP call keeps its tool result
    // (the body parsed once, about 4.7 times the JSON's length) for as long as the entry is kept. 4 bytes
    // per character and 256 for the objects keeps the bound near what a REST-only entry holds.
    sizeCalculation: (result) => 256 + (result.json?.length ?? 0) * 4,
  });
}

/**
 * A cached lookup: its JSON and the fields the routes read on every answer, not its body. The body of a
 * diagnostic takes about 4.7 times its JSON's length in heap (2.7 KiB for 0.57 KiB of JSON for a code the
 * manuals lack), and the REST routes answer with the JSON alone; the body is parsed again when read,
 * which the MCP path does once per protocol revision (it then keeps the tool result made from it).
 */
class CachedLookup<T> implements ServiceResult<T> {
  readonly status = 200;
  readonly billable: boolean;
  readonly json: string;
  readonly state: string | undefined;

  constructor(body: T & { billable: boolean }, json: string) {
    this.billable = body.billable;
    this.json = json;
    const fields = body as { state?: unknown; status?: unknown };
    const state = fields.state ?? fields.status;
    this.state = typeof state === 'string' ? state : undefined;
  }

  get body(): T {
    return JSON.parse(this.json) as T;
  }
}

const ok = <T>(body: T, billable = false): ServiceResult<T> => ({ status: 200, body, billable });

function lookupKey(input: {
  brand: string;
  model?: string | null;
  error_code: string;
  language?: string;
}): string {
  return `${input.brand}\u0000${input.model ?? ''}\u0000${input.error_code}\u0000${input.language ?? ''}`;
}

/**
 * The lookups asked before, per cache: an answer is kept from its second ask. A third of the soak's
 * diagnostics ask for a code the manuals lack, nearly each a new one; kept, they pushed the codes asked
 * again and again out of the cache (BENCHMARKS.md, soak).
 */
const admissions = new WeakMap<LookupCache, Admission>();

function admissionOf(cache: LookupCache): Admission {
  let admission = admissions.get(cache);
  if (!admission) {
    admission = new Admission();
    admissions.set(cache, admission);
  }
  return admission;
}

/** A lookup served from the cache, its JSON computed once: a repeat is sent without serialising again. */
function cached<T extends { billable: boolean }>(
  cache: LookupCache,
  key: string,
  make: () => T,
): ServiceResult<T> {
  const hit = cache.get(key) as ServiceResult<T> | undefined;
  if (hit) return hit;
  const body = make();
  const entry = new CachedLookup(body, JSON.stringify(body));
  if (admissionOf(cache).admit(key)) cache.set(key, entry);
  return entry;
}

/**
 * The handler of every operation. `deps()` is read at call time, so a reopened bundle serves the next call
 * while calls in flight finish on the old one.
 */
export function handlerTable(deps: () => HandlerDeps): HandlerTable {
  return {
    diagnose: (_ctx, input) => {
      const d = deps();
      return cached(d.lookups, `v1\u0000${lookupKey(input)}`, () => diagnose(d.view, input));
    },
    diagnose_guided: (ctx, input) => deps().sessions.turn(ctx, input),
    search: (_ctx, input) => {
      try {
        return ok(searchChunks(deps().reader, input));
      } catch (err) {
        if (err instanceof InvalidCursorError) {
          throw new ServiceError('validation_failed', err.message, {
            errors: [{ field: 'cursor', message: err.message }],
          });
        }
        throw err;
      }
    },
    get_procedure: (_ctx, input) => ok(procedure(deps().view, input)),
    get_error_code: (_ctx, input) => ok(errorCode(deps().view, input)),
    get_product: (_ctx, input) => ok(product(deps().view, input)),
    get_pdf_snapshot: async (_ctx, input) => {
      const image = await deps().snapshots.get({ ...input, format: input.format ?? 'webp' });
      return {
        status: 200,
        body: image.meta,
        billable: false,
        binary: { contentType: image.meta.content_type, data: image.data, etag: image.meta.etag },
      };
    },
    export_offline_pack: (_ctx, input) => deps().packs.export(input),
    get_registry: (_ctx, input) => ok(registry(deps().view, input)),
    whoami: async (ctx) => ok(await deps().me(ctx)),
    diagnose_strict: (_ctx, input) => {
      const d = deps();
      return cached(d.lookups, `v2\u0000${lookupKey(input)}`, () => diagnoseStrict(d.view, input));
    },
    resolve_model: (_ctx, input) => ok(resolveModelStrict(deps().view, input)),
    get_model_coverage: (_ctx, input) => ok(modelCoverage(deps().view, input)),
    start_diagnostic_session: (ctx, input) => deps().sessions.create(ctx, input),
    get_diagnostic_session: (ctx, input) => deps().sessions.get(ctx, input),
    respond_to_diagnostic_session: (ctx, input) => deps().sessions.respond(ctx, input),
    undo_diagnostic_session: (ctx, input) => deps().sessions.undo(ctx, input),
    close_diagnostic_session: (ctx, input) => deps().sessions.close(ctx, input),
    get_diagnostic_session_summary: (ctx, input) => deps().sessions.summary(ctx, input),
  };
}
