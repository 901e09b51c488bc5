/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009): several orderings of the same items
 * combined by rank, each item scoring the sum over the orderings of 1 / (FUSION_K + its rank there). Ranks,
 * not scores, are added, so orderings on different scales combine without weights to fit, and an item
 * first in one ordering and far down the other falls behind one near the top of both.
 */

/** The constant of the original paper, not fitted here: 30, 60, 100 and 1,000 ranked the shared questions alike. */
export const FUSION_K = 60;

/**
 * Competition ranks of scores, best (highest) first, from 1: equal scores share a rank and the next one
 * skips ("1, 2, 2, 4"), so that items the ordering cannot tell apart stay tied after fusion.
 */
export function competitionRanks(scores: readonly number[]): number[] {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  const ranks = new Array<number>(scores.length);
  order.forEach((item, position) => {
    const previous = order[position - 1];
    ranks[item] =
      previous !== undefined && scores[previous] === scores[item] ? ranks[previous]! : position + 1;
  });
  return ranks;
}

/** The fused score of each item over several orderings, each given as the items' scores (same length). */
export function reciprocalRankFusion(orderings: readonly (readonly number[])[]): number[] {
  const fused = new Array<number>(orderings[0]?.length ?? 0).fill(0);
  for (const scores of orderings) {
    competitionRanks(scores).forEach((rank, i) => {
      fused[i]! += 1 / (FUSION_K + rank);
    });
  }
  return fused;
}
