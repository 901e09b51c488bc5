import fs from 'node:fs';

/**
 * A lock between the test files of this project, which vitest runs in parallel processes: a directory
 * that only one process can create. A lock older than `staleMs` was left by a killed run and is taken over.
 */
export interface DirLockOptions {
  staleMs: number;
  /** Give up waiting after this long. */
  waitMs: number;
}

function tryLock(lock: string, staleMs: number): boolean {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const since = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > staleMs)
      fs.rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function unlock(lock: string): void {
  fs.rmSync(lock, { recursive: true, force: true });
}

/** Runs `fn` holding the lock, blocking the thread while waiting (for synchronous set-up such as builds). */
export function withDirLockSync<T>(lock: string, options: DirLockOptions, fn: () => T): T {
  const deadline = Date.now() + options.waitMs;
  while (!tryLock(lock, options.staleMs)) {
    if (Date.now() > deadline) throw new Error(`lock ${lock} held too long`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  try {
    return fn();
  } finally {
    unlock(lock);
  }
}

/** Runs `fn` holding the lock, waiting asynchronously. */
export async function withDirLock<T>(
  lock: string,
  options: DirLockOptions,
  fn: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  while (!tryLock(lock, options.staleMs)) {
    if (Date.now() > deadline) throw new Error(`lock ${lock} held too long`);
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    return await fn();
  } finally {
    unlock(lock);
  }
}
