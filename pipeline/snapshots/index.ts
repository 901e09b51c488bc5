/**
 * Page snapshots: every page of a PDF rendered by pdfjs in worker threads and encoded to WebP.
 *
 * For a whole ingest run, create one SnapshotPool, submit the documents' render() calls without
 * waiting for each in turn (their batches share one queue, so no worker idles at the end of a
 * document), and close() the pool at the end. renderSnapshots() is the one-document shortcut.
 * Workers run compiled JavaScript: from the TypeScript sources, `npm run build` must have run.
 */
export { MIN_WORKER_HEAP_MB, renderSnapshots, SnapshotPool, type SnapshotPoolOptions } from './pool.js';
export type {
  PageSnapshot,
  ProgressCallback,
  SnapshotFailure,
  SnapshotOptions,
  SnapshotResult,
} from './types.js';
export { DEFAULT_EFFORT, DEFAULT_QUALITY, DEFAULT_WIDTH } from './types.js';
