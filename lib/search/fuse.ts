// The keyword moments and the passages nearest by meaning made one ranked list.

/** Reciprocal rank fusion's constant (Cormack, Clarke and Büttcher, 2009). */
export const RRF_K = 60;
/** Moments shown per transcript, in each list and in the fused one. */
export const MOMENTS_PER_TRANSCRIPT = 3;

export type Matched = "words" | "some_words" | "meaning" | "both";

/**
 * One list from the keyword moments and the nearest passages, by reciprocal rank fusion (each list's 1 / (60 +
 * place), the meaning list's times `meaningWeight`, its embedder's: a weak embedder weighs less), the moments that
 * hold the whole query first: a query whose words are all said ranks its exact moments first, the meaning ordering
 * them among themselves and filling the page after them. `someWords`: the keyword list holds only some of the
 * query's words (some-words.ts), at this weight and without going first. At most 3 a transcript; a passage in both
 * lists is one. Each with its fused score, how it matched, and its closeness by meaning (null: found by its words).
 */
export function fuse(
  keyword: readonly { pid: bigint; transcriptId: string }[],
  meaning: readonly { pid: bigint; transcriptId: string; score: number }[],
  meaningWeight = 1,
  someWords: number | null = null,
): { pid: bigint; score: number; matched: Matched; similarity: number | null }[] {
  const scores = new Map<
    bigint,
    { transcriptId: string; score: number; matched: Matched; similarity: number | null }
  >();
  keyword.forEach(({ pid, transcriptId }, i) =>
    scores.set(pid, {
      transcriptId,
      score: someWords === null ? 1 + 1 / (RRF_K + i + 1) : someWords / (RRF_K + i + 1),
      matched: someWords === null ? "words" : "some_words",
      similarity: null,
    }),
  );
  meaning.forEach(({ pid, transcriptId, score }, i) => {
    const known = scores.get(pid);
    scores.set(pid, {
      transcriptId,
      score: (known?.score ?? 0) + meaningWeight / (RRF_K + i + 1),
      // Some of its words and its meaning: said as some words, with its closeness.
      matched: !known ? "meaning" : known.matched === "words" ? "both" : known.matched,
      similarity: score,
    });
  });
  const per = new Map<string, number>();
  return [...scores.entries()]
    .sort((a, b) => b[1].score - a[1].score || (b[0] > a[0] ? 1 : -1))
    .filter(([, { transcriptId }]) => {
      const n = (per.get(transcriptId) ?? 0) + 1;
      per.set(transcriptId, n);
      return n <= MOMENTS_PER_TRANSCRIPT;
    })
    .map(([pid, { score, matched, similarity }]) => ({ pid, score, matched, similarity }));
}
