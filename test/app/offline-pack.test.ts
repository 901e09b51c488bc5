import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3InitModule, { type Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OfflineEngine } from '../../src/app/offline-engine.js';
import type { OfflineAnswer } from '../../src/app/offline-session.js';
import { openPackBytes, WasmSqlDatabase } from '../../src/app/wasm-sql.js';
import { buildFixtureBundle, coldwaveSplit, type TestApi, testApi } from '../api/fixture.js';
import { withoutIds } from '../contract/harness.js';
import { demoBundle } from '../mcp/harness.js';

const COLDWAVE = coldwaveSplit();

interface Listening {
  api: TestApi;
  base: string;
  authorization: string;
}

async function listen(bundle: string): Promise<Listening> {
  const api = await testApi(bundle);
  const { authorization } = await api.key('field');
  const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  return { api, base, authorization };
}

async function download(s: Listening, query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${s.base}/v1/offline-pack?${query}`, {
    headers: { authorization: s.authorization, ...headers },
  });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function tables(bytes: Uint8Array): Database.Database {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hs-pack-test-')), 'pack.sqlite');
  fs.writeFileSync(file, bytes);
  return new Database(file, { readonly: true });
}

describe('GET /v1/offline-pack', () => {
  let s: Listening;
  beforeAll(async () => {
    s = await listen(await buildFixtureBundle([COLDWAVE]));
  }, 60_000);
  afterAll(() => s.api.close());

  it('answers a SQLite file of the brand asked for, and only of it', async () => {
    const { res, bytes } = await download(s, 'brands=coldwave');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.sqlite3');
    const db = tables(bytes);
    const docs = db.prepare('SELECT id, brand FROM documents').all() as { id: string; brand: string }[];
    expect(docs).toEqual([{ id: 'coldwave-service-en', brand: 'Coldwave' }]);
    expect(db.prepare('SELECT DISTINCT brand FROM error_codes').pluck().all()).toEqual(['Coldwave']);
    expect(db.prepare('SELECT DISTINCT brand FROM models').pluck().all()).toEqual(['Coldwave']);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'pack_brands'").pluck().get()).toBe('["Coldwave"]');
    const full = s.api.reader.db;
    expect(db.prepare("SELECT value FROM meta WHERE key = 'corpus_hash'").pluck().get()).toBe(
      full.prepare("SELECT value FROM meta WHERE key = 'corpus_hash'").pluck().get(),
    );
    // Every kept chunk is in the rebuilt index, and nothing else is.
    const indexed = db.prepare('SELECT count(*) FROM chunk_index WHERE chunk_index MATCH ?').pluck();
    expect(indexed.get('"b:coldwave"')).toBe(db.prepare('SELECT count(*) FROM chunks').pluck().get());
    expect(indexed.get('"b:demotherm"')).toBe(0);
    // The language runs are the pack's own: every kept chunk in a run of its manual's language.
    expect(db.prepare('SELECT count(*) FROM chunk_language_runs').pluck().get()).toBeGreaterThan(0);
    const outside = db
      .prepare(
        `SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id WHERE NOT EXISTS (
           SELECT 1 FROM chunk_language_runs r
           WHERE c.rowid BETWEEN r.first_rowid AND r.last_rowid AND r.language = lower(d.language))`,
      )
      .pluck();
    expect(outside.get()).toBe(0);
    db.close();
  });

  it('keeps the manuals covering a model, with its brand catalogue', async () => {
    const { res, bytes } = await download(s, 'models=DT-A100-E');
    expect(res.status).toBe(200);
    const db = tables(bytes);
    const docs = db.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as string[];
    const expected = s.api.reader.db
      .prepare(
        `SELECT DISTINCT dm.document_id FROM document_models dm JOIN models m ON m.id = dm.model_id
         WHERE m.name = 'DT-A100-E' ORDER BY 1`,
      )
      .pluck()
      .all();
    expect(docs).toEqual(expected);
    expect(docs).not.toContain('coldwave-service-en');
    db.close();
  });

  it('revalidates with its ETag: 304 while the bundle is the same', async () => {
    const first = await download(s, 'brands=Coldwave');
    const etag = first.res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(first.res.headers.get('cache-control')).toBe('private, no-cache');
    const again = await download(s, 'brands=Coldwave', { 'if-none-match': etag! });
    expect(again.res.status).toBe(304);
    const other = await download(s, 'brands=Demotherm', { 'if-none-match': etag! });
    expect(other.res.status).toBe(200);
  });

  it('refuses unknown brands and models and an empty selection with problems', async () => {
    const brand = await download(s, 'brands=Nobrand');
    expect(brand.res.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(brand.bytes)).code).toBe('brand_not_found');
    const model = await download(s, 'models=XX-0');
    expect(model.res.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(model.bytes)).code).toBe('model_not_found');
    const none = await download(s, '');
    expect(none.res.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(none.bytes)).code).toBe('validation_failed');
    const unauthenticated = await fetch(`${s.base}/v1/offline-pack?brands=Coldwave`);
    expect(unauthenticated.status).toBe(401);
  });

  it('is not billed', async () => {
    const { api } = s;
    const { authorization, accountId } = await api.key('billing-check', { quota: 5 });
    const res = await fetch(`${s.base}/v1/offline-pack?brands=Coldwave`, { headers: { authorization } });
    expect(res.status).toBe(200);
    expect((await api.state.quota(accountId)).used).toBe(0);
  });
});

/**
 * The engine over SQLite compiled to WebAssembly (as the app runs it) against the server's REST answers,
 * field by field, for every code of the demo manuals and a set of searches.
 */
describe('the engine over an offline pack in SQLite/WebAssembly answers as the server does', () => {
  let s: Listening;
  let dispose: () => void;
  let sqlite3: Sqlite3Static;
  let engine: OfflineEngine;
  beforeAll(async () => {
    const demo = await demoBundle();
    dispose = demo.dispose;
    s = await listen(demo.bundle);
    sqlite3 = await sqlite3InitModule();
    const { res, bytes } = await download(s, 'brands=Demotherm');
    expect(res.status).toBe(200);
    engine = new OfflineEngine(new WasmSqlDatabase(openPackBytes(sqlite3, bytes)));
  }, 240_000);
  afterAll(async () => {
    engine?.close();
    await s?.api.close();
    dispose?.();
  });

  const post = async (url: string, body: object) => {
    const res = await fetch(`${s.base}${url}`, {
      method: 'POST',
      headers: { authorization: s.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };
  const get = async (url: string) => {
    const res = await fetch(`${s.base}${url}`, { headers: { authorization: s.authorization } });
    return { status: res.status, body: await res.json() };
  };
  const plain = (v: unknown) => JSON.parse(JSON.stringify(v));

  it('the pack says what it holds and where it came from', () => {
    expect(engine.info.brands).toEqual(['Demotherm']);
    expect(engine.info.bundle_version).toBe(s.api.reader.corpusHash);
    expect(engine.info.documents.length).toBeGreaterThan(0);
  });

  it('every documented code, for every model that has it, and unknown codes and models', async () => {
    const pairs = s.api.reader.db
      .prepare(
        `SELECT DISTINCT m.name AS model, e.code AS code FROM error_codes e
         JOIN document_models dm ON dm.document_id = e.document_id JOIN models m ON m.id = dm.model_id
         ORDER BY 1, 2`,
      )
      .all() as { model: string; code: string }[];
    expect(pairs.length).toBeGreaterThan(10);
    const requests = [
      ...pairs.map((p) => ({ brand: 'Demotherm', model: p.model, error_code: p.code })),
      { brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E999' },
      { brand: 'demotherm', model: 'dt aw080 m', error_code: 'e9' },
      { brand: 'Demotherm', error_code: 'E9' },
      { brand: 'Demotherm', model: 'NO-SUCH-1', error_code: 'E9' },
    ];
    let answers = 0;
    for (const request of requests) {
      const online = await post('/v1/diagnostic', request);
      expect(online.status, JSON.stringify(request)).toBe(200);
      const offline = plain(engine.diagnose(request));
      expect(offline, JSON.stringify(request)).toEqual(online.body);
      if (offline.state === 'answer') answers++;
    }
    expect(answers).toBeGreaterThan(10);
  });

  it('searches within the pack brand: same results, scores and cursors', async () => {
    const titles = s.api.reader.db
      .prepare('SELECT DISTINCT title FROM error_codes ORDER BY id LIMIT 12')
      .pluck()
      .all() as string[];
    const queries = [
      ...titles,
      'low water flow',
      'pump does not start',
      'refrigerant pressure sensor',
      'flw swich',
    ];
    let hits = 0;
    for (const q of queries) {
      const input = { q, brand: 'Demotherm', limit: 5 };
      const online = await get(`/v1/search?${new URLSearchParams({ ...input, limit: '5' })}`);
      expect(online.status).toBe(200);
      const offline = plain(engine.search(input));
      expect(offline, q).toEqual(online.body);
      hits += offline.results.length;
      if (offline.next_cursor) {
        const next = { ...input, cursor: offline.next_cursor };
        const page2 = await get(`/v1/search?${new URLSearchParams({ ...next, limit: '5' })}`);
        expect(plain(engine.search(next))).toEqual(page2.body);
      }
    }
    expect(hits).toBeGreaterThan(queries.length);
    // With a language filter, read from the pack's language runs in SQLite/WebAssembly.
    let filtered = 0;
    for (const q of queries.slice(-4)) {
      const input = { q, brand: 'Demotherm', language: 'en', limit: 5 };
      const online = await get(`/v1/search?${new URLSearchParams({ ...input, limit: '5' })}`);
      expect(online.status).toBe(200);
      expect(plain(engine.search(input)), q).toEqual(online.body);
      filtered += (online.body as { results: unknown[] }).results.length;
    }
    expect(filtered).toBeGreaterThan(0);
  });

  it('refuses what the server refuses, with the same problem', async () => {
    const online = await post('/v1/diagnostic', { brand: 'Demotherm', model: 'DT-AW080-M' });
    expect(online.status).toBe(400);
    let code = '';
    try {
      engine.diagnose({ brand: 'Demotherm', model: 'DT-AW080-M' });
    } catch (err) {
      code = (err as { code: string }).code;
    }
    expect(code).toBe(online.body.code);
  });

  it('highlights the cited row on its page and holds the page image', () => {
    const answer = engine.diagnose({ brand: 'Demotherm', model: 'DT-AW080-M', error_code: 'E9' });
    expect(answer.state).toBe('answer');
    const excerpt = answer.excerpt!;
    const h = engine.highlight({ document_id: excerpt.document_id, page: excerpt.page, text: excerpt.text });
    expect(h?.boxes.length).toBeGreaterThan(0);
    const shot = engine.snapshot(excerpt.document_id, excerpt.page);
    expect(shot?.webp.byteLength).toBeGreaterThan(1000);
    // RIFF....WEBP
    expect(new TextDecoder().decode(shot!.webp.slice(8, 12))).toBe('WEBP');
  });

  it('runs a guided session from the pack as the server runs it, answer after answer', async () => {
    expect(engine.sessions).not.toBeNull();
    const request = {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E9',
      symptom: 'stops every morning',
    };
    const created = await post('/v2/diagnostic-sessions', request);
    expect(created.status).toBe(201);
    let server = created.body;
    const answers: OfflineAnswer[] = [];
    const localId = 'ds_local0000000000000000';
    expect(withoutIds(engine.sessions!.replay(request, answers, false, localId))).toEqual(withoutIds(server));
    for (let turn = 0; turn < 4 && server.next_action; turn++) {
      const action = server.next_action;
      const e = action.expected;
      const answer =
        turn === 1
          ? { action_id: action.id, unknown: true }
          : {
              action_id: action.id,
              value:
                e.type === 'boolean'
                  ? false
                  : e.type === 'number'
                    ? (e.nominal_range?.[0] ?? 1)
                    : (e.choices?.[0]?.id ?? 'x'),
            };
      answers.push(answer);
      const next = await post(`/v2/diagnostic-sessions/${server.id}/responses`, answer);
      expect(next.status, JSON.stringify(next.body)).toBe(200);
      server = next.body;
      const offline = engine.sessions!.replay(request, answers, false, localId);
      expect(withoutIds(offline), `after ${answers.length} answers`).toEqual(withoutIds(server));
    }
    expect(answers.length).toBeGreaterThan(1);
  });
});
