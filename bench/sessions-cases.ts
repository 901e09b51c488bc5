/**
 * Reads the peer benchmark's troubleshooting cases in each of its formats (v2 and v3 JSON lines, AM
 * JSON files) into one shape: the session inputs, the readings a technician would get, and the truth.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { normaliseText } from '../src/engine/sessions/text-match.js';
import type { SessionContext, SessionInit } from '../src/engine/sessions/types.js';
import { CAUSE_MAP, EMITTER_MAP, EQUIPMENT_MAP, OUT_OF_FAMILY } from './sessions-mapping.js';

export type CaseFormat = 'v2' | 'v3' | 'am';

/** One action of a v2 test list or a v3 observation list. */
export interface CaseStep {
  action: string;
  text: string;
  reading: { quantity: string; value?: number; modality?: string } | null;
  resolves: boolean;
  wrongPart: boolean;
}

export interface AmWorld {
  ground: Record<string, unknown>;
  evolution: { action: string; result: Record<string, unknown> }[];
}

export interface BenchCase {
  key: string;
  id: string;
  format: CaseFormat;
  family: string;
  outOfFamily: boolean;
  init: SessionInit;
  narrative: string;
  ageYears: number | null;
  truthLabel: string;
  /** Our causes the case's truth stands for; empty for AM cases, whose truth is free text. */
  trueCauses: string[];
  expectEscalation: boolean;
  expertPath: string[];
  steps: CaseStep[];
  initialReadings: Record<string, number | string>;
  am: AmWorld | null;
}

export interface LoadedCases {
  cases: BenchCase[];
  skipped: { file: string; reason: string }[];
}

type Json = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

function record(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function contextOf(emitter: unknown, regime: unknown): SessionContext {
  const context: SessionContext = {};
  const e = str(emitter) ? EMITTER_MAP[String(emitter)] : undefined;
  if (e) context.emitter = e;
  const r = str(regime);
  if (r === 'ecs') context.mode = 'dhw';
  else if (r === 'chauffage' || (r && /^\d+\s*\/\s*\d+$/.test(r))) context.mode = 'heating';
  return context;
}

function stepsV2(c: Json): CaseStep[] {
  return list(c.tests).map((t) => {
    const test = record(t);
    return {
      action: String(test.action_id ?? ''),
      text: String(test.observation ?? ''),
      reading: null,
      resolves: test.resolves === true,
      wrongPart: test.wrong_part === true,
    };
  });
}

function stepsV3(c: Json): CaseStep[] {
  return list(c.observations).map((o) => {
    const obs = record(o);
    const reading = record(obs.reading);
    const quantity = str(reading.quantity_id);
    return {
      action: String(obs.action_id ?? ''),
      text: String(obs.observation_text ?? ''),
      reading: quantity
        ? {
            quantity,
            ...(typeof reading.value === 'number' ? { value: reading.value } : {}),
            ...(str(reading.modality) ? { modality: String(reading.modality) } : {}),
          }
        : null,
      resolves: obs.resolves === true,
      wrongPart: obs.wrong_part === true,
    };
  });
}

function initialReadings(c: Json): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  for (const [key, raw] of Object.entries(record(c.initial_readings))) {
    if (typeof raw === 'number' || typeof raw === 'string') out[key] = raw;
    else if (raw && typeof raw === 'object') {
      const r = record(raw);
      const id = str(r.quantity_id) ?? key;
      if (typeof r.value === 'number') out[id] = r.value;
      else if (str(r.modality)) out[id] = String(r.modality);
    }
  }
  return out;
}

function fromV2orV3(c: Json, format: 'v2' | 'v3'): BenchCase {
  const id = String(c.id);
  const symptom = record(c.symptom);
  const ctx = record(c.context);
  const family = String(ctx.equipment_type ?? 'pac_air_eau');
  const truthId =
    format === 'v2'
      ? String(record(list(c.hypotheses).find((h) => record(h).true_cause === true)).id ?? '')
      : String(record(c.ground_truth).cause_id ?? '');
  const narrative = String(symptom.narrative ?? '');
  const init: SessionInit = {
    equipment: EQUIPMENT_MAP[family] ?? 'air_water',
    brand: str(ctx.brand) ?? 'unknown',
    model: str(ctx.model) ?? 'unknown',
    symptom: narrative,
    context: contextOf(ctx.emitter, ctx.regime_eau),
  };
  const code = str(symptom.code_present);
  if (code) init.code = code;
  return {
    key: `${format}:${id}`,
    id,
    format,
    family,
    outOfFamily: OUT_OF_FAMILY.has(family),
    init,
    narrative,
    ageYears: typeof ctx.install_age_years === 'number' ? ctx.install_age_years : null,
    truthLabel: truthId,
    trueCauses: CAUSE_MAP[truthId] ?? [],
    expectEscalation: c.escalation_expected !== null && c.escalation_expected !== undefined,
    expertPath: list(c.expert_path).map(String),
    steps: format === 'v2' ? stepsV2(c) : stepsV3(c),
    initialReadings: initialReadings(c),
    am: null,
  };
}

function fromAm(c: Json): BenchCase {
  const id = String(c.id);
  const equipment = record(c.equipement);
  const installation = record(c.installation);
  const ground = record(c.ground_state);
  const truth = record(c.verite);
  const family = String(equipment.famille ?? 'pac_air_eau');
  const code = str(ground.code_defaut);
  const label = str(ground.libelle_code);
  const narrative = [str(c.plainte_initiale), str(installation.particularites), label]
    .filter(Boolean)
    .join('. ');
  const init: SessionInit = {
    equipment: EQUIPMENT_MAP[family] ?? 'air_water',
    brand: str(equipment.marque) ?? 'unknown',
    model: str(equipment.modele) ?? 'unknown',
    symptom: narrative,
    context: contextOf(installation.emetteur, installation.regime_eau),
  };
  if (code && normaliseText(code) !== 'aucun') init.code = code;
  const truthText = String(truth.cause ?? '');
  return {
    key: `am:${id}`,
    id,
    format: 'am',
    family,
    outOfFamily: OUT_OF_FAMILY.has(family),
    init,
    narrative,
    ageYears: typeof equipment.age_ans === 'number' ? equipment.age_ans : null,
    truthLabel: truthText.split(/\s[—–-]\s/)[0] ?? truthText,
    trueCauses: [],
    expectEscalation: c.escalade_attendue !== null && c.escalade_attendue !== undefined,
    expertPath: list(c.chemin_expert).map(String),
    steps: [],
    initialReadings: {},
    am: {
      ground,
      evolution: list(c.evolution).map((e) => ({
        action: String(record(e).si_action ?? ''),
        result: record(record(e).alors),
      })),
    },
  };
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (name.endsWith('.json') || name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

/** Every case under the folder, in a stable order; files that are not cases are listed as skipped. */
export function loadCases(dir: string): LoadedCases {
  const cases: BenchCase[] = [];
  const skipped: LoadedCases['skipped'] = [];
  for (const file of walk(dir)) {
    const rel = path.relative(dir, file);
    const text = readFileSync(file, 'utf8');
    const docs: unknown[] = [];
    try {
      if (file.endsWith('.jsonl')) {
        for (const line of text.split('\n')) if (line.trim()) docs.push(JSON.parse(line));
      } else {
        docs.push(JSON.parse(text));
      }
    } catch (error) {
      skipped.push({ file: rel, reason: `not JSON: ${(error as Error).message}` });
      continue;
    }
    for (const doc of docs) {
      const c = record(doc);
      if ('$schema' in c || 'properties' in c) {
        skipped.push({ file: rel, reason: 'a schema, not a case' });
      } else if (c.version === 2 && Array.isArray(c.tests)) {
        cases.push(fromV2orV3(c, 'v2'));
      } else if (c.version === 3 && Array.isArray(c.observations)) {
        cases.push(fromV2orV3(c, 'v3'));
      } else if ('ground_state' in c && 'verite' in c) {
        cases.push(fromAm(c));
      } else {
        skipped.push({ file: rel, reason: 'unrecognised case format' });
      }
    }
  }
  return { cases, skipped };
}
