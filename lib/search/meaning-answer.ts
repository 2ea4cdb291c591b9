// What answers a question by meaning, and whether anything does ("nothing close"): one decision for the search
// (search-moments.ts) and for the alerts by meaning (lib/alerts), so an alert fires on what the search would answer
// and follows every change to how that is decided. The stages run here in order: the nearest passages past the
// embedder's floor (meaning.ts, with the off-topic reading of off-topic.ts), re-ranked by the second stage where it
// has read them (second-stage.ts).
import type { Embedder } from "@/lib/embeddings/embedder";
import { configuredSecondStage } from "@/lib/embeddings/registry";
import type { SecondStage } from "@/lib/embeddings/second-stage";
import { closenessOf, type Closeness } from "@/lib/embeddings/meaning-profile";
import type { MomentRow } from "@/lib/search/find-moments";
import { answeringLine, nearestPassages, type Nearest } from "@/lib/search/meaning";
import type { SearchQuery } from "@/lib/search/schemas";
import type { SearchScope } from "@/lib/search/search-statement";

export interface MeaningAnswer {
  /** The passages that answer, best first, at most 3 a transcript, each with its closeness in words. */
  nearest: (Nearest & { closeness: Closeness })[];
  /** The question's vector (to find each passage's answering line with); null when it has none. */
  vector: Float32Array | null;
  /** The question is about nothing in reach: nothing answers it by meaning, whatever is nearest. */
  nothingClose: boolean;
}

/**
 * The passages of `scope` that answer `query` by meaning, at most `k`; `within`: only those of these transcripts
 * (an alert's check), each judged apart by the second stage, the question's words against the whole scope.
 */
export async function answerByMeaning(
  scope: SearchScope,
  query: Pick<SearchQuery, "q" | "platform" | "lang">,
  k: number,
  embedder: Embedder | null,
  {
    within = null,
    secondStage = configuredSecondStage(),
  }: { within?: readonly string[] | null; secondStage?: SecondStage | null } = {},
): Promise<MeaningAnswer> {
  const asked: { vector: Float32Array | null; offTopic?: boolean } = { vector: null, offTopic: false };
  const nearest = await nearestPassages(scope, query, k, embedder, { asked, within, secondStage });
  return {
    nearest: embedder ? nearest.map((n) => ({ ...n, closeness: closenessOf(embedder.profile, n.score) })) : [],
    vector: asked.vector,
    nothingClose: asked.offTopic === true,
  };
}

/**
 * Each moment found by meaning alone moved to its line that answers (`answerLine`): each line of its passage
 * embedded as a query is, and the nearest taken (a passage's first line is seldom the one that answers).
 */
export async function markAnsweringLines(
  rows: MomentRow[],
  vector: Float32Array | null,
  embedder: Embedder,
): Promise<void> {
  for (const row of rows) if (row.matched === "meaning" && row.texts.length === 1) row.answerLine = 0;
  const byMeaningAlone = rows.filter((row) => row.matched === "meaning" && row.texts.length > 1);
  if (!vector || byMeaningAlone.length === 0) return;
  const lines = await embedder.embedFew(byMeaningAlone.flatMap((row) => row.texts));
  let at = 0;
  for (const row of byMeaningAlone) {
    row.answerLine = answeringLine(vector, lines.slice(at, at + row.texts.length)) ?? undefined;
    at += row.texts.length;
  }
}
