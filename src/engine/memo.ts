import { LRUCache } from 'lru-cache';
import { Admission } from './admission.js';

/** lru-cache holds no null or undefined values: results are boxed so that a miss that found nothing is remembered too. */
export interface Box<V> {
  value: V;
}

/**
 * What one memo entry holds beside its key's characters and its value's estimate, bytes: the box, the
 * value's array or object header, the cache's slot in its key map and index arrays. Measured at 210-220
 * bytes of heap per entry for codes the manuals lack (an empty result) against 120 estimated when this
 * was 64, so a memo of misses held nearly twice its bound (BENCHMARKS.md, soak).
 */
const MEMO_ENTRY_BYTES = 160;

/**
 * Values computed lately but not kept: a lookup asks for each of its keys twice (the diagnostic's two
 * passes), and the second ask is served from here rather than computed again or counted as a second
 * ask of the key. A few diagnostics' worth.
 */
const RECENT_ENTRIES = 256;

/** A memo: `memo(key)` computes a missing value once and keeps it, bounded in (estimated) bytes. */
export interface Memo<V> {
  memo(key: string): Box<V>;
  /** Entries kept and their estimated bytes (for tests and measures). */
  readonly size: number;
  readonly calculatedSize: number;
}

/**
 * An lru-cache computing a missing value from its key, bounded in (estimated) bytes. A value is kept
 * from its key's second ask by another lookup (admission.ts): under the soak's mix, the codes the
 * manuals lack, each asked once, had filled the memos with misses (BENCHMARKS.md, soak).
 */
export function memo<V>(maxBytes: number, size: (value: V) => number, make: (key: string) => V): Memo<V> {
  const kept = new LRUCache<string, Box<V>>({
    maxSize: maxBytes,
    sizeCalculation: (box, key) => Math.max(1, MEMO_ENTRY_BYTES + 2 * key.length + size(box.value)),
  });
  const recent = new LRUCache<string, Box<V>>({ max: RECENT_ENTRIES });
  const admission = new Admission();
  return {
    memo(key) {
      const hit = kept.get(key) ?? recent.get(key);
      if (hit) return hit;
      const box = { value: make(key) };
      if (admission.admit(key)) kept.set(key, box);
      else recent.set(key, box);
      return box;
    },
    get size() {
      return kept.size;
    },
    get calculatedSize() {
      return kept.calculatedSize;
    },
  };
}
