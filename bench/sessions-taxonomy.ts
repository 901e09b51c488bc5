/**
 * The peer benchmark's public vocabulary (hvac-bench/taxonomy): which of its actions read which of its
 * quantities, each quantity's unit, modalities and nominal ranges, and the kinds of action (the first
 * word of an action id: MES, OBS, REM ...). The simulated technician knows nothing else about a case.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/project-path.js';

export const DEFAULT_TAXONOMY_DIR = path.resolve(PROJECT_ROOT, '../shared/hvac-bench/taxonomy');

export interface TheirQuantity {
  id: string;
  unit: string | null;
  modalities: string[];
  /** Nominal range by condition value ("default" always present when the taxonomy gives a range). */
  nominal: Record<string, [number, number]>;
}

export interface Taxonomy {
  /** Their action id -> the quantity ids it reads. */
  actionQuantities: Record<string, string[]>;
  quantities: Record<string, TheirQuantity>;
  /** First words of their action ids, lower case: the kinds of action. */
  kinds: Set<string>;
}

type Json = Record<string, unknown>;

function readJson(dir: string, name: string): Json {
  return JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Json;
}

function record(v: unknown): Json {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
}

/** Kinds whose actions only read the installation; the others change it (repairs, dismantling, escalation). */
export const READING_KINDS = new Set([
  'mes',
  'obs',
  'test',
  'verif',
  'controle',
  'lecture',
  'recherche',
  'calcul',
]);

export function taxonomyPresent(dir: string): boolean {
  return (
    statSync(path.join(dir, 'action-quantity-map-v3.json'), { throwIfNoEntry: false })?.isFile() === true
  );
}

export function loadTaxonomy(dir: string = DEFAULT_TAXONOMY_DIR): Taxonomy {
  const map = readJson(dir, 'action-quantity-map-v3.json');
  const actionQuantities: Record<string, string[]> = {};
  for (const [id, entry] of Object.entries(record(map.mes))) {
    actionQuantities[id] = (record(entry).quantities as string[] | undefined) ?? [];
  }
  for (const [id, entry] of Object.entries(record(map.obs))) {
    const q = record(entry).quantity;
    actionQuantities[id] = typeof q === 'string' ? [q] : [];
  }
  const quantities: Record<string, TheirQuantity> = {};
  const list = readJson(dir, 'quantities-v3.json').quantities;
  for (const raw of Array.isArray(list) ? list : []) {
    const q = record(raw);
    const id = String(q.quantity_id);
    const nominal: Record<string, [number, number]> = {};
    for (const [k, v] of Object.entries(record(q.nominal))) {
      if (Array.isArray(v) && v.length === 2) nominal[k] = [Number(v[0]), Number(v[1])];
    }
    quantities[id] = {
      id,
      unit: typeof q.unit === 'string' ? q.unit : null,
      modalities: Array.isArray(q.modalities) ? q.modalities.map(String) : [],
      nominal,
    };
  }
  const kinds = new Set<string>();
  const actionsFile = path.join(dir, 'actions-v2.json');
  const ids = statSync(actionsFile, { throwIfNoEntry: false })?.isFile()
    ? ((readJson(dir, 'actions-v2.json').actions as Json[] | undefined) ?? []).map((a) => String(a.action_id))
    : Object.keys(actionQuantities);
  for (const id of ids) kinds.add(id.split('-')[0]!.toLowerCase());
  return { actionQuantities, quantities, kinds };
}

/** The kind of one of their action ids ("MES-DT-EAU" -> "mes"). */
export function kindOf(actionId: string): string {
  return actionId.split('-')[0]!.toLowerCase();
}
