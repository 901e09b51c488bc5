import { describe, expect, it } from 'vitest';
import { createSession, loadKnowledge } from '../../src/engine/sessions/index.js';

// A technician's description rarely repeats the knowledge's phrase word for word: a plural, an article
// more or less, a word between. The same complaint worded so must be recognised as the phrase is, and a
// negation must never be read as the statement it denies.
const real = loadKnowledge();
const unit = { equipment: 'air_water' as const, brand: 'Acme', model: 'HP-1' };

function recognised(symptom: string): string[] {
  return [...(createSession(real, { ...unit, symptom }).model.symptoms ?? [])].sort();
}

function stated(symptom: string) {
  return (createSession(real, { ...unit, symptom }).model.stated ?? []).map((r) => [r.quantity, r.outcome]);
}

describe('a complaint worded otherwise than the knowledge phrase', () => {
  it('finds a phrase through a plural, a feminine ending and articles', () => {
    // The knowledge writes "bruit d air"; "des bruits d'air" and "bruit de l'air" are the same complaint.
    const phrase = recognised("bruit d'air dans le circuit");
    expect(phrase).toContain('air_noise');
    expect(recognised("des bruits d'air dans les radiateurs")).toEqual(expect.arrayContaining(['air_noise']));
    expect(recognised("un bruit de l'air au démarrage")).toEqual(expect.arrayContaining(['air_noise']));
    // "pression d eau" with the article written out, and "pressions" in the plural.
    expect(recognised("la pression de l'eau chute chaque semaine")).toContain('pressure_mentioned');
  });

  it('lets one word stand between two words of a phrase, but never a negation', () => {
    expect(recognised('des bruits importants d air')).toContain('air_noise');
    expect(stated('le débit est normal')).toEqual([['water_flow', 'normal']]);
    expect(stated("le débit n'est pas normal")).toEqual([]);
    expect(stated('flow is not normal')).toEqual([]);
    expect(stated('débit non conforme')).toEqual([]);
    // A negation that is the outcome phrase itself still states it.
    expect(stated("purgeur ouvert, pas d'air")).toEqual([]); // two clauses: the subject is alone in the first
    expect(stated("pas d'air au purgeur")).toEqual([['purger_state', 'no_air']]);
  });

  it('keeps words apart that only share a beginning', () => {
    // "basse" (low) and "bas" are different words to the matcher; "anormal" is not "normal".
    expect(stated('débit anormal')).toEqual([]);
  });
});
