import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { openPdf } from '../pdf/open.js';
import { splitIntoBatches } from './batches.js';
import type { ReleaseDocument, RenderJob, WorkerReply } from './protocol.js';
import {
  DEFAULT_EFFORT,
  DEFAULT_PAGE_TIMEOUT_MS,
  DEFAULT_QUALITY,
  DEFAULT_WIDTH,
  type PageSnapshot,
  type ProgressCallback,
  type SnapshotFailure,
  type SnapshotOptions,
  type SnapshotResult,
} from './types.js';
import { renderWorkerUrl } from './worker-path.js';

export interface SnapshotPoolOptions extends Omit<SnapshotOptions, 'jobs'> {
  /**
   * V8 heap limit per worker, at least MIN_WORKER_HEAP_MB; a worker that exceeds it is replaced and its
   * pages fail.
   */
  maxWorkerHeapMb?: number;
}

/**
 * The smallest heap limit a worker may be given. Under a few MB V8 cannot even deserialise a new
 * isolate's start-up snapshot, and that is not the worker's recoverable out-of-memory exit but a fatal
 * error that aborts the whole process ("GC during deserialization", status 133/134 on Node 22 and 24).
 */
export const MIN_WORKER_HEAP_MB = 16;

/** One render() call: collects the pages of one document as workers report them. */
class DocumentRun {
  private static nextId = 1;
  readonly id = DocumentRun.nextId++;
  readonly snapshots: PageSnapshot[] = [];
  readonly failures: SnapshotFailure[] = [];
  private done = 0;

  constructor(
    private readonly total: number,
    private readonly onPage: ProgressCallback | undefined,
    private readonly finish: (result: SnapshotResult) => void,
  ) {}

  succeed(snapshot: PageSnapshot): void {
    this.snapshots.push(snapshot);
    this.advance();
  }

  fail(failure: SnapshotFailure): void {
    this.failures.push(failure);
    this.advance();
  }

  private advance(): void {
    this.done++;
    this.onPage?.(this.done, this.total);
    if (this.done === this.total) {
      this.snapshots.sort((a, b) => a.page - b.page);
      this.failures.sort((a, b) => a.page - b.page);
      this.finish({ snapshots: this.snapshots, failures: this.failures });
    }
  }
}

interface Batch {
  run: DocumentRun;
  pdf: SharedArrayBuffer;
  pages: number[];
  width: number;
  quality: number;
  effort: number;
  timeoutMs: number;
}

interface ActiveJob {
  id: number;
  batch: Batch;
  /** Pages not yet reported: the ones that fail if the worker dies. */
  pending: Set<number>;
  timer: NodeJS.Timeout;
}

interface Slot {
  worker?: Worker;
  job?: ActiveJob;
  /** The document the worker keeps open after its last batch, if any. */
  openRun?: DocumentRun;
  /** Why the current worker is going away, when we know better than its exit code. */
  lossReason?: string;
}

/**
 * A fixed set of render worker threads shared by every document of an ingest run. Documents are cut
 * into contiguous page batches that go through one FIFO queue, so several render() calls in flight
 * keep every worker busy; each worker opens the document once per batch. Workers start on demand
 * and are replaced after a crash, a heap overflow or a page timeout.
 */
export class SnapshotPool {
  private readonly slots: Slot[];
  private readonly queue: Batch[] = [];
  private readonly defaults: Required<Omit<SnapshotPoolOptions, 'maxWorkerHeapMb'>>;
  private readonly workerUrl: URL;
  private nextJobId = 1;
  private closed = false;

  constructor(
    readonly jobs: number = availableParallelism(),
    private readonly options: SnapshotPoolOptions = {},
  ) {
    if (!Number.isInteger(jobs) || jobs < 1)
      throw new RangeError(`jobs must be a positive integer, got ${jobs}`);
    const heap = options.maxWorkerHeapMb;
    if (heap !== undefined && !(Number.isFinite(heap) && heap >= MIN_WORKER_HEAP_MB))
      throw new RangeError(`maxWorkerHeapMb must be at least ${MIN_WORKER_HEAP_MB}, got ${heap}`);
    this.workerUrl = renderWorkerUrl();
    this.slots = Array.from({ length: jobs }, () => ({}));
    this.defaults = {
      width: options.width ?? DEFAULT_WIDTH,
      quality: options.quality ?? DEFAULT_QUALITY,
      effort: options.effort ?? DEFAULT_EFFORT,
      pageTimeoutMs: options.pageTimeoutMs ?? DEFAULT_PAGE_TIMEOUT_MS,
    };
  }

  /** Live worker threads (they start with the first batch and stop at close()). */
  get workerCount(): number {
    return this.slots.filter((slot) => slot.worker).length;
  }

  /**
   * Renders the given pages (default all) of one PDF. A bad page or an unreadable document is
   * reported in `failures`; only misuse (invalid options, a closed pool) rejects.
   */
  async render(
    pdf: Uint8Array,
    pages: number[] | 'all' = 'all',
    opts: SnapshotOptions = {},
    onPage?: ProgressCallback,
  ): Promise<SnapshotResult> {
    if (this.closed) throw new Error('SnapshotPool is closed');
    const width = opts.width ?? this.defaults.width;
    const quality = opts.quality ?? this.defaults.quality;
    const effort = opts.effort ?? this.defaults.effort;
    const timeoutMs = opts.pageTimeoutMs ?? this.defaults.pageTimeoutMs;
    if (!Number.isInteger(width) || width < 1)
      throw new RangeError(`width must be a positive integer, got ${width}`);
    if (!(quality >= 1 && quality <= 100))
      throw new RangeError(`quality must be within 1..100, got ${quality}`);
    if (!(Number.isInteger(effort) && effort >= 0 && effort <= 6)) {
      throw new RangeError(`effort must be an integer within 0..6, got ${effort}`);
    }
    if (!(timeoutMs > 0)) throw new RangeError(`pageTimeoutMs must be positive, got ${timeoutMs}`);

    const invalid: SnapshotFailure[] = [];
    let wanted: number[];
    if (pages === 'all') {
      const counted = await countPages(pdf);
      if (typeof counted === 'string') return { snapshots: [], failures: [{ page: 0, reason: counted }] };
      wanted = Array.from({ length: counted }, (_, i) => i + 1);
    } else {
      wanted = [];
      for (const page of new Set(pages)) {
        if (Number.isInteger(page) && page >= 1) wanted.push(page);
        else invalid.push({ page, reason: `invalid page number ${page}` });
      }
      wanted.sort((a, b) => a - b);
    }
    const total = wanted.length + invalid.length;
    if (total === 0) return { snapshots: [], failures: [] };

    if (this.closed) {
      return {
        snapshots: [],
        failures: [...invalid, ...wanted.map((page) => ({ page, reason: 'pool closed' }))],
      };
    }

    const shared = new SharedArrayBuffer(pdf.byteLength);
    new Uint8Array(shared).set(pdf);
    return new Promise<SnapshotResult>((resolve) => {
      const run = new DocumentRun(total, onPage, resolve);
      for (const failure of invalid) run.fail(failure);
      for (const batchPages of splitIntoBatches(wanted, this.jobs)) {
        this.queue.push({ run, pdf: shared, pages: batchPages, width, quality, effort, timeoutMs });
      }
      this.pump();
    });
  }

  /** Stops every worker. Pages still queued or in progress fail with reason 'pool closed'. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const batch of this.queue.splice(0)) {
      for (const page of batch.pages) batch.run.fail({ page, reason: 'pool closed' });
    }
    const exits: Promise<unknown>[] = [];
    for (const slot of this.slots) {
      const worker = slot.worker;
      if (!worker) continue;
      slot.lossReason = 'pool closed';
      exits.push(new Promise((resolve) => worker.once('exit', resolve)));
      // An idle worker is unref'ed; without this the process could end before it reports its exit.
      worker.ref();
      void worker.terminate();
    }
    await Promise.all(exits);
  }

  /**
   * Hands queued batches to idle workers, preferring a batch of the document a worker already has
   * open, and tells idle workers to close documents that have nothing left in the queue.
   */
  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.job || this.queue.length === 0) continue;
      const sameDoc = slot.openRun ? this.queue.findIndex((b) => b.run === slot.openRun) : -1;
      const [batch] = this.queue.splice(Math.max(0, sameDoc), 1);
      if (!batch) continue;
      const keepOpen = this.queue.some((b) => b.run === batch.run);
      const worker = slot.worker ?? this.spawn(slot);
      const id = this.nextJobId++;
      slot.job = {
        id,
        batch,
        pending: new Set(batch.pages),
        timer: this.watchdog(slot, worker, batch.timeoutMs),
      };
      slot.openRun = keepOpen ? batch.run : undefined;
      worker.ref();
      const job: RenderJob = {
        type: 'job',
        id,
        doc: batch.run.id,
        pdf: batch.pdf,
        pages: batch.pages,
        width: batch.width,
        quality: batch.quality,
        effort: batch.effort,
        keepOpen,
      };
      worker.postMessage(job);
    }
    for (const slot of this.slots) {
      const run = slot.openRun;
      if (!run || slot.job || this.queue.some((b) => b.run === run)) continue;
      slot.openRun = undefined;
      const release: ReleaseDocument = { type: 'release' };
      slot.worker?.postMessage(release);
    }
  }

  private spawn(slot: Slot): Worker {
    const heap = this.options.maxWorkerHeapMb;
    const worker = new Worker(
      this.workerUrl,
      heap ? { resourceLimits: { maxOldGenerationSizeMb: heap } } : {},
    );
    slot.worker = worker;
    slot.lossReason = undefined;
    worker.on('message', (message: WorkerReply) => this.onReply(slot, message));
    worker.on('error', (err: Error) => {
      slot.lossReason ??= `worker crashed: ${err.message}`;
    });
    worker.on('exit', (code) => this.onExit(slot, worker, code));
    return worker;
  }

  private watchdog(slot: Slot, worker: Worker, timeoutMs: number): NodeJS.Timeout {
    return setTimeout(() => {
      slot.lossReason = `no page rendered within ${timeoutMs} ms; worker stopped`;
      void worker.terminate();
    }, timeoutMs);
  }

  private onReply(slot: Slot, message: WorkerReply): void {
    const job = slot.job;
    const worker = slot.worker;
    if (!job || !worker || message.id !== job.id) return;
    if (message.type === 'done') {
      clearTimeout(job.timer);
      slot.job = undefined;
      // Pages the worker never mentioned (should not happen) must not leave render() pending.
      for (const page of job.pending) job.batch.run.fail({ page, reason: 'worker skipped the page' });
      // A closing pool must keep its workers referenced until they report their exit.
      if (!this.closed) worker.unref();
      this.pump();
      return;
    }
    if (!job.pending.delete(message.page)) return;
    job.timer.refresh();
    if (message.type === 'page') {
      const webp = Buffer.from(message.webp.buffer, message.webp.byteOffset, message.webp.byteLength);
      job.batch.run.succeed({ page: message.page, webp, width: message.width, height: message.height });
    } else {
      job.batch.run.fail({ page: message.page, reason: message.reason });
    }
  }

  private onExit(slot: Slot, worker: Worker, code: number): void {
    if (slot.worker !== worker) return;
    const job = slot.job;
    const reason = slot.lossReason ?? `worker exited with code ${code}`;
    slot.worker = undefined;
    slot.job = undefined;
    slot.openRun = undefined;
    if (job) {
      clearTimeout(job.timer);
      for (const page of job.pending) job.batch.run.fail({ page, reason });
    }
    // The replacement starts with the next batch, so a worker that dies on start cannot loop.
    this.pump();
  }
}

/** Page count from the main thread, or the reason the document cannot be read. */
async function countPages(pdf: Uint8Array): Promise<number | string> {
  try {
    const doc = await openPdf(pdf);
    const count = doc.numPages;
    await doc.destroy();
    return count;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Renders pages of one PDF with a pool of its own, closed before returning. */
export async function renderSnapshots(
  pdf: Uint8Array,
  pages: number[] | 'all' = 'all',
  opts: SnapshotOptions = {},
  onPage?: ProgressCallback,
): Promise<SnapshotResult> {
  const pool = new SnapshotPool(opts.jobs ?? availableParallelism(), opts);
  try {
    return await pool.render(pdf, pages, opts, onPage);
  } finally {
    await pool.close();
  }
}
