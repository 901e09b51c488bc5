import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge, nextAction, respond } from '../../src/engine/sessions/index.js';
import { toPublic } from '../../src/engine/sessions/public.js';

const k = loadKnowledge();

/** A session on a flow fault whose technician can read nothing: it hands the job on after three steps. */
function handedOn() {
  let s = createSession(k, {
    equipment: 'air_water',
    brand: 'Acme',
    model: 'HP-1',
    symptom: 'flow switch fault, the unit stops',
  });
  while (s.status === 'active') s = respond(s, { action_id: nextAction(s)!.id, value: { unknown: true } });
  return s;
}

describe('the repairs a hand-on leaves, with what must come first', () => {
  it('says it in the session language: a part swap waits for a check, a top-up for the gauge', () => {
    const s = handedOn();
    expect(s.status).toBe('escalated');
    const en = new Map(toPublic(s).outcome!.repair_plan.map((r) => [r.id, r]));
    const fr = new Map(toPublic(s, { lang: 'fr' }).outcome!.repair_plan.map((r) => [r.id, r]));
    const swap = [...en.values()].find((r) => r.part_swap)!;
    expect(swap.condition).toBe('only once a check confirms the part');
    expect(fr.get(swap.id)!.condition).toBe('seulement quand un contrôle a confirmé la pièce');
    expect(en.get('top_up_water_pressure')?.condition).toBe(
      'only after this reading: read the water pressure',
    );
    expect(fr.get('top_up_water_pressure')?.condition).toBe(
      "seulement après ce relevé : relever la pression d'eau",
    );
    for (const r of en.values()) if (!r.part_swap && !r.reading_first) expect(r.condition).toBeNull();
  });
});
