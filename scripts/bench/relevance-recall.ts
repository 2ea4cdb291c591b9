// Recall@k of a page of search results against an exhaustive ranking by the same scoring function, counting
// ties as the same answer: when many matches share the k-th best score (one mention of a frequent word in a
// passage of ordinary length), any of them is as right as the one the exhaustive order's tie-breaks put there.

/** Scores equal to about seven significant digits (float4 ranks read back as float8) are one level. */
export const scoreLevel = (score: number) => Number(score.toPrecision(7));

/**
 * The share of the best `k` that `page` holds: `best` is the exhaustive ranking's scores, best first (at least
 * its top k, or all of them when fewer match); `page` the scores, by the same function, of the page's top k.
 * Each score level of the best k has as many places as the best k give it; a page result fills one place at its
 * level, if one is left. An empty best (nothing matches) is a recall of 1 when the page is empty too.
 */
export function recallAt(best: readonly number[], page: readonly number[], k: number): number {
  const wanted = [...best]
    .sort((a, b) => b - a)
    .slice(0, k)
    .map(scoreLevel);
  if (wanted.length === 0) return page.length === 0 ? 1 : 0;
  const places = new Map<number, number>();
  for (const score of wanted) places.set(score, (places.get(score) ?? 0) + 1);
  let found = 0;
  for (const score of page.slice(0, k).map(scoreLevel)) {
    const left = places.get(score) ?? 0;
    if (left > 0) {
      places.set(score, left - 1);
      found++;
    }
  }
  return found / wanted.length;
}
