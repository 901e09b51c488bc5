import fs from 'node:fs';

/**
 * How often, at most, a serving reader stats its bundle file to tell a write in place (default): a stat
 * on every request cost about a tenth of a cached diagnostic's CPU. Between two stats, a watch on the file
 * (inotify on Linux) marks it changed as soon as it is written, and the next request stats it; the
 * interval is the bound where no watch is to be had (a network file system, the watch limit reached).
 */
export const INTACT_CHECK_EVERY_MS = 1000;

/**
 * Tells whether a bundle file was written to in place since it was opened: the same file (device and
 * inode) with another size or modification time. A bundle published by rename is another inode, which
 * the open reader does not see and need not: it keeps reading the file it opened. Once a write in place
 * is seen, every later check fails without looking again (the reader must be replaced).
 */
export class IntactCheck {
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** Set by the watch when the file is written to (or renamed, or removed): the next check stats it. */
  private changed = false;
  private watcher: fs.FSWatcher | undefined;
  private watching = false;
  private damaged = false;

  constructor(
    private readonly file: string,
    private readonly opened: fs.Stats,
    /** At most one stat per this many milliseconds, unless the watch saw a change; 0: a stat every check. */
    private readonly everyMs: number = INTACT_CHECK_EVERY_MS,
  ) {}

  /** Whether the file is unchanged; `exact` stats it whatever the interval (a readiness check). */
  intact(exact = false): boolean {
    if (this.damaged) return false;
    const now = performance.now();
    if (!exact && !this.changed && now - this.checkedAt < this.everyMs) return true;
    this.watch();
    this.changed = false;
    this.checkedAt = now;
    const stat = fs.statSync(this.file, { throwIfNoEntry: false });
    this.damaged = Boolean(
      stat &&
        stat.ino === this.opened.ino &&
        stat.dev === this.opened.dev &&
        (stat.size !== this.opened.size || stat.mtimeMs !== this.opened.mtimeMs),
    );
    return !this.damaged;
  }

  /** Stops watching the file (the reader is closed). */
  close(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  /**
   * Starts the watch on the first check, so that only a reader that serves (and checks) holds one. It does
   * not keep the process alive; where it cannot be had, the interval alone bounds how late a write is seen.
   */
  private watch(): void {
    if (this.watching || this.everyMs === 0) return;
    this.watching = true;
    try {
      this.watcher = fs.watch(this.file, { persistent: false }, () => {
        this.changed = true;
      });
      this.watcher.on('error', () => {
        this.changed = true;
        this.close();
      });
    } catch {
      this.watcher = undefined;
    }
  }
}
