import { describe, expect, it } from 'vitest';
import { base, createSession, real } from './scripted.js';

/** The cause a session opened on the description alone puts first. */
function leaderOf(symptom: string): string {
  const s = createSession(real, { ...base, symptom });
  return Object.entries(s.posterior).sort((a, b) => b[1] - a[1])[0]![0];
}

describe('a complaint in everyday words points the session at its usual causes', () => {
  it.each([
    ['water dripping from the safety valve when heating', 'expansion_vessel_flat'],
    ['la soupape de sécurité goutte dès que ça chauffe', 'expansion_vessel_flat'],
    ['pression monte à 3 bar quand ça chauffe puis redescend à froid', 'expansion_vessel_flat'],
    ['condensate dripping from the indoor unit', 'condensate_blocked'],
    ['no hot water, heating ok', 'diverter_valve_stuck'],
    ['ballon ECS ne chauffe plus', 'diverter_valve_stuck'],
    ['radiators cold, pump very noisy', 'air_in_water_circuit'],
    ['pas de bruit de pompe, radiateurs froids', 'circulator_power_fault'],
    ['outdoor fan not spinning, unit stops on high pressure', 'outdoor_fan_fault'],
    ['la PAC disjoncte au démarrage du compresseur', 'compressor_insulation_fault'],
    ['défaut BP en hiver, la PAC se met en sécurité', 'refrigerant_undercharge'],
    ["le différentiel saute dès que la résistance d'appoint s'enclenche", 'dhw_heater_failed'],
    ["fuite d'eau sous l'unité intérieure", 'water_circuit_leak'],
  ])('"%s" -> %s', (text, cause) => {
    expect(leaderOf(text)).toBe(cause);
  });

  it('puts the compressor among the first two when it alone does not start', () => {
    const s = createSession(real, { ...base, symptom: "compressor doesn't start, fan runs" });
    const ranked = Object.entries(s.posterior).sort((a, b) => b[1] - a[1]);
    expect(ranked.slice(0, 2).map(([id]) => id)).toContain('compressor_fault');
  });

  it('reads a refrigerant pressure that climbs as no complaint about the water circuit', () => {
    const s = createSession(real, { ...base, symptom: 'la pression HP monte en chauffe' });
    expect(s.model.stated ?? []).toEqual([]);
    expect(s.model.symptoms).toEqual([]);
    expect(leaderOf('la pression HP monte en chauffe')).not.toBe('expansion_vessel_flat');
  });
});
