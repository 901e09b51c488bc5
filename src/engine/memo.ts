import { LRUCache } from 'lru-cache';

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

/** An lru-cache computing a missing value from its key, bounded in (estimated) bytes. */
export function memo<V>(maxBytes: number, size: (value: V) => number, make: (key: string) => V) {
  return new LRUCache<string, Box<V>>({
    maxSize: maxBytes,
    sizeCalculation: (box, key) => Math.max(1, MEMO_ENTRY_BYTES + 2 * key.length + size(box.value)),
    memoMethod: (key) => ({ value: make(key) }),
  });
}
