/**
 * Choosing a question's candidate chunks from the full-text index's postings: each chunk is counted by how
 * many words of the question it holds (a word counts once, whichever of its terms matched) times the
 * weight of the first of the question's terms it holds (terms come word by word, each word's exact form
 * first); the best are those with the highest product, ties by rowid. This is the estimate the SQL
 * candidate query computed (its `ORDER BY n * s` read the first posting's weight, not the `sum(s)` its
 * alias named), kept as it is: ordering by the summed weight instead was measured and lost recall without
 * a brand at 100,000 pages (BENCHMARKS.md, search at scale, 2026-11-26 round on the candidate count).
 * Counted here over typed arrays indexed by chunk rowid rather than by GROUP BY in SQL: grouping 20,000
 * postings in SQLite's sorter was most of the candidate query at 100,000 pages.
 */
export class CandidateCounter {
  /** The counting round a rowid was last touched in (0: never); saves clearing the arrays per question. */
  private stamp: Int32Array;
  private words: Int32Array;
  private lastWord: Int32Array;
  /** The weight of the first term a chunk was found by in this round. */
  private firsts: Float64Array;
  private round = 0;
  private readonly touched: number[] = [];

  constructor(size: number) {
    this.stamp = new Int32Array(size);
    this.words = new Int32Array(size);
    this.lastWord = new Int32Array(size);
    this.firsts = new Float64Array(size);
  }

  /** Starts counting a new question. */
  begin(): void {
    this.touched.length = 0;
    if (this.round === 0x7fffffff) {
      this.stamp.fill(0);
      this.round = 0;
    }
    this.round++;
  }

  /**
   * The postings of one term: the chunks (rowids) holding a term of word `word` with weight `weight`,
   * those outside `allowed` (a bit set over rowids) skipped when it is given. Terms are added in the
   * question's order, all of one word after the other, so a word is counted once per chunk. One loop
   * over the whole list, with the arrays in locals: a new process runs it before V8 has optimised it
   * (the first searches), where a call per posting cost several times the SQL it replaced.
   */
  addPostings(rowids: readonly number[], word: number, weight: number, allowed?: Uint32Array): void {
    let last = -1;
    for (let i = 0; i < rowids.length; i++) if (rowids[i]! > last) last = rowids[i]!;
    if (last >= this.stamp.length) this.grow(last + 1);
    const { stamp, words, lastWord, firsts, touched, round } = this;
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i]!;
      if (allowed !== undefined && ((allowed[rowid >>> 5] ?? 0) & (1 << (rowid & 31))) === 0) continue;
      if (stamp[rowid] !== round) {
        stamp[rowid] = round;
        words[rowid] = 1;
        lastWord[rowid] = word;
        firsts[rowid] = weight;
        touched.push(rowid);
      } else if (lastWord[rowid] !== word) {
        lastWord[rowid] = word;
        words[rowid]! += 1;
      }
    }
  }

  /** The best `limit` rowids counted since `begin`, best first (words x first weight, then rowid). */
  top(limit: number): number[] {
    const touched = this.touched;
    const keys = new Float64Array(touched.length);
    for (let i = 0; i < touched.length; i++) {
      const rowid = touched[i]!;
      keys[i] = this.words[rowid]! * this.firsts[rowid]!;
    }
    let chosen: number[];
    if (touched.length <= limit) chosen = [...touched];
    else {
      // The limit-th best key, then every rowid above it and as many at it as fit, lowest rowids first.
      const threshold = kthLargest(keys.slice(), limit - 1);
      chosen = [];
      const tied: number[] = [];
      for (let i = 0; i < touched.length; i++) {
        if (keys[i]! > threshold) chosen.push(touched[i]!);
        else if (keys[i] === threshold) tied.push(touched[i]!);
      }
      // A typed array sorts numbers natively, without a comparison function: ties may be thousands.
      for (const rowid of Int32Array.from(tied).sort()) {
        if (chosen.length >= limit) break;
        chosen.push(rowid);
      }
    }
    const key = (rowid: number) => this.words[rowid]! * this.firsts[rowid]!;
    return chosen.sort((a, b) => key(b) - key(a) || a - b);
  }

  private grow(size: number): void {
    const grown = (from: Int32Array) => {
      const to = new Int32Array(size);
      to.set(from);
      return to;
    };
    this.stamp = grown(this.stamp);
    this.words = grown(this.words);
    this.lastWord = grown(this.lastWord);
    const firsts = new Float64Array(size);
    firsts.set(this.firsts);
    this.firsts = firsts;
  }
}

/** The k-th largest value (k from 0) of `values`, which it reorders (Hoare's selection). */
export function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}
