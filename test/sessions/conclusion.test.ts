import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  nextAction,
  respond,
  type SessionState,
} from '../../src/engine/sessions/index.js';
import { fixtureKnowledge } from './fixture.js';

const base = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };
const unknown = { unknown: true } as const;

function skip(s: SessionState): SessionState {
  return respond(s, { action_id: s.next_action_id!, value: unknown });
}

describe('settling below the threshold', () => {
  const k = fixtureKnowledge();
  // A low gauge makes the leak lead at 0.78: above the settling bar (0.7), below the threshold (0.85).
  const leakLeads = { ...base, readings: [{ quantity: 'gauge', value: 0.5 }] };

  it('asks the checks that could still unseat the leader before anything else', () => {
    const s = createSession(k, leakLeads);
    expect(s.posterior.leak).toBeGreaterThan(0.7);
    expect(s.posterior.leak).toBeLessThan(0.85);
    expect(s.status).toBe('active');
    // A dirty filter would hand the lead to the clog, a bad probe to the worn part.
    expect(['look_filter', 'probe_part']).toContain(s.next_action_id);
  });

  it('concludes on the leader once no check left could change the conclusion', () => {
    let s = createSession(k, leakLeads);
    const asked: string[] = [];
    while (s.status === 'active') {
      asked.push(s.next_action_id!);
      s = skip(s);
    }
    expect(asked.sort()).toEqual(['look_filter', 'probe_part']);
    expect(s.status).toBe('concluded');
    expect(s.outcome).toMatchObject({ reason: 'evidence_settled', cause_id: 'leak', action_id: 'fix_leak' });
    expect(s.outcome!.probability).toBeLessThan(0.85);
  });

  it('never settles on a leader below the bar: it escalates instead', () => {
    let s = createSession(k, { ...base, readings: [{ quantity: 'look', value: 'dirty' }] });
    expect(s.posterior.clog).toBeLessThan(0.7);
    while (s.status === 'active') s = skip(s);
    expect(s.status).toBe('escalated');
    expect(s.outcome!.reason).not.toBe('evidence_settled');
  });
});

describe('a repair that cleared the fault', () => {
  it('concludes on the cause it fixes, with that repair as the action', () => {
    const k = fixtureKnowledge();
    let s = createSession(k, {
      ...base,
      readings: [
        { quantity: 'gauge', value: 0.5 },
        { quantity: 'look', value: 'clean' },
      ],
    });
    expect(s.next_action_id).toBe('fix_leak');
    s = respond(s, { action_id: 'fix_leak', value: true });
    expect(s.status).toBe('concluded');
    expect(s.outcome).toMatchObject({ reason: 'repair_resolved', cause_id: 'leak', action_id: 'fix_leak' });
  });

  it('names the repair that worked rather than the part the cause would otherwise call for', () => {
    // A seized three-way valve calls for a new valve; freeing it is tried first, and when that clears
    // the fault the session says so instead of proposing the new valve.
    const real = loadKnowledge();
    let s = createSession(real, {
      ...base,
      symptom: 'hot water fine but no heating',
      readings: [{ quantity: 'diverter_valve', value: 'stuck_dhw' }],
    });
    const seized = real.causes.find((c) => c.id === 'diverter_valve_stuck')!;
    expect(real.actions.find((a) => a.id === seized.remedy)!.replacement).toBe(true);
    while (s.status === 'active') {
      const action = nextAction(s)!;
      s = respond(s, { action_id: action.id, value: action.id === 'free_diverter_valve' ? true : unknown });
    }
    expect(s.history.map((h) => h.action_id)).toContain('free_diverter_valve');
    expect(s.outcome).toMatchObject({
      reason: 'repair_resolved',
      cause_id: 'diverter_valve_stuck',
      action_id: 'free_diverter_valve',
    });
  });
});
