/**
 * Throughput of POST /v1/diagnostic (an answered lookup: one charge, one ledger row per request) with the
 * state on PostgreSQL and 1, 2 and 3 replicas behind nginx configured as docs/DEPLOY.md says, beside
 * one process on SQLite and one PostgreSQL replica without nginx. Every configuration runs the built
 * `heatsource serve`, with a key without quota or rate limit.
 *
 *   npm run bench:replicas -- [--bundle FILE] [--pg URL] [--duration S] [--connections N]
 *
 * Prints a markdown table: req/s, p50 and p99 latency, non-2xx responses.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { BundleReader } from '../src/bundle/reader.js';
import { corpusView } from '../src/engine/corpus.js';
import { exampleDiagnostic } from '../src/engine/examples.js';
import { projectPath } from '../src/project-path.js';
import { openStateStore } from '../src/state/open.js';
import { findNginx, startCluster, startReplica } from './cluster.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    pg: {
      type: 'string',
      default: process.env.HEATSOURCE_TEST_PG || 'postgres://postgres@127.0.0.1:5432/test',
    },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '24' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);

async function keyIn(state: string): Promise<string> {
  const store = await openStateStore(state);
  try {
    const account = await store.createAccount({
      name: 'bench',
      quota_limit: null,
      rate_limit_per_minute: null,
    });
    return (await store.createKey(account.id, 'test')).secret;
  } finally {
    await store.close();
  }
}

interface Row {
  setup: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function measure(setup: string, url: string, key: string, body: string): Promise<Row> {
  const r = await autocannon({
    url: `${url}/v1/diagnostic`,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
    duration,
    connections,
  });
  return {
    setup,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx + r.errors,
  };
}

/** One `serve` process on the state, measured without nginx after a warm-up run. */
async function measureDirect(setup: string, state: string, key: string, body: string): Promise<Row> {
  const replica = await startReplica(values.bundle, state);
  try {
    await measure('warm-up', replica.url, key, body);
    return await measure(setup, replica.url, key, body);
  } finally {
    replica.child.kill('SIGTERM');
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(values.bundle))
    throw new Error(`bundle not found: ${values.bundle} (heatsource demo builds it)`);
  const nginx = findNginx();
  if (!('bin' in nginx)) throw new Error(nginx.missing);
  const reader = new BundleReader(values.bundle);
  const example = exampleDiagnostic(corpusView(reader));
  reader.close();
  if (!example) throw new Error('the bundle answers no diagnostic: nothing to measure');
  const body = JSON.stringify(example);
  const rows: Row[] = [];

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-bench-replicas-'));
  const sqlite = path.join(dir, 'state.sqlite');
  const sqliteKey = await keyIn(sqlite);
  rows.push(await measureDirect('SQLite, 1 process, direct', sqlite, sqliteKey, body));

  const schema = `hs_bench_${process.pid}`;
  const u = new URL(values.pg);
  u.searchParams.set('schema', schema);
  const state = u.toString();
  const pgKey = await keyIn(state);
  try {
    rows.push(await measureDirect('PostgreSQL, 1 replica, direct', state, pgKey, body));
    for (const count of [1, 2, 3]) {
      const cluster = await startCluster(nginx.bin, values.bundle, state, count);
      try {
        await measure('warm-up', cluster.front, pgKey, body);
        rows.push(
          await measure(
            `PostgreSQL, ${count} replica${count > 1 ? 's' : ''}, nginx`,
            cluster.front,
            pgKey,
            body,
          ),
        );
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    const client = new pg.Client({ connectionString: values.pg });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }

  console.log(
    `${machineLine()}; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`POST /v1/diagnostic, ${connections} connections, ${duration} s each (after a warm-up run)\n`);
  console.log('| Setup | req/s | p50 ms | p99 ms | non-2xx |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const r of rows) console.log(`| ${r.setup} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} |`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
