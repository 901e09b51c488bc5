/**
 * Which computed values are worth keeping: a key is admitted to a cache on its second ask, not its first.
 *
 * A cache that keeps every value it computes fills with keys asked once (a search nobody repeats, a page
 * image at a width nobody asks for again): at its bound, they take the room of the values that are asked
 * again and again, and their memory is held until they are pushed out. Remembering a key's hash on its
 * first ask and keeping the value from its second costs one more computation for each key that is asked
 * again, and keeps nothing for the keys that are not (BENCHMARKS.md, soak: the one-off searches and page
 * widths of the soak's mix had filled the search caches and the page-image cache).
 *
 * The hashes sit in a fixed table (a "doorkeeper") of buckets of four, each bucket replacing its oldest
 * hash when a fifth key lands in it: the table's size bounds its memory (4 bytes a slot) and how long a
 * key is remembered (about `slots` other first asks), and two keys asked in turn that land in one bucket
 * are both remembered (with one slot per bucket, each would push the other out, and neither would ever be
 * kept).
 */
export class Admission {
  private readonly table: Uint32Array;
  /** Per bucket, the slot the next new hash takes: its oldest. */
  private readonly next: Uint8Array;
  private readonly buckets: number;

  /** `slots` is rounded up to a power of two, at least one bucket. */
  constructor(slots = 16_384) {
    let size = WAYS;
    while (size < slots) size *= 2;
    this.table = new Uint32Array(size);
    this.buckets = size / WAYS;
    this.next = new Uint8Array(this.buckets);
  }

  /** True when `key` was asked before (its value should be kept); otherwise remembers it and says false. */
  admit(key: string): boolean {
    const h = hash(key);
    const bucket = h & (this.buckets - 1);
    const start = bucket * WAYS;
    for (let i = start; i < start + WAYS; i++) if (this.table[i] === h) return true;
    const way = this.next[bucket]!;
    this.table[start + way] = h;
    this.next[bucket] = (way + 1) % WAYS;
    return false;
  }
}

/** Slots per bucket. */
const WAYS = 4;

/** FNV-1a over the key's UTF-16 code units, never 0 (an empty slot). */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}
