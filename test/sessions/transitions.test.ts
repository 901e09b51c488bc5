import { describe, expect, it } from 'vitest';
import {
  ActionMismatchError,
  close,
  createSession,
  InvalidResponseError,
  NothingToUndoError,
  respond,
  SessionClosedError,
  SessionFinishedError,
  undo,
} from '../../src/engine/sessions/index.js';
import { fixtureKnowledge } from './fixture.js';

const base = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

describe('undo', () => {
  const k = fixtureKnowledge();

  it('replays the session without the last answer', () => {
    const s0 = createSession(k, base);
    const s1 = respond(s0, { action_id: s0.next_action_id!, value: valueFor(s0.next_action_id!) });
    expect(s1.posterior).not.toEqual(s0.posterior);
    expect(undo(s1)).toEqual(s0);
  });

  it('reopens a session that had concluded', () => {
    let s = createSession(k, { ...base, readings: [{ quantity: 'look', value: 'dirty' }] });
    while (s.status === 'active')
      s = respond(s, { action_id: s.next_action_id!, value: valueFor(s.next_action_id!) });
    expect(s.status).toBe('concluded');
    const back = undo(s);
    expect(back.status).toBe('active');
    expect(back.outcome).toBeNull();
    expect(back.next_action_id).toBe(s.history[s.history.length - 1]!.action_id);
  });

  it('refuses when there is nothing to undo or the session is closed', () => {
    const s = createSession(k, base);
    expect(() => undo(s)).toThrow(NothingToUndoError);
    const answered = respond(s, { action_id: s.next_action_id!, value: { unknown: true } });
    expect(() => undo(close(answered))).toThrow(SessionClosedError);
  });
});

/** Answers that point at the clogged filter. */
function valueFor(actionId: string): string | number | boolean {
  const values: Record<string, string | number | boolean> = {
    read_gauge: 1.5,
    look_filter: 'dirty',
    probe_part: 'good',
    odd_check: 'a',
    ask_warranty: false,
    fix_leak: false,
    clean_filter: true,
  };
  return values[actionId] ?? false;
}

describe('typed errors', () => {
  const k = fixtureKnowledge();
  const s = createSession(k, base);
  const pending = s.next_action_id!;

  it('rejects an answer to another action than the pending one', () => {
    const other = pending === 'read_gauge' ? 'look_filter' : 'read_gauge';
    const error = (() => {
      try {
        respond(s, { action_id: other, value: 1 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ActionMismatchError);
    expect(error).toMatchObject({ code: 'action_mismatch', status: 409, expected: pending, received: other });
  });

  it('rejects a value of the wrong type or outside the choices', () => {
    const gauge = createSession(k, { ...base, readings: [{ quantity: 'look', value: 'clean' }] });
    const action = gauge.next_action_id!;
    const expected = gauge.model.actions.find((a) => a.id === action)!.expected.type;
    const wrong = expected === 'number' ? 'high' : 12;
    expect(() => respond(gauge, { action_id: action, value: wrong })).toThrow(InvalidResponseError);
    const look = createSession(k, { ...base, readings: [{ quantity: 'gauge', value: 1.5 }] });
    const lookAction = look.model.actions.find((a) => a.id === look.next_action_id)!;
    if (lookAction.expected.type === 'choice') {
      expect(() => respond(look, { action_id: lookAction.id, value: 'purple' })).toThrow(/expects one of/);
    }
    expect(() => respond(s, { action_id: pending, value: { unknown: false } as never })).toThrow(
      InvalidResponseError,
    );
    expect(() => respond(s, { action_id: pending, value: Number.NaN })).toThrow(InvalidResponseError);
  });

  it('rejects initial readings of unknown quantities or wrong types', () => {
    expect(() => createSession(k, { ...base, readings: [{ quantity: 'nope', value: 1 }] })).toThrow(
      InvalidResponseError,
    );
    expect(() => createSession(k, { ...base, readings: [{ quantity: 'gauge', value: 'high' }] })).toThrow(
      InvalidResponseError,
    );
  });

  it('refuses responses on a closed session, and on a finished one', () => {
    const closed = close(s);
    expect(closed.status).toBe('closed');
    expect(closed.outcome).toMatchObject({ kind: 'closed', reason: 'closed_by_user' });
    expect(() => respond(closed, { action_id: pending, value: 1 })).toThrow(SessionClosedError);
    expect(close(closed)).toBe(closed);

    let done = createSession(k, { ...base, readings: [{ quantity: 'look', value: 'dirty' }] });
    while (done.status === 'active') {
      done = respond(done, { action_id: done.next_action_id!, value: valueFor(done.next_action_id!) });
    }
    expect(() => respond(done, { action_id: 'clean_filter', value: true })).toThrow(SessionFinishedError);
    const closedDone = close(done);
    expect(closedDone.closed_from).toBe('concluded');
    expect(closedDone.outcome).toEqual(done.outcome);
  });
});
