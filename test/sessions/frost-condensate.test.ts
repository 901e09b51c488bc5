import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge } from '../../src/engine/sessions/index.js';

/**
 * The reference fault tree gives patchy frost as an effect of a blocked condensate drain as well as of a
 * failing defrost: a caller who reports frost on the unit keeps both in view, so the look at the drain
 * is what tells them apart.
 */
describe('frost on the unit', () => {
  const knowledge = loadKnowledge();
  const start = (symptom: string) =>
    createSession(knowledge, { equipment: 'air_water', brand: 'unknown', model: 'unknown', symptom });

  it('raises a blocked condensate drain, not only a failing defrost', () => {
    const frost = start("givre par plaques sur l'unité extérieure").posterior;
    const plain = start('la pompe à chaleur est en défaut').posterior;
    expect(frost.condensate_blocked!).toBeGreaterThan(plain.condensate_blocked!);
    expect(frost.defrost_fault!).toBeGreaterThan(plain.defrost_fault!);
  });
});
