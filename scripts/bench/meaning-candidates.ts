// The candidate ways of embedding with the offline word vectors, judged on a judged corpus over the stored passages
// (every passage compared with the query, exactly, at most 3 a transcript): today's weighting and its ablations, the
// default (embed.ts: SIF with the vocabulary's common component removed), meaning windows longer than a keyword
// passage, and the query expanded by its words' nearest words. Each at the floor that makes 90 % of the off-topic
// questions find nothing, and the default also at the app's own floor and along a range of floors.
import { JUDGED_QUERIES, type JudgedQuery } from "../../test/fixtures/captions/judged-search";
import { commonComponent, embedText, textWords } from "../../lib/embeddings/embed";
import { DEFAULT_MEANING_PROFILE } from "../../lib/embeddings/meaning-profile";
import type { WordVectors } from "../../lib/embeddings/word-vectors";
import {
  calibrateFloor,
  judgeSearch,
  nearestExact,
  type JudgedFigures,
  type JudgedPassage,
} from "../../test/judged-figures";

const K = 10;

export function judgedFigures(label: string, f: JudgedFigures): Record<string, number> {
  const n = f.paraphrase.n;
  return {
    [`${label}: paraphrases (${n}) recall@10`]: f.paraphrase.recall,
    [`${label}: paraphrases MRR@10`]: f.paraphrase.mrr,
    [`${label}: paraphrases nDCG@10`]: f.paraphrase.ndcg,
    [`${label}: paraphrases with a result`]: 1 - f.paraphrase.empty,
    [`${label}: everyday questions answered in the top 5`]: f.everydayTop5,
    [`${label}: off-topic questions answered "nothing close"`]: f.offTopicNothing,
    [`${label}: off-topic questions with no result at all (not even some of their words)`]: f.offTopicEmpty,
    [`${label}: keyword controls recall@10`]: f.keyword.recall,
  };
}

function unit(v: Float32Array): Float32Array | null {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (n === 0) return null;
  for (let d = 0; d < v.length; d++) v[d]! /= n;
  return v;
}

function rankOf(vectors: WordVectors, word: string): number {
  const rank = vectors.rank(word);
  return rank === -1 && word.endsWith("s") ? vectors.rank(word.slice(0, -1)) : rank;
}

/** An average of the text's words weighted by `weight(rank)`, without the common component's removal. */
function weighted(vectors: WordVectors, text: string, weight: (rank: number) => number): Float32Array | null {
  const acc = new Float32Array(vectors.dims);
  let known = 0;
  for (const word of textWords(text)) {
    const rank = rankOf(vectors, word);
    if (rank === -1) continue;
    vectors.addTo(acc, rank, weight(rank));
    known++;
  }
  return known === 0 ? null : unit(acc);
}

const sif = (a: number) => (rank: number) => 1 / (1 + a / (rank + 1));

/** The query with each rarer word's nearest words (among the 50,000 most frequent, cosine ≥ 0.6) added at half weight. */
function expander(vectors: WordVectors): (text: string) => Float32Array | null {
  const dims = vectors.dims;
  const near = Math.min(50_000, vectors.count);
  const matrix = new Float32Array(near * dims);
  for (let r = 0; r < near; r++) matrix.set(unit(addTo(new Float32Array(dims), vectors, r, 1)) ?? [], r * dims);
  return (text) => {
    const base = embedText(vectors, text);
    if (!base) return null;
    const acc = Float32Array.from(base);
    for (const word of new Set(textWords(text))) {
      const rank = rankOf(vectors, word);
      if (rank < 300) continue;
      const v = unit(addTo(new Float32Array(dims), vectors, rank, 1))!;
      const best: [number, number][] = [];
      for (let r = 100; r < near; r++) {
        if (r === rank) continue;
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += matrix[r * dims + d]! * v[d]!;
        if (dot >= 0.6) best.push([r, dot]);
      }
      best.sort((a, b) => b[1] - a[1]);
      for (const [r, sim] of best.slice(0, 3))
        for (let d = 0; d < dims; d++) acc[d]! += 0.15 * sim * matrix[r * dims + d]!;
    }
    return unit(acc);
  };
}

function addTo(acc: Float32Array, vectors: WordVectors, rank: number, weight: number) {
  vectors.addTo(acc, rank, weight);
  return acc;
}

interface Candidate {
  name: string;
  query: (text: string) => Float32Array | null;
  passage: (text: string) => Float32Array | null;
  /** Passages on either side embedded with each (a meaning window of about 30–60 s), at 0.7 of its own weight. */
  window?: number;
}

/** Each candidate's figures (labelled by its name) over `passages`. */
export async function judgeCandidates(
  vectors: WordVectors,
  passages: readonly JudgedPassage[],
  distilled: WordVectors | null = null,
  queries: readonly JudgedQuery[] = JUDGED_QUERIES,
): Promise<Record<string, number>> {
  commonComponent(vectors);
  const dflt = (text: string) => embedText(vectors, text);
  const candidates: Candidate[] = [
    {
      name: "averaged word vectors, unweighted",
      query: (t) => weighted(vectors, t, () => 1),
      passage: (t) => weighted(vectors, t, () => 1),
    },
    {
      name: "averaged, SIF a=75 (before)",
      query: (t) => weighted(vectors, t, sif(75)),
      passage: (t) => weighted(vectors, t, sif(75)),
    },
    {
      name: "averaged, SIF a=300",
      query: (t) => weighted(vectors, t, sif(300)),
      passage: (t) => weighted(vectors, t, sif(300)),
    },
    { name: "SIF a=300, common component removed (default)", query: dflt, passage: dflt },
    { name: "default with meaning windows (a passage and its neighbours)", query: dflt, passage: dflt, window: 1 },
    { name: "default with the query expanded by nearest words", query: expander(vectors), passage: dflt },
  ];
  if (distilled) {
    const both = (text: string) => embedText(vectors, text, distilled);
    candidates.push({
      name: "default with distilled Universal Sentence Encoder lite words beside",
      query: both,
      passage: both,
    });
  }
  const figures: Record<string, number> = {};
  const byTrack = new Map<string, JudgedPassage[]>();
  for (const p of passages) byTrack.set(p.track, [...(byTrack.get(p.track) ?? []), p]);
  for (const candidate of candidates) {
    const stored = new Map<bigint, Float32Array | null>();
    const ingestStarted = performance.now();
    for (const list of byTrack.values())
      list.forEach((p, i) => {
        const own = candidate.passage(p.text);
        if (!candidate.window || !own) return stored.set(p.pid, own);
        const around = list.slice(Math.max(0, i - candidate.window), i + candidate.window + 1);
        const context = candidate.passage(around.map((x) => x.text).join(" "));
        const v = Float32Array.from(own);
        if (context) for (let d = 0; d < v.length; d++) v[d]! += 0.7 * context[d]!;
        stored.set(p.pid, unit(v));
      });
    const ingestMs = (performance.now() - ingestStarted) / passages.length;
    const offTopicBest = queries
      .filter((j) => j.kind === "off-topic")
      .map((j) => nearestExact(candidate.query(j.q), passages, stored, 1)[0]?.score ?? -1);
    const floor = calibrateFloor(offTopicBest);
    let queryMs = 0;
    const search = (at: number) => async (q: string) => {
      const started = performance.now();
      const vector = candidate.query(q);
      queryMs += performance.now() - started;
      return nearestExact(vector, passages, stored, K, at).map((r) => r.passage);
    };
    const label = `candidate "${candidate.name}"`;
    Object.assign(figures, judgedFigures(`${label}, no floor`, await judgeSearch(queries, search(-1))));
    figures[`${label}: a query's vector (ms)`] = queryMs / queries.length;
    figures[`${label}: a passage's vector, here (ms)`] = ingestMs;
    figures[`${label}: floor for 90 % of off-topic questions "nothing close"`] = floor;
    Object.assign(figures, judgedFigures(`${label}, at that floor`, await judgeSearch(queries, search(floor))));
    if (candidate.passage === dflt && !candidate.window && candidate.query === dflt) {
      const own = DEFAULT_MEANING_PROFILE.floor;
      Object.assign(
        figures,
        judgedFigures(`${label}, at the app's floor ${own}`, await judgeSearch(queries, search(own))),
      );
      for (const at of [0.35, 0.4, 0.45, 0.5, 0.55, 0.6]) {
        const f = await judgeSearch(queries, search(at));
        figures[`default at floor ${at}: paraphrase recall@10`] = f.paraphrase.recall;
        figures[`default at floor ${at}: off-topic "nothing close"`] = f.offTopicNothing;
        console.log(
          `floor ${at}: paraphrase recall@10 ${f.paraphrase.recall.toFixed(3)}, MRR@10 ${f.paraphrase.mrr.toFixed(3)}, everyday top 5 ${f.everydayTop5.toFixed(3)}, off-topic "nothing close" ${f.offTopicNothing.toFixed(3)}`,
        );
      }
    }
  }
  return figures;
}
