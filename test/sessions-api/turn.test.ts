import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiagnosticTurnResponse } from '../../src/contract/diagnostic.js';
import type { Session } from '../../src/contract/sessions.js';
import { buildFixtureBundle, type TestApi, testApi } from '../api/fixture.js';
import { answerFor, FAULTY_FLOW_SWITCH, UNIT } from './helpers.js';

let api: TestApi;
let a: { authorization: string; accountId: string };
let b: { authorization: string; accountId: string };

beforeAll(async () => {
  api = await testApi(await buildFixtureBundle());
  a = await api.key('turns');
  b = await api.key('stranger');
}, 60_000);
afterAll(() => api.close());

let keys = 0;
async function turn(body: Record<string, unknown>, options: { key?: string | null; auth?: string } = {}) {
  const key = options.key === undefined ? `turn-${++keys}` : options.key;
  return api.request({
    method: 'POST',
    url: '/v1/diagnostic/turn',
    headers: {
      authorization: options.auth ?? a.authorization,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    payload: body,
  });
}
async function charged(accountId = a.accountId) {
  return (await api.state.ledger({ account_id: accountId })).filter((e) => e.operation === 'diagnose_guided')
    .length;
}
const first = {
  brand: UNIT.brand,
  model: UNIT.model,
  error_code: 'E9',
  message: 'the heating stops with E9',
};

describe('POST /v1/diagnostic/turn', () => {
  it('needs an Idempotency-Key', async () => {
    const res = await turn(first, { key: null });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('idempotency_key_required');
  });

  it('runs a whole conversation: the first turn is billed, the later ones are free', async () => {
    const before = await charged();
    const res = await turn(first);
    expect(res.statusCode, res.body).toBe(200);
    let t = res.json() as DiagnosticTurnResponse;
    expect(t).toMatchObject({ turn: 1, status: 'active', billable: true, outcome: null });
    expect(t.conversation_id).toMatch(/^ds_/);
    expect(t.next_action).not.toBeNull();
    expect(t.message).toContain(t.next_action!.prompt);
    expect(t.hypotheses.some((h) => h.source === 'manual' && h.citations.length > 0)).toBe(true);
    expect(await charged()).toBe(before + 1);

    const conversation = t.conversation_id;
    for (let i = 0; i < 30 && t.status === 'active'; i++) {
      const action = t.next_action!;
      const r = await turn({
        conversation_id: conversation,
        response: { action_id: action.id, value: answerFor(action, FAULTY_FLOW_SWITCH) },
      });
      expect(r.statusCode, r.body).toBe(200);
      const next = r.json() as DiagnosticTurnResponse;
      expect(next.turn).toBe(t.turn + 1);
      expect(next.billable).toBe(false);
      t = next;
    }
    expect(t.status).toBe('concluded');
    expect(t.next_action).toBeNull();
    expect(t.outcome).toMatchObject({ kind: 'cause_found', cause: { id: 'flow_switch_faulty' } });
    expect(t.message).toMatch(/^Most likely cause: /);
    expect(await charged()).toBe(before + 1);

    // The conversation is a session: it reads at /v2, with the same history.
    const session = (
      await api.request({
        method: 'GET',
        url: `/v2/diagnostic-sessions/${conversation}`,
        headers: { authorization: a.authorization },
      })
    ).json() as Session;
    expect(session.history).toHaveLength(t.turn - 1);
    expect(session.outcome).toEqual(t.outcome);

    const late = await turn({
      conversation_id: conversation,
      response: { action_id: 'anything', value: true },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('session_finished');
  });

  it('takes null as "cannot measure", and a retried turn does not answer twice', async () => {
    const t = (await turn(first)).json() as DiagnosticTurnResponse;
    const body = {
      conversation_id: t.conversation_id,
      response: { action_id: t.next_action!.id, value: null },
    };
    const once = await turn(body, { key: 'retry-me' });
    const twice = await turn(body, { key: 'retry-me' });
    expect(once.statusCode).toBe(200);
    expect(twice.headers['idempotency-replayed']).toBe('true');
    expect(twice.json()).toEqual(once.json());
    const after = once.json() as DiagnosticTurnResponse;
    expect(after.turn).toBe(2);
    expect(after.hypotheses.map((h) => h.probability)).toEqual(t.hypotheses.map((h) => h.probability));
    // A turn without a response repeats where the conversation stands, free.
    const before = await charged();
    const repeat = (await turn({ conversation_id: t.conversation_id })).json() as DiagnosticTurnResponse;
    expect(repeat).toEqual(after);
    expect(await charged()).toBe(before);
  });

  it("answers 404 for another account's conversation, and 409/422 for wrong answers", async () => {
    const t = (await turn(first)).json() as DiagnosticTurnResponse;
    const stranger = await turn(
      { conversation_id: t.conversation_id, response: { action_id: t.next_action!.id, value: null } },
      { auth: b.authorization },
    );
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().code).toBe('session_not_found');
    const wrong = await turn({
      conversation_id: t.conversation_id,
      response: { action_id: 'nope', value: 1 },
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().code).toBe('action_mismatch');
    const type = t.next_action!.expected.type;
    const badValue = type === 'boolean' ? 'perhaps' : type === 'number' ? false : 42;
    const bad = await turn({
      conversation_id: t.conversation_id,
      response: { action_id: t.next_action!.id, value: badValue },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().code).toBe('invalid_response');
  });

  it('asks for what the first turn lacks', async () => {
    const res = await turn({ brand: UNIT.brand });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(['model', 'error_code']);
    const answered = await turn({ ...first, response: { action_id: 'x', value: true } });
    expect(answered.statusCode).toBe(400);
    expect(answered.json().errors[0].field).toBe('response');
    const none = await turn({ message: 'hello' });
    expect(none.statusCode).toBe(400);
    expect(await charged(b.accountId)).toBe(0);
  });

  it('serves Air/Water only', async () => {
    const created = await api.request({
      method: 'POST',
      url: '/v2/diagnostic-sessions',
      headers: { authorization: a.authorization, 'content-type': 'application/json' },
      payload: { brand: UNIT.brand, model: UNIT.model, equipment: 'air_air', symptom: 'no cooling' },
    });
    const id = (created.json() as Session).id;
    const res = await turn({ conversation_id: id });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('unsupported_equipment');
  });
});
