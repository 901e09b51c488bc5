import type { CreateSessionRequest, SessionEquipmentKind } from '../../contract/sessions.js';
import type { ManualFact, SessionInit } from './types.js';

/**
 * The engine's input for a validated create request. The adapter adds what the request does not
 * carry: the equipment when the model tells it, the manual's facts for the code and model (from the
 * bundle) and the id it persists under.
 */
export function sessionInitFromRequest(
  request: CreateSessionRequest & { equipment: SessionEquipmentKind },
  extra: { manualFacts?: ManualFact[]; id?: string; noManual?: SessionInit['noManual'] } = {},
): SessionInit {
  const init: SessionInit = { equipment: request.equipment, brand: request.brand, model: request.model };
  if (request.error_code !== undefined) init.code = request.error_code;
  if (request.symptom !== undefined) init.symptom = request.symptom;
  if (request.context !== undefined) init.context = { ...request.context };
  if (request.readings !== undefined) init.readings = request.readings.map((r) => ({ ...r }));
  if (request.budget !== undefined) init.budget = request.budget;
  if (request.language !== undefined) init.language = request.language;
  if (extra.manualFacts !== undefined) init.manualFacts = extra.manualFacts;
  if (extra.id !== undefined) init.id = extra.id;
  if (extra.noManual !== undefined) init.noManual = extra.noManual;
  return init;
}
