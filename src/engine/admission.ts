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
 * The hashes sit in a fixed table (a "doorkeeper"): a key whose slot another key took since is forgotten
 * and counts as asked once more, so the table's size bounds its memory (4 bytes a slot) and the time a
 * key is remembered (about `slots` other first asks).
 */
export class Admission {
  private readonly table: Uint32Array;
  private readonly mask: number;

  /** `slots` is rounded up to a power of two. */
  constructor(slots = 16_384) {
    let size = 1;
    while (size < slots) size *= 2;
    this.table = new Uint32Array(size);
    this.mask = size - 1;
  }

  /** True when `key` was asked before (its value should be kept); otherwise remembers it and says false. */
  admit(key: string): boolean {
    const h = hash(key);
    const slot = h & this.mask;
    if (this.table[slot] === h) return true;
    this.table[slot] = h;
    return false;
  }
}

/** FNV-1a over the key's UTF-16 code units, never 0 (an empty slot). */
function hash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0 || 1;
}
