import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '../src/serve/server.js';
import type { SurfaceOptions } from '../src/serve/surfaces.js';

export interface BenchServer {
  url: string;
  /** What `serve` printed for the person starting it (the local test key, the invitation link). */
  notices: string[];
  /** The local account's test key `serve` created on the fresh state. */
  key: string;
  close(): Promise<void>;
}

/**
 * `serve` in this process over `bundle`, as a person starts it: keys on, a fresh file-backed state in a
 * temporary folder (removed by close()), a free loopback port, silent logs, and the given surfaces.
 */
export async function startBenchServer(bundle: string, surfaces: SurfaceOptions): Promise<BenchServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-server-'));
  const notices: string[] = [];
  let server: RunningServer;
  try {
    server = await startServer(
      {
        bundle,
        state: path.join(dir, 'state.sqlite'),
        host: '127.0.0.1',
        port: 0,
        auth: true,
        logLevel: 'silent',
        surfaces,
      },
      (line) => notices.push(line.trim()),
    );
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const key = notices.join('\n').match(/ak_(?:test|live)_[A-Za-z0-9_-]+/)?.[0];
  if (!key) throw new Error(`serve printed no key:\n${notices.join('\n')}`);
  return {
    url: server.url,
    notices,
    key,
    close: async () => {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
