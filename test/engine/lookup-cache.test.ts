import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BundleReader } from '../../src/bundle/reader.js';
import { type ServiceContext, type ServiceResult, stateOf } from '../../src/engine/context.js';
import { CorpusView, corpusView } from '../../src/engine/corpus.js';
import { diagnose } from '../../src/engine/diagnostic.js';
import { type HandlerDeps, handlerTable, lookupCache } from '../../src/engine/handlers.js';
import { jsonBody } from '../../src/http/routes.js';
import { demoBundle } from '../mcp/harness.js';

/*
 * A cached lookup keeps its JSON and the fields every answer reads, not its body (which takes several
 * times the JSON's memory): the body is parsed again when read, equal to the body first made.
 */

type Known = { brand: string; code: string; model: string };

let reader: BundleReader;
let view: ReturnType<typeof corpusView>;
let table: ReturnType<typeof handlerTable>;
let known: Known;
let dispose: () => void;
const ctx = {} as ServiceContext;

beforeAll(async () => {
  // The demo bundle of the test run (built when absent, as on a fresh clone), not data/demo.bundle.
  const demo = await demoBundle();
  dispose = demo.dispose;
  reader = new BundleReader(demo.bundle);
  view = corpusView(reader);
  const lookups = lookupCache();
  // The diagnostic handlers read the corpus view and the lookup cache only.
  table = handlerTable(() => ({ reader, view, lookups }) as unknown as HandlerDeps);
  known = reader.db
    .prepare(
      `SELECT e.brand, e.code, m.name AS model FROM error_codes e
       JOIN document_models dm ON dm.document_id = e.document_id JOIN models m ON m.id = dm.model_id
       LIMIT 1`,
    )
    .get() as Known;
});

afterAll(() => {
  reader?.close();
  dispose?.();
});

describe('the lookup cache', () => {
  for (const [what, codeOf] of [
    ['a code of the manuals', (k: Known) => k.code],
    ['a code the manuals lack', (k: Known) => `${k.code}Z9Q`],
  ] as const) {
    it(`answers ${what} again from one entry that holds its JSON, not its body`, async () => {
      const input = { brand: known.brand, model: known.model, error_code: codeOf(known) };
      // Kept from its second ask (a lookup asked once is answered, not kept), then answered from it.
      const once = (await table.diagnose(ctx, input)) as ServiceResult;
      const first = (await table.diagnose(ctx, input)) as ServiceResult;
      const again = (await table.diagnose(ctx, input)) as ServiceResult;
      expect(first).not.toBe(once);
      expect(first.json).toBe(once.json);
      expect(again).toBe(first);
      const fresh = diagnose(view, input);
      expect(first.json).toBe(JSON.stringify(fresh));
      expect(first.body).toEqual(JSON.parse(JSON.stringify(fresh)));
      expect(first.billable).toBe(fresh.billable);
      expect(stateOf(first)).toBe(fresh.state);
      expect(Object.getOwnPropertyNames(first)).not.toContain('body');
    });
  }

  it('tells the state of a result without a state member from its body', () => {
    expect(stateOf({ status: 200, billable: false, body: { state: 'answer' } })).toBe('answer');
    expect(stateOf({ status: 200, billable: false, body: { status: 'open' } })).toBe('open');
    expect(stateOf({ status: 200, billable: false, body: { items: [] } })).toBeUndefined();
  });
});

describe('the REST bytes of a cached result', () => {
  it('are the JSON in UTF-8, in a buffer of their own (not a slice of the shared pool), made once', async () => {
    const input = { brand: known.brand, model: known.model, error_code: `${known.code}ÄÖ` };
    const result = (await table.diagnose(ctx, input)) as ServiceResult & { json: string };
    const bytes = jsonBody(result) as Buffer;
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.toString('utf8')).toBe(result.json);
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(jsonBody(result)).toBe(bytes);
  });
});

describe('the memory of codes the manuals lack', () => {
  // Each such code asked once makes a lookup cache entry and memo entries in the corpus view; under a
  // steady load of them (the soak's third of diagnostics) these caches fill to their bounds.
  let lookups: ReturnType<typeof lookupCache>;

  beforeAll(async () => {
    lookups = lookupCache();
    const own = handlerTable(() => ({ reader, view, lookups }) as unknown as HandlerDeps);
    // Each asked twice, by lookups far apart: a lookup and a memo entry are kept from their second ask
    // (admission.ts). The last 256 codes' memo values are still among the memo's recent values when they
    // are asked again, and are served from there without being kept: 2,800 codes keep 2,544 memo entries.
    for (let ask = 0; ask < 2; ask++) {
      for (let i = 0; i < 2_800; i++) {
        await own.diagnose(ctx, { brand: known.brand, model: known.model, error_code: `${known.code}Q${i}` });
      }
    }
  });

  it('keeps no lookup asked once', async () => {
    const once = lookupCache();
    const own = handlerTable(() => ({ reader, view, lookups: once }) as unknown as HandlerDeps);
    for (let i = 0; i < 50; i++) {
      await own.diagnose(ctx, { brand: known.brand, model: known.model, error_code: `${known.code}R${i}` });
    }
    expect(once.size).toBe(0);
    await own.diagnose(ctx, { brand: known.brand, model: known.model, error_code: `${known.code}R7` });
    expect(once.size).toBe(1);
  });

  it('keeps no memo entry for codes asked by one lookup each', async () => {
    const fresh = new CorpusView(reader);
    const codes = (fresh as unknown as { codeMemo: { size: number } }).codeMemo;
    const own = handlerTable(
      () => ({ reader, view: fresh, lookups: lookupCache() }) as unknown as HandlerDeps,
    );
    const ask = (i: number) =>
      own.diagnose(ctx, { brand: known.brand, model: known.model, error_code: `${known.code}S${i}` });
    for (let i = 0; i < 500; i++) await ask(i);
    expect(codes.size).toBe(0);
    // Asked by a lookup again, once the memo's few recent values have moved on: kept.
    await ask(0);
    expect(codes.size).toBeGreaterThan(0);
  });

  it('keeps at most 2,000 lookups, the least recently used out first', () => {
    expect(lookups.size).toBe(2_000);
    const codeOf = (key: string) => key.split('\u0000')[3];
    const kept = new Set([...lookups.keys()].map(codeOf));
    expect(kept.has(`${known.code}Q0`)).toBe(false);
    expect(kept.has(`${known.code}Q2499`)).toBe(true);
  });

  it('counts a memoised miss at no less than the heap it takes (about 210 bytes)', () => {
    const codes = (view as unknown as { codeMemo: { size: number; calculatedSize: number } }).codeMemo;
    expect(codes.size).toBeGreaterThanOrEqual(2_500);
    expect(codes.calculatedSize / codes.size).toBeGreaterThanOrEqual(200);
  });
});
