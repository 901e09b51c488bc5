import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge, respond } from '../../src/engine/sessions/index.js';
import type { SessionState } from '../../src/engine/sessions/types.js';

/** Every action a session asks when each is answered "unknown", up to its end. */
function asked(start: SessionState): string[] {
  const ids: string[] = [];
  let s = start;
  while (s.status === 'active' && s.next_action_id) {
    ids.push(s.next_action_id);
    s = respond(s, { action_id: s.next_action_id, value: { unknown: true } });
  }
  return ids;
}

describe('a session opened on a fault code', () => {
  const k = loadKnowledge();
  const reading = k.settings.code_reading!;
  const base = {
    equipment: 'air_water' as const,
    brand: 'Acme',
    model: 'AW-8',
    symptom: 'The unit stopped and does not restart.',
  };

  it('knows the display shows a code: it never asks, and weighs what a shown code tells', () => {
    expect(reading).toBeDefined();
    const display = k.actions.find((a) => a.quantity === reading.quantity)!;
    const withCode = createSession(k, { ...base, code: 'X1' });
    const without = createSession(k, base);
    expect(asked(withCode)).not.toContain(display.id);
    // The reference fault tree names a control board as a cause that shows a code.
    expect(withCode.posterior.control_board_fault!).toBeGreaterThan(without.posterior.control_board_fault!);
    // The code alone is no answer: the session still has to ask before it concludes.
    expect(withCode.status).toBe('active');
  });

  it('gives way to the display read on site', () => {
    // The technician finds no code standing on the display (it cleared since the call).
    const other = 'none';
    const read = createSession(k, {
      ...base,
      code: 'X1',
      readings: [{ quantity: reading.quantity, value: other }],
    });
    const without = createSession(k, { ...base, readings: [{ quantity: reading.quantity, value: other }] });
    expect(read.posterior.control_board_fault!).toBeCloseTo(without.posterior.control_board_fault!, 12);
  });
});
