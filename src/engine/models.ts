import type { ModelRow, RangeRow } from '../bundle/reader.js';
import { normModel } from '../text/normalise.js';
import type { CorpusView } from './corpus.js';

export type Resolution =
  | { kind: 'unknown_brand' }
  | { kind: 'no_model'; brand: string }
  | { kind: 'model'; brand: string; model: ModelRow; match: 'exact' | 'alias' | 'fuzzy'; query: string }
  | { kind: 'range'; brand: string; range: RangeRow; models: ModelRow[] }
  /** Several models fit the name as well as each other (an alias shared, or fuzzy ties). */
  | { kind: 'candidates'; brand: string; models: ModelRow[] }
  | { kind: 'unknown_model'; brand: string; suggestions: ModelRow[] };

/**
 * Resolves a brand and model as a technician typed them. Exact name first, then alias, then range name
 * (which never resolves to a model), then, only when `fuzzy` is set, a close name that fits one model
 * better than any other.
 */
export function resolveModel(
  view: CorpusView,
  brandInput: string,
  modelInput: string | null | undefined,
  options: { fuzzy: boolean },
): Resolution {
  const brand = view.brandOf(brandInput);
  if (!brand) return { kind: 'unknown_brand' };
  if (!modelInput?.trim()) return { kind: 'no_model', brand };
  const norm = normModel(modelInput);
  const index = view.modelIndexOf(brand);
  const hits = index.get(norm);
  if (hits && hits.length > 0) {
    const named = hits.filter((h) => h.kind === 'name');
    if (named.length === 1)
      return { kind: 'model', brand, model: named[0]!.model, match: 'exact', query: modelInput };
    if (hits.length === 1)
      return { kind: 'model', brand, model: hits[0]!.model, match: 'alias', query: modelInput };
    return { kind: 'candidates', brand, models: hits.map((h) => h.model) };
  }
  const range = view.rangeByNorm(brand, norm);
  if (range) return { kind: 'range', brand, range, models: view.modelsOfRange(range.id) };
  const close = closeModels(view, brand, norm);
  if (options.fuzzy && close.unique) {
    return { kind: 'model', brand, model: close.models[0]!, match: 'fuzzy', query: modelInput };
  }
  if (options.fuzzy && close.models.length > 1) return { kind: 'candidates', brand, models: close.models };
  return { kind: 'unknown_model', brand, suggestions: close.models };
}

/** Shortest normalised name a fuzzy match starts from: shorter stubs match too much to mean anything. */
const MIN_FUZZY_LENGTH = 5;
/** How many characters a name may have beyond (or lack against) the model's for a prefix match. */
const MAX_SUFFIX_DIFFERENCE = 3;
const DIGIT = /[0-9]/;
/** Distance given to a candidate that only shares the typed prefix: listed, never matched. */
const TOO_FAR = 100;

/**
 * Models whose name or alias is close to `norm`: one is a prefix of the other by a few letters (a
 * suffix such as "-E" left off or added; never digits, which make another product), or one slip apart (see `nearMiss`). `unique` only when exactly one model is
 * close and no other model shares the typed prefix, so that "RWH-4.0" never picks one of several
 * RWH-4.0... models.
 */
export function closeModels(
  view: CorpusView,
  brand: string,
  norm: string,
): { models: ModelRow[]; unique: boolean } {
  if (norm.length < MIN_FUZZY_LENGTH) return { models: [], unique: false };
  const best = new Map<number, { model: ModelRow; distance: number }>();
  const sharePrefix = new Set<number>();
  const consider = (model: ModelRow, distance: number) => {
    const prev = best.get(model.id);
    if (!prev || distance < prev.distance) best.set(model.id, { model, distance });
  };
  for (const [candidate, entries] of view.modelIndexOf(brand)) {
    let distance: number | undefined;
    const diff = Math.abs(candidate.length - norm.length);
    if (candidate.startsWith(norm)) {
      // Every model extending the typed name is a candidate; only a short extension can be a match.
      for (const e of entries) sharePrefix.add(e.model.id);
      distance =
        diff <= MAX_SUFFIX_DIFFERENCE && !DIGIT.test(candidate.slice(norm.length)) ? diff : TOO_FAR + diff;
    } else if (norm.startsWith(candidate)) {
      const extra = norm.slice(candidate.length);
      if (diff <= MAX_SUFFIX_DIFFERENCE && candidate.length >= MIN_FUZZY_LENGTH && !DIGIT.test(extra))
        distance = diff;
    } else if (diff <= 1 && nearMiss(candidate, norm)) {
      distance = 1;
    }
    if (distance !== undefined) for (const e of entries) consider(e.model, distance);
  }
  const ranked = [...best.values()].sort(
    (a, b) => a.distance - b.distance || a.model.name.localeCompare(b.model.name),
  );
  const models = ranked.map((r) => r.model);
  const top = ranked[0];
  const unique =
    top !== undefined &&
    top.distance < TOO_FAR &&
    ranked.filter((r) => r.distance === top.distance).length === 1 &&
    [...sharePrefix].every((id) => id === top.model.id);
  return { models: models.slice(0, 10), unique };
}

/** Characters read for one another on nameplates and displays. */
const CONFUSABLE = new Set(['O0', '0O', 'I1', '1I', 'L1', '1L', 'S5', '5S', 'B8', '8B', 'Z2', '2Z']);

/**
 * One slip apart: a confusable character read for another (O for 0), or one letter added or left out.
 * A different digit is never a slip: model names that differ by a digit are different products.
 */
export function nearMiss(a: string, b: string): boolean {
  if (a.length === b.length) {
    let at = -1;
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) continue;
      if (at >= 0) return false;
      at = i;
    }
    return at >= 0 && CONFUSABLE.has(`${a[at]}${b[at]}`);
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  if (long.length !== short.length + 1) return false;
  let i = 0;
  while (i < short.length && long[i] === short[i]) i++;
  const extra = long[i]!;
  return !DIGIT.test(extra) && long.slice(i + 1) === short.slice(i);
}
