import { describe, expect, it } from 'vitest';
import {
  createSession,
  loadKnowledge,
  nextAction,
  respond,
  type SessionInit,
  type SessionState,
  undo,
  validateKnowledge,
} from '../../src/engine/sessions/index.js';
import { fixtureKnowledge, RAW_FIXTURE } from './fixture.js';

const base = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

/** The description and two readings make the worn part (a replacement) dominate at 0.81. */
const swapLeads: SessionInit = {
  ...base,
  symptom: 'grinding noise',
  readings: [
    { quantity: 'gauge', value: 1.5 },
    { quantity: 'look', value: 'clean' },
  ],
  threshold: 0.75,
  replacementThreshold: 0.8,
};

function answer(s: SessionState, value: SessionState['history'][number]['answer']): SessionState {
  return respond(s, {
    action_id: s.next_action_id!,
    value: 'value' in value ? value.value : { unknown: true },
  });
}

describe('no part replacement while a cheaper check could rule its cause out', () => {
  const k = fixtureKnowledge();

  it('asks the ruling-out check before concluding on a part swap', () => {
    const s = createSession(k, swapLeads);
    expect(s.posterior.swap).toBeGreaterThan(0.8);
    expect(s.status).toBe('active');
    expect(s.next_action_id).toBe('probe_part');
  });

  it('concludes with the replacement once the check confirms and the warranty is out', () => {
    let s = createSession(k, swapLeads);
    s = answer(s, { value: 'bad' });
    expect(s.next_action_id).toBe('ask_warranty');
    s = answer(s, { value: false });
    expect(s.status).toBe('concluded');
    expect(s.outcome).toMatchObject({ kind: 'cause_found', cause_id: 'swap', action_id: 'replace_part' });
  });

  it('hands a unit under warranty to the manufacturer instead of swapping the part', () => {
    let s = createSession(k, swapLeads);
    s = answer(s, { value: 'bad' });
    s = answer(s, { value: true });
    expect(s.status).toBe('escalated');
    expect(s.outcome).toMatchObject({ reason: 'under_warranty', cause_id: 'swap', escalation: 'warranty' });
  });

  it('drops the part when the check rules it out', () => {
    let s = createSession(k, swapLeads);
    s = answer(s, { value: 'good' });
    expect(s.posterior.swap).toBeLessThan(0.5);
    expect(s.outcome?.action_id).not.toBe('replace_part');
  });

  it('escalates rather than propose the part when no turn is left for the check', () => {
    const s = createSession(k, { ...swapLeads, budget: 0 });
    expect(s.status).toBe('escalated');
    expect(s.outcome).toMatchObject({ reason: 'budget_spent', cause_id: null });
    expect(s.outcome!.repair_plan).toContain('replace_part');
  });

  it('lets the session go on when the technician cannot make the check', () => {
    let s = createSession(k, swapLeads);
    s = answer(s, { unknown: true });
    expect(s.next_action_id).toBe('ask_warranty');
  });

  it('never asks for a part swap as a step, on the fixture or on the real knowledge', () => {
    const sessions: SessionState[] = [createSession(k, swapLeads), createSession(k, base)];
    const real = loadKnowledge();
    sessions.push(
      createSession(real, { ...base, code: '7H', symptom: 'circulateur bruyant, raclement au démarrage' }),
    );
    sessions.push(
      createSession(real, { equipment: 'air_air', brand: 'X', model: 'Y', symptom: 'compressor noise' }),
    );
    for (let s of sessions) {
      while (s.status === 'active') {
        expect(nextAction(s)!.replacement).toBe(false);
        s = respond(s, { action_id: s.next_action_id!, value: { unknown: true } });
      }
    }
  });
});

describe('action choice', () => {
  it('starts with cheap observations before invasive work', () => {
    const real = loadKnowledge();
    for (const init of [
      { ...base, code: '7H' },
      { equipment: 'air_air' as const, brand: 'X', model: 'Y', symptom: 'blows lukewarm air in cooling' },
      { ...base, symptom: 'no heating but the hot water works' },
    ]) {
      const first = nextAction(createSession(real, init))!;
      expect(first.invasiveness).toBe(1);
      expect(first.replacement).toBe(false);
    }
  });

  it('prefers the observation with the best information gain per minute', () => {
    const s = createSession(fixtureKnowledge(), base);
    // the gauge (leak, the likeliest cause) and the filter look cost about the same; the probe costs more
    expect(['read_gauge', 'look_filter']).toContain(s.next_action_id);
  });
});

describe('escalation', () => {
  it('escalates when the unknown cause dominates', () => {
    const raw = structuredClone(RAW_FIXTURE);
    raw.settings.residual.prior = 0.3;
    raw.causes.causes[0]!.effects.odd = { a: 'weak' };
    const k = validateKnowledge(raw);
    // no cause explains "b": the residual's flatter likelihood wins (0.3 * 0.19 against 0.7 * 0.05)
    const s = createSession(k, { ...base, readings: [{ quantity: 'odd', value: 'b' }] });
    expect(s.posterior.unknown).toBeGreaterThan(0.5);
    expect(s.status).toBe('escalated');
    expect(s.outcome).toMatchObject({
      reason: 'residual_dominates',
      cause_id: null,
      action_id: 'call_maker',
    });
    expect(s.outcome!.repair_plan.length).toBeGreaterThan(0);
  });

  it('escalates when the turn budget is spent', () => {
    let s = createSession(fixtureKnowledge(), { ...base, budget: 2 });
    s = answer(s, { unknown: true });
    expect(s.status).toBe('active');
    s = answer(s, { unknown: true });
    expect(s.status).toBe('escalated');
    expect(s.history).toHaveLength(2);
    expect(s.outcome).toMatchObject({ reason: 'budget_spent', kind: 'escalation' });
  });

  it('needs an answer before concluding, however sure the description makes it', () => {
    const raw = structuredClone(RAW_FIXTURE);
    raw.causes.causes[2]!.prior = { air_water: 1000 };
    const s = createSession(validateKnowledge(raw), { ...base, threshold: 0.6, replacementThreshold: 0.6 });
    expect(s.posterior.swap).toBeGreaterThan(0.85);
    expect(s.status).toBe('active');
  });

  it('escalates a cause whose remedy is a hand-over, with the cause named', () => {
    const k = loadKnowledge();
    let s = createSession(k, {
      ...base,
      code: 'U0',
      symptom: 'Code after a software update; the installer menu is locked and needs the factory tool',
    });
    while (s.status === 'active' && s.history.length < 12) {
      const action = nextAction(s)!;
      const value = action.quantity === 'controller_lock' ? 'service_lock' : { unknown: true as const };
      s = respond(s, { action_id: action.id, value });
    }
    expect(s.status).toBe('escalated');
    expect(s.outcome).toMatchObject({
      reason: 'cause_requires_escalation',
      cause_id: 'board_config_locked',
      escalation: 'manufacturer_service',
    });
  });
});

describe('determinism', () => {
  function run(init: SessionInit): SessionState {
    const k = loadKnowledge();
    let s = createSession(k, init);
    const answers: Record<string, unknown> = { inspect_air_vent: 'releases_air', read_water_pressure: 1.4 };
    while (s.status === 'active') {
      const a = nextAction(s)!;
      const v = answers[a.id];
      s = respond(s, {
        action_id: a.id,
        value: v === undefined ? { unknown: true } : (v as string | number),
      });
    }
    return s;
  }

  it('gives equal sessions for equal inputs, ids included', () => {
    const init: SessionInit = { ...base, code: '7H', symptom: 'flow error after the circuit was drained' };
    const a = run(init);
    const b = run(init);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.id).toMatch(/^ses_[0-9a-f]{24}$/);
  });

  it('gives another id for other inputs, and keeps an id given by the caller', () => {
    const k = fixtureKnowledge();
    expect(createSession(k, base).id).not.toBe(createSession(k, { ...base, code: 'E1' }).id);
    expect(createSession(k, { ...base, id: 'ses_custom' }).id).toBe('ses_custom');
  });

  it('breaks ties between equally good actions the same way every time', () => {
    const raw = structuredClone(RAW_FIXTURE);
    // two identical observations: the one listed first must win, every time
    const twin = { ...structuredClone(raw.actions.actions[1]!), id: 'look_filter_twin' };
    raw.actions.actions.splice(2, 0, twin);
    const k = validateKnowledge(raw);
    const firsts = new Set(Array.from({ length: 5 }, () => createSession(k, base).next_action_id));
    expect(firsts.size).toBe(1);
  });
});

describe('a technician who cannot read what is asked', () => {
  function knowledgeWith(streak: number, suspectAt?: number) {
    const raw = structuredClone(RAW_FIXTURE);
    Object.assign(raw.settings.selection, { unanswered_streak: streak });
    if (suspectAt !== undefined) Object.assign(raw.settings.conclusion, { suspect_at: suspectAt });
    return validateKnowledge(raw);
  }

  it('stops asking after the streak of unanswered steps and hands the job on with the repairs left', () => {
    let s = createSession(knowledgeWith(2), base);
    s = answer(s, { unknown: true });
    expect(s.status).toBe('active');
    s = answer(s, { unknown: true });
    expect(s.status).toBe('escalated');
    expect(s.history).toHaveLength(2);
    expect(s.outcome).toMatchObject({
      kind: 'escalation',
      reason: 'readings_unavailable',
      cause_id: null,
      action_id: 'call_maker',
    });
    expect(s.outcome!.repair_plan.length).toBeGreaterThan(0);
  });

  it('takes the hand-on back with undo: the last step is asked again', () => {
    let s = createSession(knowledgeWith(2), base);
    s = answer(s, { unknown: true });
    const second = s.next_action_id;
    s = answer(s, { unknown: true });
    expect(s.status).toBe('escalated');
    s = undo(s);
    expect(s.status).toBe('active');
    expect(s.outcome).toBeNull();
    expect(s.next_action_id).toBe(second);
  });

  it('counts the streak from the last answer with a value', () => {
    let s = createSession(knowledgeWith(2), base);
    s = answer(s, { unknown: true });
    // the gauge inside its range: a reading with a value, which tells too little to conclude
    s = respond(s, { action_id: 'read_gauge', value: 1.5 });
    s = answer(s, { unknown: true });
    expect(s.history.map((h) => 'value' in h.answer)).toEqual([false, true, false]);
    expect(s.status).toBe('active');
    s = answer(s, { unknown: true });
    expect(s.status).toBe('escalated');
    expect(s.outcome?.reason).toBe('readings_unavailable');
  });

  it('names the leading cause as the suspect only from suspect_at, with the escalation as the action', () => {
    const handOn = (suspectAt: number) => {
      let s = createSession(knowledgeWith(2, suspectAt), base);
      s = answer(s, { unknown: true });
      return answer(s, { unknown: true });
    };
    const named = handOn(0.05);
    const leader = Object.entries(named.posterior)
      .filter(([id]) => id !== 'unknown')
      .sort((a, b) => b[1] - a[1])[0]!;
    expect(leader[1]).toBeGreaterThan(0.05);
    expect(named.outcome).toMatchObject({ reason: 'readings_unavailable', cause_id: leader[0] });
    expect(named.outcome!.probability).toBeCloseTo(leader[1], 6);
    expect(named.outcome!.action_id).toBe('call_maker');
    expect(named.outcome!.repair_plan.length).toBeGreaterThan(0);
    expect(handOn(0.95).outcome).toMatchObject({ reason: 'readings_unavailable', cause_id: null });
  });

  it('still asks the warranty before a part swap when readings stopped coming', () => {
    let s = createSession(knowledgeWith(1), swapLeads);
    expect(s.next_action_id).toBe('probe_part');
    s = answer(s, { unknown: true });
    expect(s.next_action_id).toBe('ask_warranty');
  });

  it('on the real knowledge, stops the demo session after three unanswered steps', () => {
    let s = createSession(loadKnowledge(), { ...base, code: 'E9' });
    for (let i = 0; i < 3; i++) s = answer(s, { unknown: true });
    expect(s.status).toBe('escalated');
    expect(s.history).toHaveLength(3);
    expect(s.outcome?.reason).toBe('readings_unavailable');
    expect(s.outcome?.escalation).not.toBeNull();
  });
});
