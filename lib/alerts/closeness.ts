// How alike a passage must be for an alert by meaning to fire, said in words: each word is a point of the
// configured embedder's own scale (its profile, lib/embeddings/meaning-profile.ts), so "close" means what the
// search's `closeness` calls close, whichever embedder is in use. A number is still taken as the cosine itself.
import type { MeaningProfile } from "@/lib/embeddings/meaning-profile";

export const ALERT_CLOSENESS_WORDS = ["related", "close", "very_close"] as const;
export type AlertClosenessWord = (typeof ALERT_CLOSENESS_WORDS)[number];

/**
 * An alert saved without a closeness fires on what is very close: on both judged corpora it fires on at most 1 in
 * 10 of the transcripts that do not answer it, by the first stage alone and with the second, where the search's
 * "close" fired on 1 in 4 (1 in 8 with the second stage) of the second corpus's (decisions 0060, 0063;
 * `npm run bench -- alerts-judged`, `alerts-judged-report`).
 */
export const DEFAULT_ALERT_CLOSENESS: AlertClosenessWord = "very_close";

/**
 * The share of the way from close to identical that very close is: chosen on the judged set (the lowest cosine
 * where a paraphrase's alert fires on at most 2 % of the other transcripts, 0.84 with the default's 0.8 close),
 * reported on the second corpus (3.4 %).
 */
const VERY_CLOSE_STEP = 0.2;

/** The least cosine of `word` on `profile`'s scale: related and close as the search says them; very close above. */
export function closenessCosine(profile: MeaningProfile, word: AlertClosenessWord): number {
  if (word === "related") return profile.related;
  if (word === "close") return profile.close;
  return Math.round((profile.close + VERY_CLOSE_STEP * (1 - profile.close)) * 1000) / 1000;
}

/** The cosine a request's closeness stands for (a number as given; a word on the profile's scale). */
export function alertCloseness(profile: MeaningProfile, closeness: number | AlertClosenessWord | undefined): number {
  return typeof closeness === "number" ? closeness : closenessCosine(profile, closeness ?? DEFAULT_ALERT_CLOSENESS);
}
