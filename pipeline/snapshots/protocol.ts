/** Messages exchanged between the pool and its render workers. */

export interface RenderJob {
  type: 'job';
  id: number;
  /** Identifies the document across batches, so a worker can keep it open between them. */
  doc: number;
  /** Shared so that every batch of a document reaches its worker without a copy. */
  pdf: SharedArrayBuffer;
  pages: number[];
  width: number;
  quality: number;
  effort: number;
  /** False when no batch of this document is left in the queue: close it after this batch. */
  keepOpen: boolean;
}

/** Close the document kept open for batches that went to other workers after all. */
export interface ReleaseDocument {
  type: 'release';
}

export type PoolMessage = RenderJob | ReleaseDocument;

export type WorkerReply =
  | { type: 'page'; id: number; page: number; webp: Uint8Array; width: number; height: number }
  | { type: 'fail'; id: number; page: number; reason: string }
  | { type: 'done'; id: number };
