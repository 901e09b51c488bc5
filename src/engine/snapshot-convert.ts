import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ConvertRequest {
  id: number;
  webp: Buffer;
  /** Narrow to this width (never wider than the stored image); none: the stored width. */
  width?: number;
  format: 'webp' | 'png';
}

export type ConvertReply =
  | { id: number; data: Buffer; width: number; height: number; error?: undefined }
  | { id: number; error: string };

/**
 * The allocator settings of the converter process, which glibc reads when a process starts (so they
 * cannot be given to the server's own process once it runs). libvips decodes a whole page per conversion:
 * in the server, each thread of Node's pool that ran one kept a malloc arena at its high-water mark
 * (about 250 MB more RSS under the soak's mix). Here one thread converts, at most two arenas exist, and
 * any block of 128 KiB or more (a page's pixels) is mapped on its own and returned when freed, so the
 * process holds little more than Node itself between conversions (BENCHMARKS.md). musl ignores them.
 */
export const CONVERTER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  UV_THREADPOOL_SIZE: '1',
};

/**
 * V8 settings of the converter process. Its JavaScript only passes messages to libvips, which does the
 * work in native code, so V8's optimising compilers buy it nothing: without them (`--jitless`) the
 * process holds about 10 MB less (83-88 MB instead of 93-98 under the soak's conversions, the CPU per
 * conversion unchanged; BENCHMARKS.md, soak). WebAssembly needs a compiler; sharp's native build uses
 * none. Node 22 keeps WebAssembly exposed under `--jitless` and V8 warns of the conflict on every start
 * unless it is turned off too (`--no-expose-wasm`); Node 24 turns it off itself, without a warning, and
 * refuses that V8 flag on its command line (the process would not start), so it is passed to Node 22 only.
 */
export const CONVERTER_EXEC_ARGV: readonly string[] = converterFlags(process.versions.node);

/** The converter's V8 flags for a Node version (exported for its test, which covers both majors). */
export function converterFlags(nodeVersion: string): string[] {
  const major = Number(nodeVersion.split('.')[0]);
  return major < 24 ? ['--jitless', '--no-expose-wasm'] : ['--jitless'];
}

/** The converter stops after this long without work (it starts again on the next conversion). */
export const CONVERTER_IDLE_MS = 30_000;
/** A conversion not answered within this long stops the converter; the request fails and may be retried. */
const CONVERSION_TIMEOUT_MS = 30_000;

/**
 * The converter needs compiled JavaScript: from dist/ it sits next to this module; from the TypeScript
 * sources (vitest) it is the compiled copy under <repo>/dist, produced by `npm run build`.
 */
function childUrl(moduleUrl: string = import.meta.url): URL {
  if (!moduleUrl.endsWith('.ts')) return new URL('./snapshot-child.js', moduleUrl);
  const compiled = new URL('../../dist/src/engine/snapshot-child.js', moduleUrl);
  if (!existsSync(fileURLToPath(compiled))) {
    throw new Error(
      `snapshot converter not compiled: ${fileURLToPath(compiled)} is missing; run \`npm run build\``,
    );
  }
  return compiled;
}

/**
 * Page conversions (sharp) in a process of their own, started on the first conversion and stopped after
 * CONVERTER_IDLE_MS without one, so that libvips' native memory is neither counted in nor kept by the
 * server's process. Conversions go one at a time, in order; a converter that dies or stalls fails the
 * conversions it held, and the next one starts a new converter. (A child process and a map of waiting
 * calls: a worker pool library would add nothing for one worker.)
 */
export class SnapshotConverter {
  private child: ChildProcess | undefined;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (r: { data: Buffer; width: number; height: number }) => void; reject: (e: Error) => void }
  >();
  private idle: NodeJS.Timeout | undefined;
  private stall: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: { idleMs?: number } = {}) {}

  convert(input: Omit<ConvertRequest, 'id'>): Promise<{ data: Buffer; width: number; height: number }> {
    const run = () => this.send(input);
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => {});
    return next;
  }

  /** The converter's process id while it runs (for tests and benchmarks). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Stops the converter now; conversions waiting fail. */
  close(): void {
    const child = this.child;
    if (!child) return;
    this.stop(child, new Error('the snapshot converter was stopped'));
  }

  private send(input: Omit<ConvertRequest, 'id'>): Promise<{ data: Buffer; width: number; height: number }> {
    const child = this.start();
    const id = ++this.nextId;
    clearTimeout(this.idle);
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.stall = setTimeout(
        () => this.stop(child, new Error(`no conversion within ${CONVERSION_TIMEOUT_MS} ms`)),
        CONVERSION_TIMEOUT_MS,
      );
      child.send({ ...input, id } satisfies ConvertRequest);
    });
  }

  private start(): ChildProcess {
    if (this.child?.connected) return this.child;
    const child = fork(fileURLToPath(childUrl()), [], {
      env: { ...process.env, ...CONVERTER_ENV },
      execArgv: [...CONVERTER_EXEC_ARGV],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('message', (m: ConvertReply) => this.onReply(child, m));
    child.on('exit', (code, signal) =>
      this.stop(child, new Error(`the snapshot converter exited (${signal ?? code})`)),
    );
    child.on('error', (err) => this.stop(child, err));
    this.child = child;
    return child;
  }

  private onReply(child: ChildProcess, m: ConvertReply): void {
    clearTimeout(this.stall);
    const waiter = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (waiter) {
      if (m.error === undefined)
        waiter.resolve({
          data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength),
          width: m.width,
          height: m.height,
        });
      else waiter.reject(new Error(m.error));
    }
    if (this.waiting.size === 0 && child === this.child) {
      // Idle: the converter must not keep the server's process alive, and stops after a while.
      child.unref();
      (child.channel as { unref?: () => void } | undefined)?.unref?.();
      this.idle = setTimeout(() => this.close(), this.options.idleMs ?? CONVERTER_IDLE_MS);
      this.idle.unref();
    }
  }

  private stop(child: ChildProcess, reason: Error): void {
    if (child !== this.child) return;
    this.child = undefined;
    clearTimeout(this.idle);
    clearTimeout(this.stall);
    for (const w of this.waiting.values()) w.reject(reason);
    this.waiting.clear();
    if (child.connected) child.disconnect();
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}
