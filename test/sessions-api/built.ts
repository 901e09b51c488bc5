import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt } from '../api/build.js';

const LOCK = path.join(os.tmpdir(), 'heatsource-sessions-build.lock');
/** A lock older than this belongs to a run that died. */
const STALE_MS = 10 * 60_000;

/**
 * Builds dist/ when stale, one test file at a time: two files compiling at once would let one run the
 * binary while the other is still rewriting it.
 */
export async function ensureBuiltOnce(): Promise<void> {
  for (;;) {
    try {
      fs.closeSync(fs.openSync(LOCK, 'wx'));
      break;
    } catch {
      try {
        if (Date.now() - fs.statSync(LOCK).mtimeMs > STALE_MS) fs.rmSync(LOCK, { force: true });
      } catch {
        // Removed meanwhile by its owner: try again.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    ensureBuilt();
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}
