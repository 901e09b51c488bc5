import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Citation } from '../../src/contract/common.js';
import type { ManualQuote, NextAction, Session, SessionSummary } from '../../src/contract/sessions.js';
import { quoteStands } from '../../src/engine/manual-quotes.js';
import { type TestApi, testApi } from '../api/fixture.js';
import { demoBundle } from '../cli/helpers.js';
import { answerFor, FAULTY_FLOW_SWITCH } from './helpers.js';

/**
 * Every page a guided session cites holds what is quoted from it. The demo manuals' codes are each
 * started as a session over a listening server and walked to their end; every payload (the session
 * after each answer, and the summary) is read: each citation must come with the manual's words it is
 * cited for, and those words must stand on the cited page as the service checks REST excerpts (a table
 * cell line by line, prose as a whole).
 */
let api: TestApi;
let base: string;
let authorization: string;

beforeAll(async () => {
  api = await testApi(await demoBundle());
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`;
  authorization = (await api.key('citations')).authorization;
}, 300_000);
afterAll(async () => {
  if (api) await api.close();
});

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const json = (await res.json()) as T;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const key = (c: Citation) => `${c.document_id}#${c.page}-${c.page_end}`;

interface Checked {
  quotes: number;
  failures: string[];
}

function pagesOf(c: Citation): string[] {
  const out: string[] = [];
  for (let n = c.page; n <= c.page_end; n++) out.push(api.reader.page(c.document_id, n)?.text ?? '');
  return out;
}

function checkQuote(q: ManualQuote, where: string, checked: Checked): void {
  checked.quotes++;
  if (!pagesOf(q.citation).some((text) => quoteStands(text, q.excerpt)))
    checked.failures.push(`${where}: "${q.excerpt}" is not on ${key(q.citation)}`);
}

/** Each citation of a part of the payload has a quote of its own, and each quote stands. */
function checkPart(citations: Citation[], quotes: ManualQuote[], where: string, checked: Checked): void {
  const quoted = new Set(quotes.map((q) => key(q.citation)));
  for (const c of citations)
    if (!quoted.has(key(c))) checked.failures.push(`${where}: ${key(c)} is cited with no words`);
  for (const q of quotes) checkQuote(q, where, checked);
  // The same words are not shown twice: no quote repeats, whole or in part, another of the same page.
  quotes.forEach((q, i) => {
    const within = quotes.find(
      (o, j) => j !== i && key(o.citation) === key(q.citation) && o.excerpt.includes(q.excerpt),
    );
    if (within) checked.failures.push(`${where}: "${q.excerpt}" is quoted again within "${within.excerpt}"`);
  });
}

function checkAction(a: Pick<NextAction, 'expected' | 'part'>, where: string, checked: Checked): void {
  const range = a.expected.range_source;
  if (range?.kind === 'manual') {
    if (!range.citation || !range.excerpt) checked.failures.push(`${where}: a manual range with no page`);
    else checkQuote({ excerpt: range.excerpt, citation: range.citation }, `${where} range`, checked);
  }
  if (a.part?.citation && a.part.reference)
    checkQuote({ excerpt: a.part.reference, citation: a.part.citation }, `${where} part`, checked);
}

function checkSession(s: Session, checked: Checked): void {
  for (const h of s.hypotheses) checkPart(h.citations, h.quotes, `hypothesis ${h.id}`, checked);
  if (s.next_action) {
    const a = s.next_action;
    checkPart(a.citations, a.quotes, `step ${a.id}`, checked);
    checkAction(a, `step ${a.id}`, checked);
    // A step in general words is never shown as the manual's: its prompt is not among its quotes.
    if (a.source === 'knowledge' && a.quotes.some((q) => a.prompt.includes(q.excerpt)))
      checked.failures.push(`step ${a.id}: general advice quoted as the manual's`);
  }
  for (const h of s.history) checkPart(h.citations, h.quotes, `turn ${h.turn}`, checked);
  if (s.outcome) checkPart(s.outcome.citations, s.outcome.quotes, 'outcome', checked);
}

function checkSummary(s: SessionSummary, checked: Checked): void {
  checkPart(s.citations, s.quotes, 'summary', checked);
}

/** An answer that moves the session on, varied by turn so that walks end in conclusions and hand-ons. */
function answer(a: NextAction, turn: number): unknown {
  const e = a.expected;
  if (e.type === 'number') {
    const [lo, hi] = e.nominal_range ?? [0, 1];
    const plausible = e.plausible_range ?? [lo - 1, hi + 1];
    return turn % 2 === 0 ? Math.max(plausible[0], lo - (hi - lo) / 2) : (lo + hi) / 2;
  }
  if (e.type === 'choice') return e.choices![turn % e.choices!.length]!.id;
  return turn % 3 !== 1;
}

describe('citations of guided sessions on the demo manuals', () => {
  it('cite, in every payload, only pages that hold the words quoted from them', async () => {
    const units = api.reader.db
      .prepare(
        `SELECT e.brand, e.code, MIN(m.name) AS model FROM error_codes e
         JOIN document_models dm ON dm.document_id = e.document_id JOIN models m ON m.id = dm.model_id
         GROUP BY e.brand, e.code_norm, e.document_id ORDER BY e.document_id, e.code`,
      )
      .all() as { brand: string; code: string; model: string }[];
    expect(units.length).toBeGreaterThan(40);
    const checked: Checked = { quotes: 0, failures: [] };
    let manualRanges = 0;
    for (const u of units) {
      let s = await call<Session>('POST', '/v2/diagnostic-sessions', {
        brand: u.brand,
        model: u.model,
        error_code: u.code,
      });
      checkSession(s, checked);
      for (let turn = 0; s.next_action && turn < 14; turn++) {
        if (s.next_action.expected.range_source?.kind === 'manual') manualRanges++;
        s = await call<Session>('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
          action_id: s.next_action.id,
          value: answer(s.next_action, turn),
        });
        checkSession(s, checked);
      }
      checkSummary(await call<SessionSummary>('GET', `/v2/diagnostic-sessions/${s.id}/summary`), checked);
    }
    expect(checked.failures).toEqual([]);
    expect(checked.quotes).toBeGreaterThan(200);
    expect(manualRanges).toBeGreaterThan(0);
  }, 300_000);

  it('cites a range on the page that prints it, not on the page of the code table row', async () => {
    const s = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E9',
    });
    const range = s.next_action!.expected.range_source!;
    expect(range.kind).toBe('manual');
    const row = s.hypotheses.find((h) => h.source === 'manual' && h.citations.length > 0)!.citations[0]!;
    // The check can fail: the range's words are not on the table row's page, which cited it before.
    expect(pagesOf(row).some((text) => quoteStands(text, range.excerpt!))).toBe(false);
    expect(pagesOf(range.citation!).some((text) => quoteStands(text, range.excerpt!))).toBe(true);
  });

  it("concludes a part swap with the manual's part reference and the page printing it", async () => {
    let s = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E9',
    });
    const seen: NextAction[] = [];
    for (let turn = 0; s.next_action && turn < 20; turn++) {
      seen.push(s.next_action);
      s = await call<Session>('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
        action_id: s.next_action.id,
        value: answerFor(s.next_action, FAULTY_FLOW_SWITCH),
      });
    }
    const part = [...seen.map((a) => a.part), s.outcome?.action?.part].find((p) => p?.reference);
    expect(part).toMatchObject({ reference: '4012-220' });
    expect(pagesOf(part!.citation!).some((text) => quoteStands(text, part!.reference!))).toBe(true);
    expect(s.outcome?.quotes.map((q) => q.excerpt)).toContain('4012-220');
  });

  it("keeps the manual's warning of a step it asks in general words", async () => {
    const s = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E9',
    });
    const summary = await call<SessionSummary>('GET', `/v2/diagnostic-sessions/${s.id}/summary`);
    expect(summary.manual_coverage.status).toBe('entry');
    // Every step of the walk keeps the warnings of the manual's steps it stands for (the walk reaches
    // the flow switch's check, the step the warning belongs to, on a unit whose flow switch is faulty).
    let t = s;
    const warnings: string[] = [];
    for (let turn = 0; t.next_action && turn < 20; turn++) {
      if (t.next_action.safety) warnings.push(t.next_action.safety);
      t = await call<Session>('POST', `/v2/diagnostic-sessions/${t.id}/responses`, {
        action_id: t.next_action.id,
        value: answerFor(t.next_action, FAULTY_FLOW_SWITCH),
      });
    }
    expect(warnings.join(' ')).toContain('keep hands away from terminals L and N');
  });

  it("puts a step's warning on the action that stands for that step, and on no other", async () => {
    let s = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E9',
    });
    const warned: NextAction[] = [];
    const shown: NextAction[] = [];
    for (let turn = 0; s.next_action && turn < 20; turn++) {
      shown.push(s.next_action);
      if (s.next_action.safety?.includes('keep hands away from terminals L and N'))
        warned.push(s.next_action);
      s = await call<Session>('POST', `/v2/diagnostic-sessions/${s.id}/responses`, {
        action_id: s.next_action.id,
        value: answerFor(s.next_action, FAULTY_FLOW_SWITCH),
      });
    }
    expect(warned.length).toBeGreaterThan(0);
    // The warning belongs to the step that opens the control box and measures the flow switch with the
    // power on: an action carries it only when it quotes that step, and the step's own check does.
    for (const action of warned) {
      expect(action.quotes.map((q) => q.excerpt).join(' ')).toContain('disconnect CN9 and measure FS1');
      // The step measures the flow switch FS1: not the supply it isolates first, nor the circulator
      // that runs meanwhile (where a keyword count used to put it).
      expect(action.label.toLowerCase()).toContain('flow switch');
    }
    const others = shown.filter((a) => !a.quotes.some((q) => q.excerpt.includes('disconnect CN9')));
    expect(others.length).toBeGreaterThan(0);
    for (const action of others) expect(action.safety ?? '').not.toContain('terminals L and N');
  });

  it('says first when no manual of the brand, the model or the code is known', async () => {
    const brand = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Acme',
      model: 'X1',
      equipment: 'air_water',
      error_code: 'E1',
    });
    expect(brand.manual_coverage).toEqual({
      status: 'no_brand',
      message:
        'No manual of Acme is known: the steps below are general guidance, with no manual page behind them.',
    });
    expect(brand.next_action!.source).toBe('knowledge');
    expect(brand.next_action!.citations).toEqual([]);
    const model = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'ZZ-999',
      equipment: 'air_water',
    });
    expect(model.manual_coverage.status).toBe('no_model');
    expect(model.manual_coverage.message).toContain('No manual of the Demotherm ZZ-999 is known');
    const code = await call<Session>('POST', '/v2/diagnostic-sessions', {
      brand: 'Demotherm',
      model: 'DT-AW080-M',
      error_code: 'E99',
    });
    expect(code.manual_coverage.status).toBe('no_entry');
    expect(code.manual_coverage.message).toContain('do not document code E99');
    // Said once: the next payloads keep the status, the CLI prints the message at the start only.
    const next = await call<Session>('POST', `/v2/diagnostic-sessions/${brand.id}/responses`, {
      action_id: brand.next_action!.id,
      unknown: true,
    });
    expect(next.manual_coverage.status).toBe('no_brand');
  });
});
