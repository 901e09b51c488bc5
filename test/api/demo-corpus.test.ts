import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoCorpus } from '../../pipeline/demo/generate.js';
import { ingest } from '../../pipeline/ingest/run.js';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import type { StrictDiagnosticResponse } from '../../src/contract/models.js';
import { servedExcerptStands } from '../helpers/excerpts.js';
import { ensureBuilt } from './build.js';
import { type TestApi, testApi } from './fixture.js';

/**
 * End to end from PDFs: the demo manuals are rendered to PDF, ingested with page snapshots, and every
 * code the bundle holds is asked through the API. Whatever the extraction finds, what the API serves
 * must be sourced: verbatim excerpts on existing pages whose snapshots can be fetched.
 */
let api: TestApi;
let authorization: string;

beforeAll(async () => {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-demo-'));
  await generateDemoCorpus(path.join(dir, 'manuals'));
  const bundle = path.join(dir, 'demo.bundle');
  const report = await ingest({
    paths: [path.join(dir, 'manuals')],
    bundle,
    jobs: 2,
    snapshots: true,
    strict: false,
  });
  expect(report.written, report.reason ?? '').toBe(true);
  api = await testApi(bundle);
  authorization = (await api.key('demo')).authorization;
}, 300_000);
afterAll(async () => {
  if (api) await api.close();
});

describe('demo corpus through the API', () => {
  it('answers the codes of each model from its manual, with a verbatim excerpt and a fetchable snapshot', async () => {
    const rows = api.reader.db
      .prepare(
        `SELECT DISTINCT e.brand, e.code, e.document_id, m.name AS model, d.approved
         FROM error_codes e JOIN document_models dm ON dm.document_id = e.document_id
         JOIN models m ON m.id = dm.model_id JOIN documents d ON d.id = e.document_id`,
      )
      .all() as { brand: string; code: string; document_id: string; model: string; approved: number }[];
    expect(rows.length).toBeGreaterThan(10);
    let answers = 0;
    const snapshotsChecked = new Set<string>();
    for (const r of rows) {
      const payload = { brand: r.brand, model: r.model, error_code: r.code };
      const res = await api.request({
        method: 'POST',
        url: '/v1/diagnostic',
        headers: { authorization },
        payload,
      });
      expect(res.statusCode).toBe(200);
      const d = res.json() as DiagnosticResponse;
      // The model's own manual documents the code: never unknown, never out of coverage.
      expect(['answer', 'ambiguous'], `${JSON.stringify(payload)} -> ${d.state}`).toContain(d.state);
      if (d.state !== 'answer') continue;
      answers++;
      expect(servedExcerptStands(api.reader, d.excerpt!)).toBe(true);
      const url = d.citation!.snapshot_url;
      if (!snapshotsChecked.has(url)) {
        snapshotsChecked.add(url);
        const img = await api.request({ method: 'GET', url, headers: { authorization } });
        expect(img.statusCode, url).toBe(200);
        expect(img.headers['content-type']).toBe('image/webp');
        expect(img.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
      }
      const strict = await api.request({
        method: 'POST',
        url: '/v2/diagnostic',
        headers: { authorization },
        payload,
      });
      const s = strict.json() as StrictDiagnosticResponse;
      if (r.approved) expect(s.status).toBe('exact_source');
      else expect(s.status).not.toBe('code_not_in_source');
    }
    expect(answers).toBeGreaterThan(rows.length / 2);
    expect(snapshotsChecked.size).toBeGreaterThan(0);
  }, 120_000);
});
