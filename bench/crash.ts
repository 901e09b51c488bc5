/**
 * Crash test: `kill -9` of a `heatsource serve` process under write load, several times, then checks that
 * every write the server acknowledged is in the state database, that the database is intact, and that a
 * retry of each request in flight at the kill is served at once by the restarted server (not refused as
 * `idempotency_key_in_use`).
 *
 *   npm run build && node dist/bench/crash.js [--rounds 10] [--concurrency 16] [--bundle FILE] [--json]
 *
 * Each round starts the server on the same state file, sends billable diagnostics (each with its own
 * Idempotency-Key, so each acknowledged one is a charge and a stored response) and session creations
 * for a random 0.5 to 2 s, kills the server with SIGKILL while requests are in flight, restarts it, and
 * retries the requests that had no answer. Bounded: `rounds` rounds of at most 2 s of load each.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { seededRandom as seeded } from '../pipeline/demo/seeded-random.js';
import { BundleReader } from '../src/bundle/reader.js';
import { corpusView } from '../src/engine/corpus.js';
import { exampleDiagnostic } from '../src/engine/examples.js';
import { projectPath } from '../src/project-path.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';
import { startReplica } from './cluster.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    json: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const concurrency = Number(values.concurrency);

interface Write {
  kind: 'diagnostic' | 'session';
  key: string;
  body: unknown;
}

async function send(url: string, authorization: string, w: Write): Promise<{ status: number; id?: string }> {
  const res = await fetch(`${url}${w.kind === 'diagnostic' ? '/v1/diagnostic' : '/v2/diagnostic-sessions'}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json', 'idempotency-key': w.key },
    body: JSON.stringify(w.body),
  });
  const body = (await res.json()) as { id?: string };
  return { status: res.status, id: body.id };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-crash-'));
  const stateFile = path.join(dir, 'state.sqlite');
  const store = new SqliteStateStore(stateFile);
  const account = await store.createAccount({
    name: 'crash',
    quota_limit: null,
    rate_limit_per_minute: null,
  });
  const { secret } = await store.createKey(account.id, 'test');
  await store.close();
  const authorization = `Bearer ${secret}`;
  const reader = new BundleReader(values.bundle);
  const example = exampleDiagnostic(corpusView(reader));
  reader.close();
  if (!example) throw new Error('the bundle has no error code to diagnose');
  const random = seeded(16);

  const acknowledged: (Write & { sessionId?: string })[] = [];
  const retries = new Map<number, number>();
  let inFlightAtKill = 0;
  let n = 0;
  for (let round = 0; round < rounds; round++) {
    const server = await startReplica(values.bundle, stateFile);
    const killAt = Date.now() + 500 + random() * 1500;
    const pending = new Set<Write>();
    let killed = false;
    const worker = async () => {
      while (!killed) {
        const kind = random() < 0.8 ? 'diagnostic' : 'session';
        const w: Write = {
          kind,
          key: `crash-${round}-${n++}`,
          body: kind === 'diagnostic' ? example : { ...example, equipment: 'air_water' },
        };
        pending.add(w);
        try {
          const r = await send(server.url, authorization, w);
          if (r.status === 200 || r.status === 201) acknowledged.push({ ...w, sessionId: r.id });
          pending.delete(w);
        } catch {
          // No answer: the server died with the request in flight; retried below.
        }
      }
    };
    const workers = Array.from({ length: concurrency }, worker);
    await new Promise((r) => setTimeout(r, killAt - Date.now()));
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    killed = true;
    await exited;
    await Promise.all(workers);
    inFlightAtKill += pending.size;

    const again = await startReplica(values.bundle, stateFile);
    for (const w of pending) {
      const r = await send(again.url, authorization, w).catch(() => ({ status: 0, id: undefined }));
      retries.set(r.status, (retries.get(r.status) ?? 0) + 1);
      if (r.status === 200 || r.status === 201) acknowledged.push({ ...w, sessionId: r.id });
    }
    const stopped = new Promise((r) => again.child.once('exit', r));
    again.child.kill('SIGTERM');
    await stopped;
  }

  const db = new Database(stateFile, { readonly: true });
  const integrity = (db.prepare('PRAGMA integrity_check').get() as { integrity_check: string })
    .integrity_check;
  const done = db.prepare("SELECT state FROM idempotency_records WHERE key = ? AND state = 'done'");
  const charges = db.prepare('SELECT count(*) AS n FROM usage_ledger WHERE idempotency_key = ?');
  const session = db.prepare('SELECT id FROM diagnostic_sessions WHERE id = ?');
  let missingResponses = 0;
  let wrongCharges = 0;
  let missingSessions = 0;
  for (const w of acknowledged) {
    if (!done.get(w.key)) missingResponses++;
    if ((charges.get(w.key) as { n: number }).n !== 1) wrongCharges++;
    if (w.kind === 'session' && (!w.sessionId || !session.get(w.sessionId))) missingSessions++;
  }
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });

  const result = {
    machine: machineLine(),
    rounds,
    concurrency,
    acknowledged: acknowledged.length,
    sessions: acknowledged.filter((w) => w.kind === 'session').length,
    inFlightAtKill,
    retries: Object.fromEntries([...retries].sort((a, b) => a[0] - b[0])),
    missingResponses,
    chargesNotExactlyOne: wrongCharges,
    missingSessions,
    integrity,
  };
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    console.log(`${result.machine}; ${rounds} kill -9 rounds, ${concurrency} concurrent writers`);
    console.log(
      `acknowledged writes ${result.acknowledged} (${result.sessions} sessions); missing responses ${missingResponses}, charges not exactly one ${wrongCharges}, missing sessions ${missingSessions}; integrity_check ${integrity}`,
    );
    console.log(
      `in flight at the kill ${inFlightAtKill}; their retries after restart by status ${JSON.stringify(result.retries)}`,
    );
  }
  if (missingResponses + wrongCharges + missingSessions > 0 || integrity !== 'ok' || retries.has(409)) {
    process.exitCode = 1;
  }
}

await main();
