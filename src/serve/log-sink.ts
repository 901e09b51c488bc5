import fs from 'node:fs';
import net from 'node:net';
import type { Writable } from 'node:stream';

/** Bytes of log lines held while the reader is slow; past it, lines are dropped and counted. */
const MAX_BUFFERED = 8 * 1024 * 1024;

/**
 * Where the server's JSON log lines go (stdout by default), written so that the log collector can never
 * hold the server: writes never block, memory held for a slow reader is bounded (lines past it are
 * dropped and counted), a reader that went away (EPIPE) ends logging, and nothing runs at process exit.
 * Pino's own destination flushes synchronously at exit, which never returns when the pipe's reader
 * stopped reading: a server could then not stop.
 */
export class LogSink {
  /** Lines dropped because the reader did not keep up, or was gone. */
  dropped = 0;
  private readonly stream: Writable;
  private broken = false;

  constructor(
    fd = 1,
    private readonly maxBuffered = MAX_BUFFERED,
    /** Rewrites each line before it is written (readable lines on a terminal); none: as pino wrote it. */
    private readonly format?: (line: string) => string,
  ) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.fstatSync(fd);
    } catch {
      // No such descriptor (stdout closed at start): every line is dropped.
      this.broken = true;
    }
    // A pipe or socket opened as a stream of our own is non-blocking; files and terminals do not stall.
    this.stream =
      stat && (stat.isFIFO() || stat.isSocket())
        ? new net.Socket({ fd, readable: false, writable: true })
        : fs.createWriteStream('/dev/null', stat ? { fd, autoClose: false } : {});
    this.stream.on('error', () => {
      this.broken = true;
    });
    if (this.stream instanceof net.Socket) this.stream.unref();
  }

  /** Pino calls this with one serialised line. */
  write(line: string): boolean {
    if (this.broken || this.stream.writableLength > this.maxBuffered) {
      this.dropped++;
      return true;
    }
    this.stream.write(this.format ? this.format(line) : line);
    return true;
  }

  /** Resolves once every line is written, or after `ms`, whichever comes first. */
  flush(ms: number): Promise<void> {
    if (this.broken || this.stream.writableLength === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      this.stream.once('drain', done);
      this.stream.once('error', done);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}
