// How far an embedder's closeness can be trusted: each embedder's cosines live on a scale of their own (averaged word
// vectors find everything somewhat alike; a sentence model spreads unrelated texts near 0), so the floor below which
// nothing is an answer, the words a result's closeness is said in, and the weight of the meaning side when it is
// fused with the keyword ranking follow the embedder in use. The default's were set on the judged set
// (`npm run bench -- search-judged`); a sentence model's from its published similarity scale.

export interface MeaningProfile {
  /** Below it a passage is no answer by meaning. */
  floor: number;
  /** At or above it a match is "close"; at or above `related` "related"; below that (above the floor) "loose". */
  close: number;
  related: number;
  /** The meaning list's weight in reciprocal rank fusion, the keyword list's being 1. */
  fusionWeight: number;
  /**
   * A question at most this share of whose words (stop words aside) a passage in reach says is about nothing here:
   * nothing is found by its meaning (lib/search/off-topic.ts). Null: its closeness alone decides.
   */
  offTopicShare: number | null;
}

export type Closeness = "close" | "related" | "loose";

/** The default offline word vectors (SIF, common component removed). */
export const DEFAULT_MEANING_PROFILE: MeaningProfile = {
  floor: 0.3,
  related: 0.5,
  close: 0.6,
  fusionWeight: 0.7,
  offTopicShare: 0.5,
};

/**
 * The default with its distilled vectors beside (embed.ts `DISTILLED_SHARE`), which find everything more alike. On
 * the judged set a paraphrase's answers among its first 10 are all at least 0.69 alike (half of its first answers
 * 0.8), and of the off-topic questions the words do not tell (off-topic.ts) the best passages are 0.687, 0.717 and
 * 0.856: the floor is 0.69, the highest where no paraphrase of either half of the set loses an answer (at 0.70 the
 * even-indexed ones lose 0.037 of recall@10), and one more off-topic question finds nothing close.
 */
export const DISTILLED_MEANING_PROFILE: MeaningProfile = {
  floor: 0.69,
  related: 0.72,
  close: 0.8,
  fusionWeight: 0.7,
  offTopicShare: 0.5,
};

/** A sentence model (all-MiniLM-L6-v2 and its kind) or a remote embedding model. */
export const SENTENCE_MEANING_PROFILE: MeaningProfile = {
  floor: 0.3,
  related: 0.4,
  close: 0.55,
  fusionWeight: 1,
  offTopicShare: null,
};

/**
 * A static model (Model2Vec): averaged token vectors, distilled from a sentence model. Not judged here (its files
 * cannot be fetched where the tests run): between the word vectors' scale and a sentence model's.
 */
export const STATIC_MEANING_PROFILE: MeaningProfile = {
  floor: 0.3,
  related: 0.45,
  close: 0.6,
  fusionWeight: 0.85,
  offTopicShare: null,
};

export function closenessOf(profile: MeaningProfile, score: number): Closeness {
  return score >= profile.close ? "close" : score >= profile.related ? "related" : "loose";
}
