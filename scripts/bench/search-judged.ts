// Relevance by people's judgement (part of `npm run bench -- search-relevance`, alone as `search-judged`, the
// second corpus as `search-judged-report`): a judged corpus's tracks of real speech (test/fixtures/captions/
// judged-corpora.ts: the judged set's 45 by default, the tuning corpus) stored as the app stores them
// (storeTranscript: the passages cut and posted by its triggers) in a fresh database, in one user's history.
// - Each candidate way of embedding (meaning-candidates.ts), over the stored passages, every passage compared with
//   the query (exact): paraphrases' recall@10 (the share of a query's marked moments that a result's passage
//   overlaps, of at most 10), MRR@10 (1 / the place of the first result that answers) and nDCG@10; everyday
//   questions answered among the first 5 (a result of a transcript that answers); the share of off-topic questions
//   with nothing at or above the embedder's floor; and the floor's trade (off-topic "nothing close" against recall).
// - The app's own search with the default embedder, through the library search, page 1, per mode (keyword; meaning
//   and fused): the same figures and keyword controls' recall, and what the default costs; on PostgreSQL without
//   pgvector (every stored vector compared), then meaning and fused on the embedded PGlite (its HNSW index).
// Then the frequent-word judgement: for words said in many passages and in a title, page 1's top 10 against BM25
// over the passages' own words (no title), at most 3 moments a transcript as the search shows them, ties as right.
import path from "node:path";
import { createMigratedTestDatabase } from "../../test/pg";
import { TUNE_CORPUS, type JudgedCorpus, type JudgedCorpusName } from "../../test/fixtures/captions/judged-corpora";
import { storeJudgedLibrary } from "./judged-library";
import { judgeMeaningAlerts } from "./judged-alerts";
import { judgeOnPglite } from "./judged-pglite";
import { judgeCandidates, judgedFigures } from "./meaning-candidates";
import { judgeSecondStage } from "./second-stage-judged";
import { judgeSearch, type JudgedPassage } from "../../test/judged-figures";
import { recallAt } from "./relevance-recall";
import type { SearchMoment } from "../../lib/search/schemas";

const K = 10;
const USER = "judged-reader";
/** Words said in many passages of several of a corpus's tracks, one of whose titles holds them too. */
const FREQUENT_WORDS: Record<JudgedCorpusName, string[]> = {
  tune: ["think", "power", "better", "funding", "english", "cooling", "grit", "passion", "speak"],
  report: ["machines", "algorithms", "vision", "drones", "technology", "programming", "perception"],
};
const MOMENTS_PER_TRANSCRIPT = 3;

interface Passage {
  transcriptId: string;
  segFrom: number;
  segTo: number;
}

/**
 * What loading the default model's vectors and embedding a query adds to a Node process's resident memory: in a
 * child process (this one's heap holds the database's and the bench's), after a full collection before and after.
 */
async function residentGrowth(modelFile: string, distilledFile: string | null): Promise<number> {
  const { execFileSync } = await import("node:child_process");
  const script = `
    const { wordVectorsOf, embedQuery } = await import(${JSON.stringify(path.resolve("lib/embeddings/default-model.ts"))});
    globalThis.gc(); const before = process.memoryUsage().rss;
    await wordVectorsOf(${JSON.stringify(modelFile)});
    await embedQuery(${JSON.stringify(modelFile)}, "the lone flattop that got away", ${JSON.stringify(distilledFile)});
    globalThis.gc(); console.log((process.memoryUsage().rss - before) / 2 ** 20);`;
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return Number(out.trim().split("\n").at(-1));
}

const mean = (xs: number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);

export async function benchSearchJudged(corpus: JudgedCorpus = TUNE_CORPUS): Promise<Record<string, number>> {
  const { tracks, queries } = corpus;
  const frequentWords = FREQUENT_WORDS[corpus.name];
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  const figures: Record<string, number> = {};
  try {
    const db = await getDb();
    const { searchLibrary } = await import("../../lib/search/search-moments");
    const { searchQuerySchema } = await import("../../lib/search/schemas");
    const storeStarted = performance.now();
    const { ids, segments } = await storeJudgedLibrary(db, USER, tracks);
    const storeMs = performance.now() - storeStarted;
    const passages = await db.$queryRawUnsafe<(Passage & { pid: bigint })[]>(
      `SELECT "pid", "transcriptId", "segFrom", "segTo" FROM "TranscriptPassage" ORDER BY "pid"`,
    );
    figures["judged corpus: transcripts"] = tracks.length;
    figures["judged corpus: segments"] = segments;
    figures["judged corpus: passages"] = passages.length;
    figures["judged corpus: store time per passage (ms)"] = storeMs / passages.length;

    const passageOf = (m: SearchMoment) =>
      passages.find(
        (p) => p.transcriptId === m.transcript_id && m.segment_index >= p.segFrom && m.segment_index <= p.segTo,
      );
    const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
    const judged = (p: (Passage & { pid: bigint }) | undefined, someWords = false): JudgedPassage[] =>
      p
        ? [{ pid: p.pid, track: keyOf.get(p.transcriptId)!, segFrom: p.segFrom, segTo: p.segTo, text: "", someWords }]
        : [];
    // A page's moments as judged, in every mode and with the second stage alike (as judged-pglite.ts judges them): a
    // moment found only by some of the question's words, with no closeness, says "nothing close" (judgeSearch).
    const toJudged = (results: readonly SearchMoment[]): JudgedPassage[] =>
      results.flatMap((m) => judged(passageOf(m), m.matched === "some_words" && m.closeness === null));

    // The candidates, each over every stored passage's text, exactly.
    const texts = await db.$queryRaw<JudgedPassage[]>`
      SELECT p."pid", p."segFrom", p."segTo", t."id" AS track, seg.text
      FROM "TranscriptPassage" p JOIN "Transcript" t ON t."id" = p."transcriptId"
      CROSS JOIN LATERAL verbatim_passage_segments(t."segments", p."segFrom", p."segTo") AS seg ORDER BY p."pid"`;
    for (const t of texts) t.track = keyOf.get(t.track)!;

    // The default model (converted on first need), every passage's vector stored as the app's background job stores
    // them, then each mode of the search.
    const { defaultModelFile, distilledModelFile, distilledVectorsOf, ensureModelFile, wordVectorsOf } =
      await import("../../lib/embeddings/default-model");
    const { env } = await import("../../lib/env");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const { configuredEmbedder, configuredSecondStage } = await import("../../lib/embeddings/registry");
    const modelFile = defaultModelFile(path.resolve(process.env.DATA_DIR ?? "data"));
    const convertStarted = performance.now();
    const converted = await ensureModelFile(modelFile).then(() => performance.now() - convertStarted);
    figures["default model: conversion on first need, or finding it (s)"] = converted / 1000;
    const embedder = configuredEmbedder()!;
    const distilStarted = performance.now();
    await embedder.prepare();
    figures["default model: distilling its words on first need, or finding them (s)"] =
      (performance.now() - distilStarted) / 1000;
    const distilledWords = env().SEARCH_DISTILLED_WORDS;
    const distilled =
      distilledWords > 0 ? await distilledVectorsOf(distilledModelFile(modelFile, distilledWords)) : null;
    Object.assign(figures, await judgeCandidates(await wordVectorsOf(modelFile), texts, distilled, queries));
    figures["default model: resident memory added by its vectors, in a process of its own (MB)"] = await residentGrowth(
      modelFile,
      distilledWords > 0 ? distilledModelFile(modelFile, distilledWords) : null,
    );
    await embedder.embedQuery("the vectors read once");
    const queryStarted = performance.now();
    for (const { q } of queries) await embedder.embedQuery(q);
    figures["default model: a query's vector, mean over the judged set (ms)"] =
      (performance.now() - queryStarted) / queries.length;
    const embedStarted = performance.now();
    while ((await embedMissingPassages(embedder)).embedded > 0);
    figures["default model: ingest time per passage (embedded in a worker thread, stored) (ms)"] =
      (performance.now() - embedStarted) / passages.length;
    const [size] = await db.$queryRawUnsafe<{ bytes: number; rows: number }[]>(
      `SELECT pg_total_relation_size('"PassageEmbedding"')::float8 AS bytes, (SELECT count(*) FROM "PassageEmbedding")::int AS rows`,
    );
    figures["default model: bytes per passage stored (table, TOAST and index)"] = size!.bytes / size!.rows;
    type Ranker = (q: string) => Promise<JudgedPassage[]>;
    const modes = (["keyword", "meaning", "hybrid"] as const).map((mode): [string, Ranker] => [
      { keyword: "keyword-only", meaning: "meaning-only", hybrid: "fused" }[mode],
      async (q) =>
        toJudged((await searchLibrary(USER, searchQuerySchema.parse({ q, limit: String(K), mode }))).results),
    ]);
    for (const [label, rank] of modes) {
      const started = performance.now();
      const f = await judgeSearch(queries, rank);
      figures[`app search, ${label}: mean query time over the judged set (ms)`] =
        (performance.now() - started) / queries.length;
      Object.assign(figures, judgedFigures(`app search, ${label}`, f));
    }

    // Alerts by meaning: each paraphrase's alert on every transcript, as a new transcript is checked.
    Object.assign(figures, await judgeMeaningAlerts(queries, ids, USER, embedder));

    // Past the exact bound (lowered below the library's passages) PostgreSQL without pgvector reads its lists of
    // vectors: the paraphrases by meaning alone through them, to set beside PGlite's HNSW index.
    const { trainVectorLists } = await import("../../lib/search/vector-lists");
    const { nearestPassages } = await import("../../lib/search/meaning");
    await trainVectorLists(db, embedder.model);
    const paraphrases = queries.filter((j) => j.kind === "meaning");
    const throughLists = await judgeSearch(paraphrases, async (q) => {
      const nearest = await nearestPassages(
        { kind: "library", userId: USER },
        { q, platform: null, lang: null },
        K,
        embedder,
        {
          exactMax: 500,
        },
      );
      return nearest.flatMap(({ pid }) => judged(passages.find((p) => p.pid === pid)));
    });
    figures[
      "app search through the lists of vectors (PostgreSQL past its exact bound), meaning-only: paraphrases recall@10"
    ] = throughLists.paraphrase.recall;

    // The second stage: every passage read whole, the same searches re-ranked.
    Object.assign(
      figures,
      await judgeSecondStage({
        corpus,
        userId: USER,
        prefix: "app search",
        toJudged,
      }),
    );
    const stage = configuredSecondStage();
    if (stage) {
      const { patient } = await import("../../lib/search/second-stage");
      Object.assign(figures, await judgeMeaningAlerts(queries, ids, USER, embedder, patient(stage)));
    }

    // The same searches on the embedded database, through its HNSW index.
    Object.assign(figures, await judgeOnPglite(corpus));

    // The frequent-word judgement: BM25 over the passages' own words (tf and length as the postings count them),
    // against the keyword ranking and the fused one.
    for (const mode of ["keyword", "hybrid"] as const) {
      const agreement: number[] = [];
      const concordant: string[] = [];
      const discordant: string[] = [];
      console.log(
        `\n${mode}:\n| word | moments (3 a transcript) | page 1 vs BM25 over the words alone: recall@${K} | pairs ordered alike |\n|---|---|---|---|`,
      );
      for (const word of frequentWords) {
        const bm25 = await db.$queryRawUnsafe<(Passage & { score: number })[]>(
          `WITH q AS (SELECT (tsvector_to_array(to_tsvector('english', $1)))[1] AS lexeme),
           scored AS (
             SELECT p."transcriptId", p."segFrom", p."segTo", p."pid",
                    (w.tf * 2.2 / (w.tf + 1.2 * (0.25 + 0.75 * d.dl / 20.0)))::real::float8 AS score
             FROM "TranscriptPassage" p
             CROSS JOIN q
             CROSS JOIN LATERAL (SELECT coalesce(cardinality(x.positions), 1) AS tf FROM unnest(p."tsv") AS x WHERE x.lexeme = q.lexeme) AS w
             CROSS JOIN LATERAL (SELECT coalesce(sum(coalesce(cardinality(x.positions), 1)), 0)::int AS dl FROM unnest(p."tsv") AS x) AS d
           ), capped AS (
             SELECT *, row_number() OVER (PARTITION BY "transcriptId" ORDER BY score DESC, "pid" DESC) AS n FROM scored
           )
           SELECT "transcriptId", "segFrom", "segTo", score FROM capped WHERE n <= ${MOMENTS_PER_TRANSCRIPT}
           ORDER BY score DESC, "pid" DESC`,
          word,
        );
        const { results } = await searchLibrary(USER, searchQuerySchema.parse({ q: word, limit: String(K), mode }));
        const scoreOf = (m: SearchMoment) => {
          const p = passageOf(m);
          return bm25.find((b) => p && b.transcriptId === p.transcriptId && b.segFrom === p.segFrom)?.score ?? 0;
        };
        const recall = recallAt(
          bm25.map((b) => b.score),
          results.slice(0, K).map(scoreOf),
          K,
        );
        agreement.push(recall);
        // Pairs of page 1 whose words alone order them (different BM25 scores): the share the page orders alike.
        const scores = results.slice(0, K).map(scoreOf);
        for (let i = 0; i < scores.length; i++)
          for (let j = i + 1; j < scores.length; j++)
            if (Math.abs(scores[i]! - scores[j]!) > 1e-6)
              (scores[i]! > scores[j]! ? concordant : discordant).push(word);
        const mine = (xs: string[]) => xs.filter((w) => w === word).length;
        console.log(
          `| ${word} | ${bm25.length} | ${recall.toFixed(2)} | ${mine(concordant)} of ${mine(concordant) + mine(discordant)} |`,
        );
      }
      figures[`frequent words (${frequentWords.length}), ${mode}: page 1 vs BM25 over the words alone, recall@${K}`] =
        mean(agreement);
      figures[`frequent words, ${mode}: pairs of page 1 ordered as BM25 over the words alone orders them`] =
        concordant.length;
      figures[`frequent words, ${mode}: pairs of page 1 ordered against it (a title lifting a passage)`] =
        discordant.length;
    }
  } finally {
    await closeDatabase();
    await database.drop();
  }
  return figures;
}
