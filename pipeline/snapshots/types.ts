export interface SnapshotOptions {
  /** Worker threads; defaults to os.availableParallelism(). Ignored by SnapshotPool.render. */
  jobs?: number;
  /** Output width in pixels; the page is rendered at exactly this width. Default 1000. */
  width?: number;
  /** WebP quality, 1-100. Default 75. */
  quality?: number;
  /**
   * WebP encoder effort, 0-6. Default 2: on 1000 px manual pages it encodes in about half the
   * time of libwebp's default (4) for files about 2% larger.
   */
  effort?: number;
  /**
   * A worker that reports no page for this long is terminated and its remaining pages fail.
   * Guards the pool against pathological pages. Default 120 000 ms.
   */
  pageTimeoutMs?: number;
}

export interface PageSnapshot {
  /** 1-based page number. */
  page: number;
  webp: Buffer;
  width: number;
  height: number;
}

/** `page` 0 means the document itself could not be read, so its pages could not be listed. */
export interface SnapshotFailure {
  page: number;
  reason: string;
}

export interface SnapshotResult {
  snapshots: PageSnapshot[];
  failures: SnapshotFailure[];
}

/** Called after each page, rendered or failed. It runs inside the pool's message handling: do not throw. */
export type ProgressCallback = (done: number, total: number) => void;

export const DEFAULT_WIDTH = 1000;
export const DEFAULT_QUALITY = 75;
export const DEFAULT_EFFORT = 2;
export const DEFAULT_PAGE_TIMEOUT_MS = 120_000;
