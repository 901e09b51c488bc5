/**
 * What the server keeps of the offline packs it cuts: a real `heatsource serve` process is asked for
 * offline packs of distinct selections (each model of the bundle alone, then pairs of models whose
 * manuals differ, in a fixed order), one request at a time, then the first selections again. The
 * server's resident memory is read from /proc after each request.
 *
 *   npm run build && node dist/bench/pack-cache.js [--bundle FILE] [--selections 40] [--repeat 5] [--json]
 *     [--env NAME=VALUE ...]
 *
 * A pack depends only on the bundle and the documents a selection names; the server cuts it from the
 * bundle (hundreds of milliseconds) and keeps the bytes in a cache bounded in size. Every distinct set
 * of documents is another pack, so a client naming many selections fills that cache: the peak RSS above
 * the server's start and the sum of the distinct packs' bytes say how much of it stays resident.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BundleReader } from '../src/bundle/reader.js';
import { projectPath } from '../src/project-path.js';
import { machineLine } from './machine.js';
import { rssMb, startServeProcess } from './serve-process.js';

const { values } = parseArgs({
  options: {
    bundle: { type: 'string', default: projectPath('data', 'demo.bundle') },
    selections: { type: 'string', default: '40' },
    repeat: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    env: { type: 'string', multiple: true, default: [] },
  },
});

/** Model names whose manuals differ, in a fixed order: each alone, then pairs, up to `limit`. */
function selections(bundle: string, limit: number): string[][] {
  const reader = new BundleReader(bundle);
  const rows = reader.db
    .prepare(
      `SELECT m.brand AS brand, m.name AS model, group_concat(dm.document_id) AS docs
       FROM models m JOIN document_models dm ON dm.model_id = m.id
       GROUP BY m.id ORDER BY m.brand, m.name`,
    )
    .all() as { brand: string; model: string; docs: string }[];
  reader.close();
  // One model per set of documents: two models in the same manuals make the same pack.
  const byDocs = new Map<string, { brand: string; model: string }>();
  for (const r of rows) {
    const key = r.docs.split(',').sort().join(',');
    if (!byDocs.has(key)) byDocs.set(key, r);
  }
  const models = [...byDocs.values()];
  const out: string[][] = models.map((m) => [m.model]);
  for (let i = 0; i < models.length && out.length < limit; i++) {
    for (let j = i + 1; j < models.length && out.length < limit; j++) {
      // A pair across brands needs no brand; within one brand the names are that brand's.
      out.push([models[i]!.model, models[j]!.model]);
    }
  }
  return out.slice(0, limit);
}

interface Step {
  models: string[];
  status: number;
  bytes: number;
  etag: string | null;
  ms: number;
  rssMb: number;
}

async function main(): Promise<void> {
  const limit = Number(values.selections);
  const repeat = Number(values.repeat);
  const { server, base, authorization, stop } = await startServeProcess(
    values.bundle,
    'pack-cache',
    values.env,
  );
  try {
    const ask = async (models: string[]): Promise<Step> => {
      const t0 = performance.now();
      const res = await fetch(`${base}/v1/offline-pack?models=${encodeURIComponent(models.join(','))}`, {
        headers: { authorization },
      });
      const body = Buffer.from(await res.arrayBuffer());
      return {
        models,
        status: res.status,
        bytes: body.length,
        etag: res.headers.get('etag'),
        ms: performance.now() - t0,
        rssMb: rssMb(server.pid!),
      };
    };
    // The server's memory once it has answered one light request, before any pack.
    await fetch(`${base}/healthz`);
    const startRss = rssMb(server.pid!);
    const list = selections(values.bundle, limit);
    const first: Step[] = [];
    for (const models of list) first.push(await ask(models));
    const again: Step[] = [];
    for (const models of list.slice(0, repeat)) again.push(await ask(models));
    const ok = first.filter((s) => s.status === 200);
    const distinct = new Map(ok.map((s) => [s.etag, s.bytes]));
    const packMb = [...distinct.values()].reduce((a, b) => a + b, 0) / 2 ** 20;
    const peak = Math.max(...[...first, ...again].map((s) => s.rssMb));
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!;
    };
    const report = {
      machine: machineLine(),
      bundle: path.basename(values.bundle),
      env: values.env,
      requests: first.length + again.length,
      refused: first.filter((s) => s.status !== 200).length,
      distinct_packs: distinct.size,
      distinct_pack_mb: Number(packMb.toFixed(1)),
      start_rss_mb: Number(startRss.toFixed(1)),
      peak_rss_mb: Number(peak.toFixed(1)),
      rss_after_first_pass_mb: Number(first[first.length - 1]!.rssMb.toFixed(1)),
      first_ask_median_ms: Number(median(ok.map((s) => s.ms)).toFixed(1)),
      repeat_median_ms: Number(median(again.map((s) => s.ms)).toFixed(1)),
    };
    if (values.json) console.log(JSON.stringify(report));
    else {
      console.log(
        `${report.machine}; bundle ${report.bundle}${values.env.length ? `; ${values.env.join(' ')}` : ''}`,
      );
      console.log(
        `${report.requests} requests, ${report.distinct_packs} distinct packs (${report.distinct_pack_mb} MB in all), ${report.refused} refused`,
      );
      console.log(
        `server RSS: ${report.start_rss_mb} MB before, ${report.rss_after_first_pass_mb} MB after the first pass, peak ${report.peak_rss_mb} MB`,
      );
      console.log(
        `median time per pack: first ask ${report.first_ask_median_ms} ms, asked again (first ${repeat} selections) ${report.repeat_median_ms} ms`,
      );
    }
  } finally {
    await stop();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
