import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe } from '../helpers/serve.js';
import { ensureBuilt } from './build.js';
import { buildFixtureBundle } from './fixture.js';

const children: ChildProcess[] = [];
let dir: string;
let bundle: string;

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-pipes-'));
  bundle = await buildFixtureBundle();
}, 180_000);
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** `serve` with its stdout and stderr on pipes to this process, logging every request at info level. */
async function serveOnPipes(name: string): Promise<{ child: ChildProcess; url: string }> {
  const served = await startServe([
    '--no-auth',
    '--bundle',
    bundle,
    '--state',
    path.join(dir, `${name}.sqlite`),
  ]);
  children.push(served.child);
  return served;
}

/** Sends `count` requests over a few keep-alive connections; each writes a log line. */
async function load(url: string, count: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  let ok = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const req = http.get(`${url}/v1/me`, { agent, headers: { 'x-request-id': 'r'.repeat(120) } }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) ok++;
          resolve();
        });
      });
      req.on('error', () => resolve());
    });
  for (let i = 0; i < count; i += 8) await Promise.all(Array.from({ length: 8 }, one));
  agent.destroy();
  return ok;
}

function exitWithin(child: ChildProcess, ms: number): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

describe('shutdown whatever the log reader does', () => {
  it('stops on SIGTERM when the reader of its pipes stopped reading', async () => {
    const { child, url } = await serveOnPipes('stalled');
    // The reader keeps the pipes open but takes nothing more: the pipe buffers fill up.
    child.stdout!.pause();
    child.stderr!.pause();
    child.stderr!.removeAllListeners('data');
    expect(await load(url, 2000)).toBe(2000);
    child.kill('SIGTERM');
    // The drain deadline is 10 s; with nothing in flight it ends after at most a second for the logs.
    expect(await exitWithin(child, 12_000)).toBe(0);
  }, 60_000);

  it('keeps serving, then stops, when the reader of its pipes is gone', async () => {
    const { child, url } = await serveOnPipes('closed');
    child.stdout!.destroy();
    child.stderr!.destroy();
    expect(await load(url, 1000)).toBe(1000);
    child.kill('SIGTERM');
    expect(await exitWithin(child, 12_000)).toBe(0);
  }, 60_000);
});
