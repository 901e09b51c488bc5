import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingest } from '../../pipeline/ingest/run.js';
import type { Citation } from '../../src/contract/common.js';
import type { DiagnosticResponse } from '../../src/contract/diagnostic.js';
import type { StrictDiagnosticResponse } from '../../src/contract/models.js';
import { servedExcerptStands } from '../helpers/excerpts.js';
import { ROOT } from './build.js';
import { type TestApi, testApi } from './fixture.js';

/**
 * The API over the real corpus: every answer key queried through v1 and v2 must come back without a
 * phantom citation, and no hvac-bench lookup case whose expected state is not `answer` may be answered.
 */
const shared = path.resolve(ROOT, '..', 'shared');
const corpus = path.join(shared, 'corpus');
const answersDir = path.join(shared, 'eval', 'answers');
const lookupDir = path.join(shared, 'hvac-bench', 'lookup');
const available = fs.existsSync(corpus) && fs.existsSync(answersDir);
if (!available) console.warn(`real-corpus API suite skipped: ${corpus} or ${answersDir} not found`);

interface AnswerKey {
  id: string;
  document: string;
  brand?: string;
  model?: string;
  code?: string;
  pages: number[];
  expected_state: string;
}

function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

let api: TestApi;
let authorization: string;

beforeAll(async () => {
  if (!available) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'heatsource-real-'));
  const bundle = path.join(dir, 'real.bundle');
  const report = await ingest({ paths: [corpus], bundle, jobs: 1, snapshots: false, strict: false });
  expect(report.written, report.reason ?? '').toBe(true);
  api = await testApi(bundle);
  authorization = (await api.key('eval')).authorization;
}, 300_000);
afterAll(async () => {
  if (api) await api.close();
});

function checkCitation(c: Citation, where: string): void {
  const doc = api.reader.document(c.document_id);
  expect(doc, `${where}: cited document ${c.document_id}`).toBeDefined();
  expect(c.page, `${where}: page`).toBeGreaterThanOrEqual(1);
  expect(c.page_end, `${where}: page_end ${c.page_end} of ${doc!.page_count}`).toBeLessThanOrEqual(
    doc!.page_count,
  );
  expect(c.page_end).toBeGreaterThanOrEqual(c.page);
  expect(api.reader.page(c.document_id, c.page), `${where}: page ${c.page} in the bundle`).toBeDefined();
}

function checkDiagnostic(d: DiagnosticResponse, where: string): void {
  for (const c of [d.citation, d.procedure, ...d.alternatives.map((a) => a.citation)])
    if (c) checkCitation(c, where);
  if (d.state !== 'answer') {
    expect(d.excerpt, `${where}: excerpt outside an answer`).toBeNull();
    return;
  }
  expect(d.excerpt && d.citation, `${where}: answer without excerpt or citation`).toBeTruthy();
  expect(d.excerpt!.document_id).toBe(d.citation!.document_id);
  expect(d.excerpt!.page).toBe(d.citation!.page);
  expect(
    servedExcerptStands(api.reader, d.excerpt!),
    `${where}: excerpt not on page ${d.excerpt!.page}`,
  ).toBe(true);
}

describe.skipIf(!available)('real corpus: answer keys through /v1 and /v2 diagnostic', () => {
  it('never cites a page outside its document nor an excerpt that is not on its page', async () => {
    const tally = { keys: 0, answer: 0, page_in_key: 0, negatives: 0, v2_exact: 0 };
    for (const file of fs.readdirSync(answersDir).filter((f) => f.endsWith('.jsonl'))) {
      for (const key of readJsonl<AnswerKey>(path.join(answersDir, file))) {
        if (!key.code || !key.brand) continue;
        tally.keys++;
        const payload = { brand: key.brand, model: key.model, error_code: key.code };
        const v1 = await api.request({
          method: 'POST',
          url: '/v1/diagnostic',
          headers: { authorization },
          payload,
        });
        expect(v1.statusCode, `${key.id}: ${v1.body}`).toBe(200);
        const d = v1.json() as DiagnosticResponse;
        checkDiagnostic(d, `v1 ${key.id}`);
        if (key.expected_state !== 'answer') {
          tally.negatives++;
          expect(d.state, `${key.id}: a code the manual lacks was answered`).not.toBe('answer');
        }
        if (d.state === 'answer') {
          tally.answer++;
          if (key.pages.includes(d.citation!.page)) tally.page_in_key++;
        }
        const v2 = await api.request({
          method: 'POST',
          url: '/v2/diagnostic',
          headers: { authorization },
          payload,
        });
        expect(v2.statusCode, `${key.id}: ${v2.body}`).toBe(200);
        const s = v2.json() as StrictDiagnosticResponse;
        if (s.status === 'exact_source') {
          tally.v2_exact++;
          expect(s.diagnostic).not.toBeNull();
          checkDiagnostic(s.diagnostic!, `v2 ${key.id}`);
          const sources = new Set(s.sources.map((x) => x.document_id));
          expect(s.sources.every((x) => x.approved)).toBe(true);
          if (s.diagnostic!.citation) expect(sources.has(s.diagnostic!.citation.document_id)).toBe(true);
          expect(s.billable).toBe(s.diagnostic!.state === 'answer');
        } else {
          expect(s.diagnostic, `${key.id}: ${s.status} with a diagnostic`).toBeNull();
          expect(s.billable).toBe(false);
        }
      }
    }
    console.info(`real corpus through the API: ${JSON.stringify(tally)}`);
    expect(tally.keys).toBeGreaterThan(100);
  }, 300_000);
});

interface BenchCase {
  id: string;
  prompt: { brand_hint: string | null; model_hint: string | null; error_code_hint: string | null };
  ground_truth: { expected_state: string };
}

const lookupFiles = fs.existsSync(lookupDir)
  ? fs.readdirSync(lookupDir).filter((f) => f.endsWith('.jsonl'))
  : [];
if (available && lookupFiles.length === 0)
  console.warn(`hvac-bench lookup cases skipped: none in ${lookupDir}`);

describe.skipIf(!available || lookupFiles.length === 0)('hvac-bench lookup cases as diagnostics', () => {
  it('answers no case whose expected state is not answer', async () => {
    const tally: Record<string, number> = {};
    for (const file of lookupFiles) {
      for (const c of readJsonl<BenchCase>(path.join(lookupDir, file))) {
        const p = c.prompt;
        const payload: Record<string, string> = {};
        if (p.brand_hint) payload.brand = p.brand_hint;
        if (p.model_hint) payload.model = p.model_hint;
        if (p.error_code_hint) payload.error_code = p.error_code_hint;
        const res = await api.request({
          method: 'POST',
          url: '/v1/diagnostic',
          headers: { authorization },
          payload,
        });
        const state =
          res.statusCode === 200 ? (res.json() as DiagnosticResponse).state : `http_${res.statusCode}`;
        if (res.statusCode === 200) checkDiagnostic(res.json() as DiagnosticResponse, c.id);
        else expect(res.statusCode, `${c.id}: ${res.body}`).toBe(400);
        // Only a case without a brand or a code may be refused as invalid: the others must be answered.
        if (p.brand_hint && p.error_code_hint) expect(res.statusCode, `${c.id}: ${res.body}`).toBe(200);
        const k = `${c.ground_truth.expected_state}->${state}`;
        tally[k] = (tally[k] ?? 0) + 1;
        if (c.ground_truth.expected_state !== 'answer') {
          expect(
            state,
            `${c.id} (${JSON.stringify(payload)}) expected ${c.ground_truth.expected_state}`,
          ).not.toBe('answer');
        }
      }
    }
    console.info(`hvac-bench lookup through the API: ${JSON.stringify(tally)}`);
  }, 120_000);
});
