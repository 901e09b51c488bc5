// Bytes stored per guided session: the same session starts (and one answer each) through
// `Services.invoke` into two fresh SQLite states, one storing every session's full model as before
// schema version 7 (the writes carry no model label) and one sharing a stored model per knowledge
// version with a delta per session. Reports the row bytes (model + state text, bases included) and the
// file growth per session, after a checkpoint.
//
//   npm run bench:session-storage -- [--sessions 120] [--bundle data/demo.bundle]
//
// The starts cycle through every (model, code) pair of the bundle's manuals, and a session without a
// code per model, so that the models differ as they do in use.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDemoBundle } from '../pipeline/ingest/demo.js';
import { BundleReader } from '../src/bundle/reader.js';
import type { CreateSessionRequest, Session } from '../src/contract/sessions.js';
import type { ServiceContext } from '../src/engine/context.js';
import { Services } from '../src/engine/services.js';
import { projectPath } from '../src/project-path.js';
import { localAccount } from '../src/state/local-key.js';
import { SqliteStateStore } from '../src/state/sqlite-store.js';
import type { StateStore } from '../src/state/types.js';
import { machineLine } from './machine.js';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '120' },
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
  },
});
const count = Math.max(1, Math.min(5000, Number(values.sessions)));

/** Every model of the bundle with each code its brand's manuals print, and once with a symptom only. */
function startRequests(reader: BundleReader): CreateSessionRequest[] {
  const codes = reader.exampleCodes(10_000);
  const out: CreateSessionRequest[] = [];
  for (const m of reader.models()) {
    if (m.equipment !== 'air_water') continue;
    out.push({ brand: m.brand, model: m.name, symptom: 'low flow, the unit stops after a few minutes' });
    for (const c of codes.filter((x) => x.brand === m.brand)) {
      out.push({ brand: m.brand, model: m.name, error_code: c.code });
    }
  }
  return out;
}

/** The store as it wrote sessions before: every session's model stored in full. */
function fullCopies(state: StateStore): StateStore {
  return new Proxy(state, {
    get(target, prop, receiver) {
      if (prop === 'complete') {
        return (input: Parameters<StateStore['complete']>[0]) => {
          if (!input.session) return target.complete(input);
          const { model_label: _label, ...session } = input.session;
          return target.complete({ ...input, session });
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function run(bundle: string, mode: 'full' | 'shared') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-session-storage-'));
  const file = path.join(dir, 'state.sqlite');
  const store = new SqliteStateStore(file);
  const reader = new BundleReader(bundle);
  try {
    const account = await localAccount(store);
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const emptyBytes = fs.statSync(file).size;
    const services = new Services(reader, mode === 'full' ? fullCopies(store) : store);
    const ctx = (): ServiceContext => ({
      account,
      key: null,
      requestId: crypto.randomUUID(),
      idempotencyKey: null,
    });
    const requests = startRequests(reader);
    if (requests.length === 0) throw new Error('the bundle has no Air/Water model to start a session on');
    const started = performance.now();
    let refused = 0;
    for (let i = 0; i < count; i++) {
      const result = await services.invoke(ctx(), 'start_diagnostic_session', requests[i % requests.length]);
      if (result.status >= 300) {
        refused++;
        continue;
      }
      const s = result.body as Session;
      if (s.next_action) {
        await services.invoke(ctx(), 'respond_to_diagnostic_session', {
          session_id: s.id,
          action_id: s.next_action.id,
          unknown: true,
        });
      }
    }
    const ms = performance.now() - started;
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const rows = store.db
      .prepare(
        'SELECT count(*) AS n, coalesce(sum(length(model)), 0) AS model, coalesce(sum(length(state)), 0) AS state FROM diagnostic_sessions',
      )
      .get() as { n: number; model: number; state: number };
    const bases = store.db
      .prepare('SELECT count(*) AS n, coalesce(sum(length(model)), 0) AS bytes FROM session_model_bases')
      .get() as { n: number; bytes: number };
    const fileBytes = fs.statSync(file).size - emptyBytes;
    // Every session reads back: the model as the engine wrote it.
    const sample = store.db.prepare('SELECT id FROM diagnostic_sessions LIMIT 5').all() as { id: string }[];
    for (const { id } of sample) JSON.parse((await store.session(id))!.model);
    return { mode, sessions: rows.n, refused, ms, ...rowsPer(rows, bases), fileBytes, bases: bases.n };
  } finally {
    await store.close();
    reader.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function rowsPer(rows: { n: number; model: number; state: number }, bases: { bytes: number }) {
  return {
    modelPer: rows.model / rows.n,
    statePer: rows.state / rows.n,
    basesBytes: bases.bytes,
    rowBytesPer: (rows.model + rows.state + bases.bytes) / rows.n,
  };
}

async function main(): Promise<void> {
  const bundle = path.resolve(values.bundle);
  if (bundle === path.resolve(projectPath('data', 'demo.bundle'))) await ensureDemoBundle({ jobs: 1 });
  if (!fs.existsSync(bundle)) throw new Error(`bundle not found: ${bundle}`);
  const full = await run(bundle, 'full');
  const shared = await run(bundle, 'shared');
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines = [
    `${machineLine()}; ${count} session starts with one answer each, bundle ${path.basename(bundle)}.`,
    '',
    '| stored | model per session | state per session | bases | row bytes per session | file growth per session | time per start+answer |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...[full, shared].map(
      (r) =>
        `| ${r.mode === 'full' ? 'full model per session (before)' : 'one model per knowledge version + delta'} | ${kb(r.modelPer)} | ${kb(r.statePer)} | ${r.bases} (${kb(r.basesBytes)}) | ${kb(r.rowBytesPer)} | ${kb(r.fileBytes / r.sessions)} | ${(r.ms / count).toFixed(1)} ms |`,
    ),
    '',
    `Ratio (row bytes, before / after): ${(full.rowBytesPer / shared.rowBytesPer).toFixed(1)}x; file growth ${(full.fileBytes / Math.max(1, shared.fileBytes)).toFixed(1)}x.` +
      (full.refused + shared.refused > 0 ? ` Refused starts: ${full.refused} / ${shared.refused}.` : ''),
  ];
  console.log(lines.join('\n'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
