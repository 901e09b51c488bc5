import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { applyDelta, type Delta, diff, type Json, jsonEqual } from './json-delta.js';

/**
 * A session's compiled model is about 110 KB of JSON and nearly the same for every session started on one
 * knowledge version. The stores keep one copy per label (the writer's `model_label`, e.g. the knowledge
 * version) in `session_model_bases`, keyed by the SHA-256 of its text, and give each session a reference
 * to it plus what differs, as a delta (json-delta.ts). A session stored before (or whose delta would not be
 * smaller than its model) keeps its full model and no reference. Bases are never deleted: there is one per
 * label, and a base referenced by no session costs one row.
 */
export interface ModelBase {
  hash: string;
  /** The base's JSON text, as stored. */
  text: string;
  value: Json;
}

export function modelHash(json: string): string {
  return crypto.createHash('sha256').update(json, 'utf8').digest('hex');
}

/**
 * What to store for a new session's model over a base: the delta's JSON (`null` when the model is the
 * base), or undefined when the full model is to be stored instead. The delta is applied back and
 * compared before it is relied on.
 */
export function encodeModel(modelJson: string, base: ModelBase): string | undefined {
  const value = JSON.parse(modelJson) as Json;
  const delta = diff(base.value, value);
  if (!jsonEqual(applyDelta(base.value, delta), value)) return undefined;
  const text = JSON.stringify(delta ?? null);
  return text.length < modelJson.length ? text : undefined;
}

/** The model's JSON text from its stored delta over its base. */
export function decodeModel(deltaJson: string, base: Json): string {
  const delta = JSON.parse(deltaJson) as Delta | null;
  return JSON.stringify(applyDelta(base, delta ?? undefined));
}

/**
 * Bases read or written by this process, by hash and by label: a base never changes once stored. A base
 * written by a transaction that then rolled back is not in the database although it is here, so a writer
 * checks that its base row exists (a primary-key read) and writes it again when it does not.
 */
export class ModelBaseCache {
  private readonly byHash = new LRUCache<string, ModelBase>({ max: 32 });
  private readonly byLabel = new LRUCache<string, ModelBase>({ max: 32 });

  base(hash: string): Json | undefined {
    return this.byHash.get(hash)?.value;
  }

  ofLabel(label: string): ModelBase | undefined {
    return this.byLabel.get(label);
  }

  remember(label: string | null, hash: string, text: string): ModelBase {
    const base = { hash, text, value: JSON.parse(text) as Json };
    this.byHash.set(hash, base);
    if (label !== null) this.byLabel.set(label, base);
    return base;
  }
}
