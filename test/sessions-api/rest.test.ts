import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.js';
import type { Session, SessionSummary } from '../../src/contract/sessions.js';
import { buildFixtureBundle, type TestApi, testApi } from '../api/fixture.js';
import { answerFor, citationKey, citationsOf, FAULTY_FLOW_SWITCH, UNIT } from './helpers.js';

let api: TestApi;
let a: { authorization: string; accountId: string };
let b: { authorization: string; accountId: string };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  a = await api.key('owner');
  b = await api.key('other');
}, 60_000);
afterAll(() => api.close());

const json = { 'content-type': 'application/json' };

async function post(
  url: string,
  payload: unknown,
  auth = a.authorization,
  headers: Record<string, string> = {},
) {
  return api.request({
    method: 'POST',
    url,
    headers: { authorization: auth, ...json, ...headers },
    payload: payload as object,
  });
}
async function get(url: string, auth = a.authorization) {
  return api.request({ method: 'GET', url, headers: { authorization: auth } });
}
async function start(body: Record<string, unknown> = UNIT, auth = a.authorization): Promise<Session> {
  const res = await post('/v2/diagnostic-sessions', body, auth);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Session;
}
async function charges(accountId = a.accountId, operation = 'start_diagnostic_session') {
  return (await api.state.ledger({ account_id: accountId })).filter((e) => e.operation === operation).length;
}
const respondUrl = (id: string) => `/v2/diagnostic-sessions/${id}/responses`;

describe('POST /v2/diagnostic-sessions', () => {
  it('starts a session with a typed next action and cited manual hypotheses, charged once', async () => {
    const before = await charges();
    const s = await start();
    expect(s.id).toMatch(/^ds_[A-Za-z0-9_-]{20,}$/);
    expect(s.status).toBe('active');
    expect(s.equipment).toEqual(UNIT);
    expect(s.history).toEqual([]);
    expect(s.next_action).not.toBeNull();
    expect(['boolean', 'number', 'choice', 'text']).toContain(s.next_action!.expected.type);
    const total = s.hypotheses.reduce((sum, h) => sum + h.probability, 0);
    expect(total).toBeCloseTo(1, 3);
    // The manual's cause for E9 (flow switch) joins the hypotheses, cited as v1 cites it, on the one page
    // of the entry that holds the cause's words.
    const manual = s.hypotheses.filter((h) => h.source === 'manual');
    expect(manual.length).toBeGreaterThan(0);
    const v1 = (
      await post('/v1/diagnostic', { brand: UNIT.brand, model: UNIT.model, error_code: 'E9' })
    ).json() as {
      citation: { page: number; page_end: number; document_id: string; title: string };
    };
    const cited = manual[0]!.citations[0]!;
    expect(cited).toMatchObject({ document_id: v1.citation.document_id, title: v1.citation.title });
    expect(cited.page).toBeGreaterThanOrEqual(v1.citation.page);
    expect(cited.page_end).toBeLessThanOrEqual(v1.citation.page_end);
    expect(manual[0]!.quotes.map((q) => q.citation)).toContainEqual(cited);
    expect(manual[0]!.citations[0]).toMatchObject({
      snapshot_url: '/v1/pdf-snapshot/alpha-service-en/2',
      resource_uri: 'heatsource://documents/alpha-service-en/pages/2',
    });
    expect(await charges()).toBe(before + 1);
  });

  it('answers a replay with the same Idempotency-Key with the same session, charged once', async () => {
    const before = await charges();
    const first = await post('/v2/diagnostic-sessions', UNIT, a.authorization, {
      'idempotency-key': 'start-1',
    });
    const again = await post('/v2/diagnostic-sessions', UNIT, a.authorization, {
      'idempotency-key': 'start-1',
    });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await charges()).toBe(before + 1);
    const other = await post('/v2/diagnostic-sessions', { ...UNIT, error_code: 'E01' }, a.authorization, {
      'idempotency-key': 'start-1',
    });
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('idempotency_key_reused');
    // Without a key, each start is a new session and a new charge.
    const x = await start();
    const y = await start();
    expect(x.id).not.toBe(y.id);
    expect(await charges()).toBe(before + 3);
  });

  it('refuses a start when the quota is spent and stores no session', async () => {
    const poor = await api.key('poor', { quota: 1 });
    await start(UNIT, poor.authorization);
    const refused = await post('/v2/diagnostic-sessions', UNIT, poor.authorization);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('quota_exceeded');
    expect(await api.state.sessions(poor.accountId)).toHaveLength(1);
  });

  it('validates the request and the initial readings', async () => {
    const missing = await post('/v2/diagnostic-sessions', { brand: 'Demotherm' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('validation_failed');
    const fields = (missing.json().errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(['model']);
    const reading = await post('/v2/diagnostic-sessions', {
      ...UNIT,
      readings: [{ quantity: 'no_such_quantity', value: 1 }],
    });
    expect(reading.statusCode).toBe(422);
    expect(reading.json().code).toBe('invalid_response');
  });

  it('starts without a manual entry when the model is unknown, on knowledge alone', async () => {
    const s = await start({
      brand: 'Demotherm',
      model: 'NOT-A-MODEL',
      equipment: 'air_air',
      symptom: 'no cooling',
    });
    expect(s.hypotheses.some((h) => h.source === 'manual')).toBe(false);
    expect(s.next_action).not.toBeNull();
  });

  it('shows the readings its description states, and the summary keeps them', async () => {
    const s = await start({ ...UNIT, symptom: 'Lockout every morning, delta T very low, flow normal' });
    expect(s.stated_readings.map((r) => [r.quantity, r.outcome, r.superseded])).toEqual([
      ['water_delta_t', 'low', false],
      ['water_flow', 'normal', false],
    ]);
    expect(s.stated_readings[0]).toMatchObject({
      label: 'Flow/return temperature difference',
      outcome_label: 'Low',
    });
    const summary = (await get(`/v2/diagnostic-sessions/${s.id}/summary`)).json() as SessionSummary;
    expect(summary.stated_readings).toEqual(s.stated_readings);
  });

  it('speaks the language asked at the start in every later payload, English by default', async () => {
    expect((await start()).language).toBe('en');
    const symptom = 'Lockout every morning, delta T very low';
    const s = await start({ ...UNIT, symptom, language: 'fr' });
    expect(s.language).toBe('fr');
    expect(s.stated_readings[0]).toMatchObject({
      label: 'Écart de température départ/retour',
      outcome_label: 'Bas',
    });
    const labels = s.hypotheses.filter((h) => h.source === 'knowledge').map((h) => h.label);
    expect(labels).toContain("Air dans le circuit d'eau");
    const action = s.next_action!;
    const answered = (
      await post(respondUrl(s.id), { action_id: action.id, value: answerFor(action) })
    ).json() as Session;
    expect(answered.language).toBe('fr');
    expect(answered.history[0]!.prompt).toBe(action.prompt);
    const english = await start({ ...UNIT, symptom });
    expect(answered.history[0]!.prompt).not.toBe(english.next_action!.prompt);
    const summary = (await get(`/v2/diagnostic-sessions/${s.id}/summary`)).json() as SessionSummary;
    expect(summary.language).toBe('fr');
    const other = await post('/v2/diagnostic-sessions', { ...UNIT, language: 'de' });
    expect(other.statusCode).toBe(400);
    expect(other.body).toContain('language');
  });
});

describe('GET /v2/diagnostic-sessions/:id', () => {
  it('reads the session for its account and answers 404 to any other account', async () => {
    const s = await start();
    const read = await get(`/v2/diagnostic-sessions/${s.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(s);
    const other = await get(`/v2/diagnostic-sessions/${s.id}`, b.authorization);
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toMatch(/problem\+json/);
    expect(other.json().code).toBe('session_not_found');
    const none = await get('/v2/diagnostic-sessions/ds_nothing');
    expect(none.statusCode).toBe(404);
    expect(other.json().title).toBe(none.json().title);
    expect((await api.request({ method: 'GET', url: `/v2/diagnostic-sessions/${s.id}` })).statusCode).toBe(
      401,
    );
  });
});

describe('POST /v2/diagnostic-sessions/:id/responses', () => {
  it('records typed answers, free of charge', async () => {
    const s = await start();
    const before = await charges();
    const res = await post(respondUrl(s.id), {
      action_id: s.next_action!.id,
      value: answerFor(s.next_action!),
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json() as Session;
    expect(after.history).toHaveLength(1);
    expect(after.history[0]).toMatchObject({
      turn: 1,
      action_id: s.next_action!.id,
      value: answerFor(s.next_action!),
    });
    expect(after.turns.used).toBe(1);
    expect(after.next_action?.id).not.toBe(s.next_action!.id);
    expect((await get(`/v2/diagnostic-sessions/${s.id}`)).json()).toEqual(after);
    expect(await charges()).toBe(before);
    expect((await api.state.ledger({ account_id: a.accountId })).map((e) => e.operation)).not.toContain(
      'respond_to_diagnostic_session',
    );
  });

  it('takes "unknown" in both forms without moving the probabilities', async () => {
    const s = await start();
    const one = (
      await post(respondUrl(s.id), { action_id: s.next_action!.id, unknown: true })
    ).json() as Session;
    expect(one.history[0]!.value).toEqual({ unknown: true });
    expect(one.hypotheses.map((h) => [h.id, h.probability])).toEqual(
      s.hypotheses.map((h) => [h.id, h.probability]),
    );
    const two = await post(respondUrl(s.id), { action_id: one.next_action!.id, value: { unknown: true } });
    expect(two.statusCode).toBe(200);
    expect((two.json() as Session).history[1]!.value).toEqual({ unknown: true });
    const both = await post(respondUrl(s.id), { action_id: 'x', value: 1, unknown: true });
    expect(both.statusCode).toBe(400);
    const neither = await post(respondUrl(s.id), { action_id: 'x' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().code).toBe('validation_failed');
  });

  it('refuses another action with 409 and a value of the wrong type with 422, changing nothing', async () => {
    const s = await start();
    const wrongAction = await post(respondUrl(s.id), { action_id: 'not_the_pending_one', value: true });
    expect(wrongAction.statusCode).toBe(409);
    expect(wrongAction.json().code).toBe('action_mismatch');
    const expected = s.next_action!.expected.type;
    const wrongValue = expected === 'boolean' ? 'maybe' : expected === 'number' ? true : 12345;
    const wrongType = await post(respondUrl(s.id), { action_id: s.next_action!.id, value: wrongValue });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().code).toBe('invalid_response');
    expect((await get(`/v2/diagnostic-sessions/${s.id}`)).json()).toEqual(s);
  });

  it('refuses a response from another account with 404, changing nothing', async () => {
    const s = await start();
    const res = await post(
      respondUrl(s.id),
      { action_id: s.next_action!.id, unknown: true },
      b.authorization,
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('session_not_found');
    const closed = await post(`/v2/diagnostic-sessions/${s.id}/close`, {}, b.authorization);
    expect(closed.statusCode).toBe(404);
    expect((await get(`/v2/diagnostic-sessions/${s.id}`)).json()).toEqual(s);
  });

  it('replays a response retried with its Idempotency-Key instead of refusing it', async () => {
    const s = await start();
    const body = { action_id: s.next_action!.id, value: answerFor(s.next_action!) };
    const first = await post(respondUrl(s.id), body, a.authorization, {
      'idempotency-key': `answer-${s.id}`,
    });
    const retry = await post(respondUrl(s.id), body, a.authorization, {
      'idempotency-key': `answer-${s.id}`,
    });
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((retry.json() as Session).history).toHaveLength(1);
  });

  it('keeps every update of concurrent responses to one session: one wins, the others get 409', async () => {
    const s = await start();
    const body = { action_id: s.next_action!.id, value: answerFor(s.next_action!) };
    // Injected in process, not sent over sockets: all eight must enter the handler in the same turn of the
    // event loop, each reading the session before any writes, which only injection guarantees; over
    // sockets they arrive one by one and the check under test is not reached.
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        api.app.inject({
          method: 'POST',
          url: respondUrl(s.id),
          headers: { authorization: a.authorization, 'content-type': 'application/json' },
          payload: body,
        }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 200)).toHaveLength(1);
    expect(statuses.filter((c) => c === 409)).toHaveLength(7);
    const codes = results.filter((x) => x.statusCode === 409).map((r) => r.json().code as string);
    for (const code of codes) expect(['session_conflict', 'action_mismatch']).toContain(code);
    // All read the same version before any wrote: the version check, not luck, refused them.
    expect(codes).toContain('session_conflict');
    const read = (await get(`/v2/diagnostic-sessions/${s.id}`)).json() as Session;
    expect(read.history).toHaveLength(1);
    expect((await api.state.session(s.id))!.version).toBe(2);
  });
});

describe('undo, close and summary', () => {
  it('undoes the last answer, and refuses when there is none', async () => {
    const s = await start();
    const nothing = await post(`/v2/diagnostic-sessions/${s.id}/undo`, {});
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().code).toBe('nothing_to_undo');
    await post(respondUrl(s.id), { action_id: s.next_action!.id, value: answerFor(s.next_action!) });
    const undone = await post(`/v2/diagnostic-sessions/${s.id}/undo`, {});
    expect(undone.statusCode).toBe(200);
    expect(undone.json()).toEqual(s);
  });

  it('closes a session, which then refuses responses and undo with 409', async () => {
    const s = await start();
    await post(respondUrl(s.id), { action_id: s.next_action!.id, value: answerFor(s.next_action!) });
    const closed = await post(`/v2/diagnostic-sessions/${s.id}/close`, {});
    expect(closed.statusCode).toBe(200);
    const c = closed.json() as Session;
    expect(c.status).toBe('closed');
    expect(c.next_action).toBeNull();
    expect(c.outcome).toMatchObject({ kind: 'closed', reason: 'closed_by_user' });
    const refused = await post(respondUrl(s.id), { action_id: s.next_action!.id, unknown: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'session_closed', status: 409 });
    expect((await post(`/v2/diagnostic-sessions/${s.id}/undo`, {})).json().code).toBe('session_closed');
    const again = await post(`/v2/diagnostic-sessions/${s.id}/close`, {});
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(c);
    // Closing an empty body without a content type works too.
    const bare = await api.request({
      method: 'POST',
      url: `/v2/diagnostic-sessions/${s.id}/close`,
      headers: { authorization: a.authorization },
    });
    expect(bare.statusCode).toBe(200);
  });

  it('concludes on the fault, then refuses more answers; the summary lists the path, outcome and every citation', async () => {
    let s = await start();
    const started = s;
    const seen = citationsOf(s);
    for (let i = 0; i < 30 && s.status === 'active'; i++) {
      const action = s.next_action!;
      const res = await post(respondUrl(s.id), {
        action_id: action.id,
        value: answerFor(action, FAULTY_FLOW_SWITCH),
      });
      expect(res.statusCode, res.body).toBe(200);
      s = res.json() as Session;
      for (const c of citationsOf(s)) seen.add(c);
    }
    expect(s.status).toBe('concluded');
    expect(s.outcome).toMatchObject({ kind: 'cause_found', cause: { id: 'flow_switch_faulty' } });
    expect(s.next_action).toBeNull();
    const late = await post(respondUrl(s.id), { action_id: started.next_action!.id, value: true });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('session_finished');

    const res = await get(`/v2/diagnostic-sessions/${s.id}/summary`);
    expect(res.statusCode).toBe(200);
    const sum = res.json() as SessionSummary;
    expect(sum.session_id).toBe(s.id);
    expect(sum.status).toBe('concluded');
    expect(sum.path.map((p) => p.action_id)).toEqual(s.history.map((h) => h.action_id));
    expect(sum.path.map((p) => p.value)).toEqual(s.history.map((h) => h.value));
    expect(sum.outcome).toEqual(s.outcome);
    const listed = new Set(sum.citations.map(citationKey));
    for (const c of seen) expect(listed, c).toContain(c);
    expect(sum.citations.length).toBe(listed.size);
    expect((await get(`/v2/diagnostic-sessions/${s.id}/summary`, b.authorization)).statusCode).toBe(404);
  });

  it('escalates when the turn budget is spent', async () => {
    let s = await start({ ...UNIT, budget: 2 });
    while (s.status === 'active') {
      s = (await post(respondUrl(s.id), { action_id: s.next_action!.id, unknown: true })).json() as Session;
    }
    expect(s.status).toBe('escalated');
    expect(s.turns).toEqual({ used: 2, budget: 2 });
    expect(s.outcome).toMatchObject({ kind: 'escalation', reason: 'budget_spent' });
  });

  it('hands the job on after three unanswered steps, with the repairs left and the leader named as the suspect', async () => {
    let s = await start(UNIT);
    for (let i = 0; i < 3; i++) {
      expect(s.status).toBe('active');
      s = (await post(respondUrl(s.id), { action_id: s.next_action!.id, unknown: true })).json() as Session;
    }
    expect(s.status).toBe('escalated');
    expect(s.turns.used).toBe(3);
    expect(s.next_action).toBeNull();
    expect(s.outcome).toMatchObject({ kind: 'escalation', reason: 'readings_unavailable' });
    expect(s.outcome!.action?.kind).toBe('escalate');
    expect(s.outcome!.repair_plan.length).toBeGreaterThan(0);
    for (const r of s.outcome!.repair_plan) expect(r.label.length).toBeGreaterThan(0);
    // Each repair left says what must come first: a part swap a check that confirms the part, a top-up
    // the gauge, which went unread here.
    const plan = new Map(s.outcome!.repair_plan.map((r) => [r.id, r]));
    expect(plan.get('replace_flow_switch')).toMatchObject({
      part_swap: true,
      reading_first: null,
      condition: 'only once a check confirms the part',
    });
    expect(plan.get('open_isolation_valves')).toMatchObject({
      part_swap: false,
      reading_first: null,
      condition: null,
    });
    expect(plan.get('top_up_water_pressure')).toMatchObject({
      part_swap: false,
      reading_first: { id: 'read_water_pressure', label: 'Read the water pressure' },
      condition: 'only after this reading: read the water pressure',
    });
    // The leader holds a third of the belief here: it is named as the suspect, with its probability.
    const leader = s.hypotheses.find((h) => h.source !== 'residual')!;
    expect(leader.probability).toBeGreaterThan(0.3);
    expect(s.outcome!.cause).toEqual({ id: leader.id, label: leader.label, probability: leader.probability });
  });
});

describe('the contract', () => {
  it('lists every session operation once, under the tool names of the MCP surface', () => {
    const names = OPERATIONS.map((o) => o.name);
    for (const n of [
      'start_diagnostic_session',
      'get_diagnostic_session',
      'respond_to_diagnostic_session',
      'undo_diagnostic_session',
      'close_diagnostic_session',
      'get_diagnostic_session_summary',
      'diagnose_guided',
    ]) {
      expect(
        names.filter((x) => x === n),
        n,
      ).toHaveLength(1);
    }
    expect(OPERATIONS.find((o) => o.name === 'start_diagnostic_session')).toMatchObject({
      billing: 'always',
    });
    expect(
      OPERATIONS.filter(
        (o) => o.path.startsWith('/v2/diagnostic-sessions') && o.name !== 'start_diagnostic_session',
      ).map((o) => o.billing),
    ).toEqual(['none', 'none', 'none', 'none', 'none']);
  });

  it('describes the session endpoints in the OpenAPI document', async () => {
    const doc = (await api.request({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    expect(doc.paths['/v2/diagnostic-sessions']?.post?.operationId).toBe('start_diagnostic_session');
    expect(doc.paths['/v2/diagnostic-sessions']?.post?.responses['201']).toBeDefined();
    expect(doc.paths['/v2/diagnostic-sessions/{session_id}/responses']?.post?.responses['409']).toBeDefined();
    expect(doc.paths['/v2/diagnostic-sessions/{session_id}/summary']?.get?.operationId).toBe(
      'get_diagnostic_session_summary',
    );
  });
});
