import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectPath } from '../src/project-path.js';

/**
 * Replicas of `heatsource serve` (the built binary) behind nginx configured as docs/DEPLOY.md says: what
 * the replica tests and the replica benchmark start.
 */

/** nginx from the system (Debian's package, installed by .ci/run), or null with the reason. */
export function findNginx(): { bin: string } | { missing: string } {
  for (const bin of ['/usr/sbin/nginx', 'nginx']) {
    const r = spawnSync(bin, ['-v'], { encoding: 'utf8' });
    if (r.status === 0) return { bin };
  }
  return { missing: 'nginx is not installed (apt-get install nginx; .ci/run installs it)' };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, what: string, child?: ChildProcess, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) throw new Error(`${what} exited`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready at ${url}: ${last}`);
}

/** The nginx block of docs/DEPLOY.md, the one the deployment guide tells operators to install. */
export function deployNginxBlock(): string {
  const doc = fs.readFileSync(projectPath('docs', 'DEPLOY.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/DEPLOY.md has no nginx block');
  return block;
}

export interface Replica {
  port: number;
  url: string;
  child: ChildProcess;
  stderr: () => string;
}

export interface Cluster {
  front: string;
  replicas: Replica[];
  stop(): Promise<void>;
}

/** Starts `heatsource serve` on a free loopback port over the given bundle and state. */
export async function startReplica(bundle: string, state: string): Promise<Replica> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      projectPath('bin', 'run.js'),
      'serve',
      '--bundle',
      bundle,
      '--state',
      state,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      'warn',
    ],
    { cwd: projectPath(), env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/readyz`, `replica on ${port}`, child);
  } catch (e) {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}\n${err}`);
  }
  return { port, url, child, stderr: () => err };
}

/**
 * Three replicas on loopback sharing one state, behind nginx configured with DEPLOY.md's block: its
 * ports replaced by free ones, wrapped in the few main-context lines a non-system nginx needs.
 */
export async function startCluster(
  nginx: string,
  bundle: string,
  state: string,
  count = 3,
): Promise<Cluster> {
  const replicas = await Promise.all(Array.from({ length: count }, () => startReplica(bundle, state)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-nginx-'));
  const front = await freePort();
  let n = 0;
  // DEPLOY.md's upstream lists three replicas; with fewer, the lines past them are left out.
  let site = deployNginxBlock()
    .replace(/listen 8080;/, `listen 127.0.0.1:${front};`)
    .replace(/\n\s*server 127\.0\.0\.1:808[1-9][^\n]*/g, (m) => {
      const r = replicas[n++];
      return r ? m.replace(/127\.0\.0\.1:808[1-9]/, `127.0.0.1:${r.port}`) : '';
    });
  if (n < count) throw new Error(`DEPLOY.md's upstream lists ${n} replicas, fewer than ${count}`);
  site = site.trim();
  fs.writeFileSync(path.join(dir, 'heatsource.conf'), `${site}\n`);
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
      `  include ${dir}/heatsource.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const proxy = spawn(nginx, ['-p', dir, '-e', `${dir}/error.log`, '-c', `${dir}/nginx.conf`], {
    stdio: 'ignore',
  });
  const stopAll = async () => {
    proxy.kill('SIGQUIT');
    for (const r of replicas)
      if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
    if (proxy.exitCode === null) proxy.kill('SIGKILL');
  };
  try {
    await waitFor(`http://127.0.0.1:${front}/nginx-health`, 'nginx', proxy, 15_000);
  } catch (e) {
    await stopAll();
    const log = fs.existsSync(`${dir}/error.log`) ? fs.readFileSync(`${dir}/error.log`, 'utf8') : '';
    throw new Error(`${(e as Error).message}\n${log}`);
  }
  return { front: `http://127.0.0.1:${front}`, replicas, stop: stopAll };
}
