import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../api/build.js';

export interface ServeProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT, as `serve` announced it. */
  url: string;
  /** Settles with the exit code (null after a signal). */
  exit: Promise<number | null>;
}

/**
 * Starts the built `heatsource serve` on a free loopback port (stdout and stderr on pipes to this
 * process) and resolves once it announces its URL. The caller stops it.
 */
export function startServe(args: string[]): Promise<ServeProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'run.js'), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let err = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      err += d.toString();
      const m = /at (http:\/\/\S+)/.exec(err);
      if (m) {
        child.stderr!.off('data', onData);
        resolve({ child, url: m[1]!, exit });
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`serve exited: ${err}`)));
  });
}
