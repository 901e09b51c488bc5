/**
 * A structural difference between two JSON values, and its application: how a session stores its model
 * as a reference to a shared base plus what differs (session-model-bases.ts). Written here rather than
 * taken from a library because the state layer needs only this much (objects by key, arrays of
 * `id`-keyed objects by id, other arrays by index, key order kept so that a model reads back as the same
 * JSON text) and the store checks every delta by applying it before relying on it.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * `{ $: value }` replaces; `{ o, d?, k? }` patches an object's keys (`d` deleted, `k` the key order when it
 * is not the base's order with new keys last); `{ e, i? }` patches an array of id-keyed objects (`i` the
 * ids in order when they changed); `{ x, n }` patches another array by index to length `n`.
 */
export type Delta =
  | { $: Json }
  | { o: Record<string, Delta>; d?: string[]; k?: string[] }
  | { e: Record<string, Delta>; i?: string[] }
  | { x: Record<string, Delta>; n: number };

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => jsonEqual(v, b[i]));
  }
  if (isObject(a)) {
    if (!isObject(b)) return false;
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** The ids of an array whose elements are all objects with distinct string ids, else undefined. */
function idsOf(list: Json[]): string[] | undefined {
  const ids: string[] = [];
  for (const v of list) {
    if (!isObject(v) || typeof v.id !== 'string') return undefined;
    ids.push(v.id);
  }
  return new Set(ids).size === ids.length ? ids : undefined;
}

/** What turns `a` into `b`; undefined when they are equal. */
export function diff(a: Json, b: Json): Delta | undefined {
  if (jsonEqual(a, b)) return undefined;
  if (isObject(a) && isObject(b)) {
    const o: Record<string, Delta> = {};
    for (const k of Object.keys(b)) {
      const d = k in a ? diff(a[k]!, b[k]!) : { $: b[k]! };
      if (d) o[k] = d;
    }
    const deleted = Object.keys(a).filter((k) => !(k in b));
    const order = [...Object.keys(a).filter((k) => k in b), ...Object.keys(b).filter((k) => !(k in a))];
    const keys = Object.keys(b);
    return {
      o,
      ...(deleted.length ? { d: deleted } : {}),
      ...(order.every((k, i) => k === keys[i]) ? {} : { k: keys }),
    };
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const ia = idsOf(a);
    const ib = idsOf(b);
    if (ia && ib) {
      const byId = new Map(a.map((v, n) => [ia[n]!, v]));
      const e: Record<string, Delta> = {};
      b.forEach((v, n) => {
        const base = byId.get(ib[n]!);
        const d = base === undefined ? { $: v } : diff(base, v);
        if (d) e[ib[n]!] = d;
      });
      const same = ia.length === ib.length && ia.every((id, n) => id === ib[n]);
      return { e, ...(same ? {} : { i: ib }) };
    }
    const x: Record<string, Delta> = {};
    b.forEach((v, n) => {
      const d = n < a.length ? diff(a[n]!, v) : { $: v };
      if (d) x[n] = d;
    });
    return { x, n: b.length };
  }
  return { $: b };
}

/** `base` with `delta` applied; `base` is left as it was. */
export function applyDelta(base: Json, delta: Delta | undefined): Json {
  if (delta === undefined) return base;
  if ('$' in delta) return delta.$;
  if ('o' in delta) {
    if (!isObject(base)) throw new Error('delta: an object patch on a value that is not an object');
    const deleted = new Set(delta.d ?? []);
    const keys = delta.k ?? [
      ...Object.keys(base).filter((k) => !deleted.has(k)),
      ...Object.keys(delta.o).filter((k) => !(k in base)),
    ];
    const out: { [key: string]: Json } = {};
    for (const k of keys) out[k] = applyDelta(base[k]!, delta.o[k]);
    return out;
  }
  if (!Array.isArray(base)) throw new Error('delta: an array patch on a value that is not an array');
  if ('e' in delta) {
    const ids = idsOf(base) ?? [];
    const byId = new Map(base.map((v, n) => [ids[n]!, v]));
    return (delta.i ?? ids).map((id) => applyDelta(byId.get(id)!, delta.e[id]));
  }
  return Array.from({ length: delta.n }, (_, n) => applyDelta(base[n]!, delta.x[n]));
}
