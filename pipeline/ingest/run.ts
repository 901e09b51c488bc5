import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { FORMAT_VERSION, META } from '../../src/bundle/schema.js';
import { BrandAliases } from '../../src/catalog/brands.js';
import { slugify } from '../../src/text/normalise.js';
import { BundleBuilder, type SnapshotImage } from '../bundle/writer.js';
import { detectSidecar } from '../detect/sidecar.js';
import { type DocumentSource, EXTRACTOR_VERSION, extractDocument } from '../extract-document.js';
import { decodedSizeProblem, pageCountProblem } from '../pdf/limits.js';
import { openPdf, PdfOpenError } from '../pdf/open.js';
import { noTextReason, textLayerProblem, textNeeded } from '../pdf/text-probe.js';
import { SnapshotPool } from '../snapshots/index.js';
import { checkCorrections } from './corrections.js';
import { discoverManuals, type ManualFile } from './discover.js';
import { type FieldProblem, readSidecar } from './sidecar-file.js';

export interface IngestOptions {
  paths: string[];
  bundle: string;
  jobs: number;
  snapshots: boolean;
  strict: boolean;
  brands?: BrandAliases;
  /** Reuse unchanged documents from the bundle at the target (default true); false re-extracts all. */
  reuse?: boolean;
  /** Extra meta entries written into the bundle (e.g. what a generated corpus was built from). */
  meta?: Record<string, string>;
}

export type FileStatus = 'ingested' | 'reused' | 'failed';

export interface FileResult {
  file: string;
  sidecar: string | null;
  status: FileStatus;
  document_id: string | null;
  pages: number;
  chunks: number;
  error_codes: number;
  /** Why the file was not ingested, per field where a field is at fault. */
  problems: FieldProblem[];
  /**
   * A failed file whose document the previous bundle held: that version is kept in the new bundle, so a
   * broken copy of a manual never removes it (document_id and counts are then the kept version's).
   */
  kept_previous: boolean;
  warnings: string[];
  ms: number;
}

export interface IngestReport {
  bundle: string;
  written: boolean;
  /** Why the bundle was not written, when it was not. */
  reason: string | null;
  files: FileResult[];
  /** Documents of the previous bundle that the new one does not hold (empty when nothing was written). */
  dropped: string[];
  totals: {
    files: number;
    ingested: number;
    reused: number;
    failed: number;
    /** Failed files whose previous version the bundle keeps. */
    kept_previous: number;
    pages: number;
    error_codes: number;
  };
  ms: number;
}

export type IngestEvent =
  | { type: 'start'; files: number }
  | { type: 'file-start'; file: string; index: number }
  | { type: 'file-progress'; file: string; stage: 'text' | 'snapshots'; done: number; total: number }
  | { type: 'file-end'; result: FileResult }
  | { type: 'writing' };

/** What a snapshot pool gives back for one document. */
type SnapshotOutcome = { snapshots: SnapshotImage[]; failures: { page: number; reason: string }[] };

interface PreviousDocument {
  id: string;
  sha256: string;
  has_snapshots: number;
  extractor_version: number;
  file_name: string;
  sidecar_json: string;
  sidecar_source: 'file' | 'detected';
  warnings_json: string;
}

/**
 * Ingests manuals into a bundle. Each file succeeds or fails on its own; the bundle is replaced only
 * when at least one document went in (and, with `strict`, when none failed).
 */
export async function ingest(
  options: IngestOptions,
  onEvent: (e: IngestEvent) => void = () => {},
): Promise<IngestReport> {
  const started = performance.now();
  const brands = options.brands ?? BrandAliases.load();
  removeStaleTempFiles(options.bundle);
  const { manuals, missing } = discoverManuals(options.paths);
  const results: FileResult[] = missing.map((file) =>
    failure(file, null, [{ field: '(path)', reason: 'no such file or folder' }]),
  );
  onEvent({ type: 'start', files: manuals.length });
  const hadBundle = fs.existsSync(options.bundle);
  const previous = options.reuse === false ? undefined : readPrevious(options.bundle);
  const builder = new BundleBuilder(options.bundle, brands, previous ? options.bundle : undefined);
  const pool = options.snapshots ? new SnapshotPool(options.jobs) : undefined;
  const seenHashes = new Map<string, string>();
  const seenIds = new Map<string, string>();
  const hashParts: string[] = [];
  const abortOnSignal = () => {
    builder.abort();
    process.exit(130);
  };
  process.once('SIGINT', abortOnSignal);
  process.once('SIGTERM', abortOnSignal);
  try {
    for (const [index, manual] of manuals.entries()) {
      onEvent({ type: 'file-start', file: manual.pdf, index });
      const { file, hash } = await ingestOne(manual, {
        builder,
        brands,
        previous,
        pool,
        seenHashes,
        seenIds,
        onProgress: (stage, done, total) =>
          onEvent({ type: 'file-progress', file: manual.pdf, stage, done, total }),
      });
      if (file.status !== 'failed') hashParts.push(`${file.document_id}:${hash}`);
      else if (previous) {
        const kept = keepPrevious(manual.pdf, previous, { builder, pool, seenHashes, seenIds });
        if (kept) {
          Object.assign(file, kept.file);
          hashParts.push(`${kept.file.document_id}:${kept.hash}`);
        }
      }
      results.push(file);
      onEvent({ type: 'file-end', result: file });
    }
    const ingestedCount = results.filter((r) => r.status !== 'failed').length;
    const failedCount = results.filter((r) => r.status === 'failed').length;
    let reason: string | null = null;
    // Say what became of the target: there may have been no bundle there to keep.
    const untouched = hadBundle ? 'the previous bundle is unchanged' : 'there was no previous bundle';
    if (ingestedCount === 0) reason = `no valid manual was ingested; ${untouched}`;
    else if (options.strict && failedCount > 0)
      reason = `--strict: ${failedCount} file(s) failed; ${untouched}`;
    if (reason) {
      builder.abort();
    } else {
      onEvent({ type: 'writing' });
      builder.finish(corpusHash(hashParts, options.snapshots), options.meta);
    }
    const kept = new Set(results.map((r) => r.document_id).filter((id): id is string => id !== null));
    const dropped =
      reason === null ? [...(previous?.values() ?? [])].map((d) => d.id).filter((id) => !kept.has(id)) : [];
    return report(options.bundle, reason === null, reason, results, dropped.sort(), started);
  } catch (err) {
    builder.abort();
    throw err;
  } finally {
    process.off('SIGINT', abortOnSignal);
    process.off('SIGTERM', abortOnSignal);
    await pool?.close();
  }
}

interface IngestContext {
  builder: BundleBuilder;
  brands: BrandAliases;
  previous: Map<string, PreviousDocument> | undefined;
  pool: SnapshotPool | undefined;
  seenHashes: Map<string, string>;
  seenIds: Map<string, string>;
  onProgress: (stage: 'text' | 'snapshots', done: number, total: number) => void;
}

async function ingestOne(
  manual: ManualFile,
  ctx: IngestContext,
): Promise<{ file: FileResult; hash: string }> {
  const t0 = performance.now();
  const fail = (problems: FieldProblem[]) => ({
    file: { ...failure(manual.pdf, manual.sidecar, problems), ms: elapsed(t0) },
    hash: '',
  });
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(fs.readFileSync(manual.pdf));
  } catch (err) {
    return fail([{ field: '(file)', reason: `cannot read: ${(err as Error).message}` }]);
  }
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex');
  const duplicateOf = ctx.seenHashes.get(sha256);
  if (duplicateOf)
    return fail([{ field: '(file)', reason: `duplicate document: same content as ${duplicateOf}` }]);
  const id = slugify(path.basename(manual.pdf));
  const sameId = ctx.seenIds.get(id);
  if (sameId)
    return fail([{ field: '(file)', reason: `duplicate document id "${id}": same file name as ${sameId}` }]);

  const warnings: string[] = [];
  let sidecarResult = manual.sidecar ? readSidecar(manual.sidecar) : undefined;
  if (sidecarResult && !sidecarResult.ok) return fail(sidecarResult.problems);

  // Before pdfjs or a snapshot worker decodes anything: a stream that inflates past the limits is refused.
  // A file the previous bundle holds under this extractor was checked then and is not decoded now.
  const known = ctx.previous?.get(sha256)?.extractor_version === EXTRACTOR_VERSION;
  const bomb = known ? null : await decodedSizeProblem(bytes);
  if (bomb) return fail([{ field: '(pdf)', reason: bomb }]);

  let doc: Awaited<ReturnType<typeof openPdf>>;
  try {
    doc = await openPdf(bytes);
  } catch (err) {
    const reason = err instanceof PdfOpenError ? err.message : `cannot open: ${(err as Error).message}`;
    return fail([{ field: '(pdf)', reason }]);
  }
  try {
    const tooLong = pageCountProblem(doc.numPages);
    if (tooLong) return fail([{ field: '(pdf)', reason: tooLong }]);
    let sidecarSource: 'file' | 'detected' = 'file';
    if (!sidecarResult) {
      const meta = await doc.getMetadata().catch(() => undefined);
      const title = (meta?.info as { Title?: string } | undefined)?.Title;
      const firstText = await firstPagesText(doc, 3);
      sidecarResult = {
        ok: true,
        sidecar: detectSidecar(path.basename(manual.pdf), title, firstText, ctx.brands),
        raw: '',
      };
      sidecarSource = 'detected';
      warnings.push(
        'no sidecar: brand, language and equipment were detected; not approved as an exact-model source',
      );
    }
    const sidecar = sidecarResult.sidecar;
    const source: DocumentSource = {
      id,
      fileName: path.basename(manual.pdf),
      sha256,
      sidecar,
      sidecarSource,
      extractorVersion: EXTRACTOR_VERSION,
    };
    const hash = sha(`${sha256}:${JSON.stringify(sidecar)}`);
    const prev = ctx.previous?.get(sha256);
    const reusable = prev && prev.extractor_version === EXTRACTOR_VERSION;

    if (reusable) {
      const wantSnapshots = ctx.pool !== undefined;
      let snapshots: 'copy' | 'none' | SnapshotImage[] = 'none';
      if (wantSnapshots && prev.has_snapshots) snapshots = 'copy';
      else if (wantSnapshots) {
        const outcome = await renderAll(ctx.pool!, bytes, ctx.onProgress);
        snapshots = outcome.snapshots;
        warnings.push(...outcome.failures.map((f) => `page ${f.page}: no snapshot (${f.reason})`));
      }
      const pages = ctx.builder.previousPageTexts(prev.id);
      const corrections = checkCorrections(
        sidecar.corrections,
        sidecarResult.raw,
        pages,
        ctx.builder.previousCodeLines(prev.id),
      );
      if (!corrections.ok) return fail(corrections.problems);
      ctx.builder.reuseDocument(source, prev.id, snapshots, warnings);
      ctx.builder.addCorrections(id, sidecar.brand, corrections.records);
      ctx.seenHashes.set(sha256, manual.pdf);
      ctx.seenIds.set(id, manual.pdf);
      const counts = ctx.builder.counts(id);
      return {
        file: {
          file: manual.pdf,
          sidecar: manual.sidecar ?? null,
          status: 'reused',
          document_id: id,
          ...counts,
          problems: [],
          kept_previous: false,
          warnings,
          ms: elapsed(t0),
        },
        hash,
      };
    }

    // The text check comes before any snapshot is drawn: a file without text is refused at the cost of
    // reading its text layer, never of rendering its pages.
    const noText = await textLayerProblem(doc);
    if (noText) return fail([{ field: '(pdf)', reason: noText }]);
    const rendering = ctx.pool ? renderAll(ctx.pool, bytes, ctx.onProgress) : Promise.resolve(undefined);
    const extracted = await extractDocument(doc, source);
    const outcome = await rendering;
    extracted.warnings.unshift(...warnings);
    if (outcome)
      extracted.warnings.push(...outcome.failures.map((f) => `page ${f.page}: no snapshot (${f.reason})`));
    const textChars = extracted.pages.reduce((n, p) => n + p.text.replace(/\s/g, '').length, 0);
    if (textChars < textNeeded(extracted.pageCount)) {
      return fail([{ field: '(pdf)', reason: await noTextReason(doc, []) }]);
    }
    const pages = new Map(extracted.pages.map((p) => [p.page, p.text]));
    const corrections = checkCorrections(sidecar.corrections, sidecarResult.raw, pages, extracted.codeLines);
    if (!corrections.ok) return fail(corrections.problems);
    ctx.builder.addDocument(extracted, outcome ? outcome.snapshots : null);
    ctx.builder.addCorrections(id, sidecar.brand, corrections.records);
    ctx.seenHashes.set(sha256, manual.pdf);
    ctx.seenIds.set(id, manual.pdf);
    return {
      file: {
        file: manual.pdf,
        sidecar: manual.sidecar ?? null,
        status: 'ingested',
        document_id: id,
        pages: extracted.pageCount,
        chunks: extracted.chunks.length,
        error_codes: extracted.errorCodes.length,
        kept_previous: false,
        problems: [],
        warnings: extracted.warnings,
        ms: elapsed(t0),
      },
      hash,
    };
  } catch (err) {
    return fail([{ field: '(pdf)', reason: `extraction failed: ${(err as Error).message}` }]);
  } finally {
    await doc.destroy().catch(() => {});
  }
}

async function renderAll(
  pool: SnapshotPool,
  bytes: Uint8Array,
  onProgress: IngestContext['onProgress'],
): Promise<SnapshotOutcome> {
  return pool.render(bytes, 'all', {}, (done, total) => onProgress('snapshots', done, total));
}

async function firstPagesText(doc: Awaited<ReturnType<typeof openPdf>>, n: number): Promise<string> {
  const parts: string[] = [];
  for (let i = 1; i <= Math.min(n, doc.numPages); i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    parts.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  return parts.join('\n');
}

/**
 * When a file fails and the previous bundle holds the document of the same name, its previous version
 * is copied into the new bundle as it was (pages, codes, snapshots, sidecar): a broken upload of a manual
 * must not silently remove the manual from the corpus.
 */
function keepPrevious(
  pdf: string,
  previous: Map<string, PreviousDocument>,
  ctx: Pick<IngestContext, 'builder' | 'pool' | 'seenHashes' | 'seenIds'>,
): { file: Partial<FileResult>; hash: string } | undefined {
  const id = slugify(path.basename(pdf));
  if (ctx.seenIds.has(id)) return undefined;
  const prev = [...previous.values()].find((d) => d.id === id);
  if (!prev || ctx.seenHashes.has(prev.sha256)) return undefined;
  const sidecar = JSON.parse(prev.sidecar_json) as DocumentSource['sidecar'];
  const source: DocumentSource = {
    id,
    fileName: prev.file_name,
    sha256: prev.sha256,
    sidecar,
    sidecarSource: prev.sidecar_source,
    extractorVersion: prev.extractor_version,
  };
  const warnings = JSON.parse(prev.warnings_json) as string[];
  ctx.builder.reuseDocument(source, prev.id, ctx.pool && prev.has_snapshots ? 'copy' : 'none', warnings);
  ctx.builder.copyPreviousCorrections(id, prev.id);
  ctx.seenHashes.set(prev.sha256, pdf);
  ctx.seenIds.set(id, pdf);
  return {
    file: { kept_previous: true, document_id: id, ...ctx.builder.counts(id) },
    hash: sha(`${prev.sha256}:${JSON.stringify(sidecar)}`),
  };
}

/** Documents of the bundle already at the target, by PDF hash, when it is a readable bundle of this format. */
function readPrevious(bundle: string): Map<string, PreviousDocument> | undefined {
  if (!fs.existsSync(bundle)) return undefined;
  try {
    const db = new Database(bundle, { readonly: true, fileMustExist: true });
    try {
      const version = db.prepare('SELECT value FROM meta WHERE key = ?').get(META.formatVersion) as
        | { value: string }
        | undefined;
      if (Number(version?.value) !== FORMAT_VERSION) return undefined;
      const rows = db
        .prepare(
          'SELECT id, sha256, has_snapshots, extractor_version, file_name, sidecar_json, sidecar_source, warnings_json FROM documents',
        )
        .all() as PreviousDocument[];
      return new Map(rows.map((r) => [r.sha256, r]));
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
}

/** Temp files of runs that were killed (kill -9 cannot clean up after itself). */
function removeStaleTempFiles(bundle: string): void {
  const dir = path.dirname(path.resolve(bundle));
  const base = path.basename(bundle);
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir)) {
    const m = new RegExp(`^${escapeRegExp(base)}\\.(\\d+)\\.[0-9a-f]{8}\\.tmp$`).exec(entry);
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid !== process.pid && !processAlive(pid)) fs.rmSync(path.join(dir, entry), { force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Identifies a corpus build: what went in, with which extractor, bundle format and snapshot choice. */
export function corpusHash(parts: string[], snapshots: boolean): string {
  return sha(
    [...parts].sort().join('\n') +
      `\nextractor:${EXTRACTOR_VERSION}\nformat:${FORMAT_VERSION}\nsnapshots:${snapshots}`,
  );
}

function sha(text: string): string {
  return crypto.createHash('sha256').update(text).digest('hex');
}

function failure(file: string, sidecar: string | null | undefined, problems: FieldProblem[]): FileResult {
  return {
    file,
    sidecar: sidecar ?? null,
    status: 'failed',
    document_id: null,
    pages: 0,
    chunks: 0,
    error_codes: 0,
    problems,
    kept_previous: false,
    warnings: [],
    ms: 0,
  };
}

function elapsed(t0: number): number {
  return Math.round(performance.now() - t0);
}

function report(
  bundle: string,
  written: boolean,
  reason: string | null,
  files: FileResult[],
  dropped: string[],
  started: number,
): IngestReport {
  const ok = files.filter((f) => f.status !== 'failed' || f.kept_previous);
  return {
    bundle,
    written,
    reason,
    files,
    dropped,
    totals: {
      files: files.length,
      ingested: files.filter((f) => f.status === 'ingested').length,
      reused: files.filter((f) => f.status === 'reused').length,
      failed: files.filter((f) => f.status === 'failed').length,
      kept_previous: files.filter((f) => f.kept_previous).length,
      pages: ok.reduce((n, f) => n + f.pages, 0),
      error_codes: ok.reduce((n, f) => n + f.error_codes, 0),
    },
    ms: elapsed(started),
  };
}
