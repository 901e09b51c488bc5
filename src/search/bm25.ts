/** BM25+ scoring of one term in one view of one chunk, and the IDF the candidate estimate shares with it. */

/** BM25+ with less length normalisation than usual, as heading fragments make very short chunks. */
const BM25 = { k: 1.2, b: 0.5, d: 0.5 };

/** Inverse document frequency, BM25's (never negative, so a very common term still adds a little). */
export function idf(df: number, total: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/** BM25+ of one term in one view of one chunk. */
export function bm25(tf: number, df: number, total: number, length: number, average: number): number {
  const { k, b, d } = BM25;
  return idf(df, total) * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * length) / Math.max(average, 1e-9))));
}
