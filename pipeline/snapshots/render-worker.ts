import { parentPort } from 'node:worker_threads';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { openPdf } from '../pdf/open.js';
import type { PoolMessage, RenderJob, WorkerReply } from './protocol.js';
import { renderPageToWebp } from './render-page.js';

// Parallelism comes from the worker threads; libvips threads of its own would only contend with them.
sharp.concurrency(1);
sharp.cache(false);

const port = parentPort;
if (!port) throw new Error('render-worker must run in a worker thread');

/**
 * The document of the previous batch. Re-opening costs more than parsing the file: every batch
 * would translate the fonts of its pages again (tens of ms per batch on the corpus manuals).
 */
let open: { key: number; doc: PDFDocumentProxy } | undefined;

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function release(): Promise<void> {
  const current = open;
  open = undefined;
  if (current) await current.doc.destroy();
}

async function documentFor(job: RenderJob): Promise<PDFDocumentProxy> {
  if (open?.key === job.doc) return open.doc;
  await release();
  const doc = await openPdf(new Uint8Array(job.pdf));
  open = { key: job.doc, doc };
  return doc;
}

async function runJob(job: RenderJob): Promise<void> {
  let doc: PDFDocumentProxy;
  try {
    doc = await documentFor(job);
  } catch (err) {
    for (const page of job.pages) reply({ type: 'fail', id: job.id, page, reason: describe(err) });
    return;
  }
  for (const page of job.pages) {
    if (page < 1 || page > doc.numPages) {
      reply({ type: 'fail', id: job.id, page, reason: `no page ${page} (document has ${doc.numPages})` });
      continue;
    }
    try {
      const out = await renderPageToWebp(doc, page, job.width, job.quality, job.effort);
      // A private copy can be transferred; sharp's buffer may share its memory with others.
      const webp = new Uint8Array(out.webp);
      reply({ type: 'page', id: job.id, page, webp, width: out.width, height: out.height }, [
        webp.buffer as ArrayBuffer,
      ]);
    } catch (err) {
      reply({ type: 'fail', id: job.id, page, reason: `render failed: ${describe(err)}` });
    }
  }
  if (!job.keepOpen) await release();
}

async function handle(message: PoolMessage): Promise<void> {
  if (message.type === 'release') return release();
  await runJob(message);
  reply({ type: 'done', id: message.id });
}

// One message at a time: a release must not destroy the document a running batch is using.
let queue: Promise<void> = Promise.resolve();
port.on('message', (message: PoolMessage) => {
  queue = queue.then(() => handle(message));
  // An error outside a page (pdfjs teardown, messaging) is a crash: the pool replaces the worker.
  queue.catch((err: unknown) => {
    setImmediate(() => {
      throw err;
    });
  });
});
