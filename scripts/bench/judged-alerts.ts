// Alerts by meaning on a judged corpus: an alert per paraphrase question and per off-topic question, at each
// closeness in words (lib/alerts/closeness.ts), checked on every transcript of the library as a new transcript is
// (meaningMoments: the search's own decision of what answers, each transcript apart), by the first stage alone and
// then with every passage read by the second stage (as a check reads its transcript). A paraphrase's alert should
// fire on the transcripts that answer it and on few of the others; an off-topic question's on none.
// `npm run bench -- alerts-judged` (or `alerts-judged-report`) runs it alone; `search-judged` and `npm run eval`
// print it with the rest.
import { createMigratedTestDatabase } from "../../test/pg";
import { TUNE_CORPUS, type JudgedCorpus } from "../../test/fixtures/captions/judged-corpora";
import type { JudgedQuery } from "../../test/fixtures/captions/judged-search";
import type { Embedder } from "../../lib/embeddings/embedder";
import type { SecondStage } from "../../lib/embeddings/second-stage";
import { judgeSearch, type JudgedPassage } from "../../test/judged-figures";
import { storeJudgedLibrary } from "./judged-library";
import { judgedFigures } from "./meaning-candidates";
import { upgradeEveryPassage } from "./second-stage-judged";

const USER = "judged-alerts";
/** Cosines between the words' points, printed to choose them on one corpus and report them on the other. */
const SWEEP = [0.76, 0.78, 0.82, 0.84, 0.86, 0.88];

/**
 * The figures of alerts by meaning over `ids` (track key → transcript id), the library of `userId`: by the first
 * stage alone, or re-ranked by `secondStage` (every passage read by it already).
 */
export async function judgeMeaningAlerts(
  queries: readonly JudgedQuery[],
  ids: ReadonlyMap<string, string>,
  userId: string,
  embedder: Embedder,
  secondStage: SecondStage | null = null,
): Promise<Record<string, number>> {
  const { meaningMoments } = await import("../../lib/alerts/match-transcript");
  const { ALERT_CLOSENESS_WORDS, closenessCosine, DEFAULT_ALERT_CLOSENESS } =
    await import("../../lib/alerts/closeness");
  const all = [...ids.values()];
  const figures: Record<string, number> = {};
  const paraphrases = queries.filter((q) => q.kind === "meaning");
  const offTopic = queries.filter((q) => q.kind === "off-topic");
  // Each alert asked once, at the lowest point; a higher closeness is the last filter of meaningMoments, so each
  // point's firing is the transcripts whose best moment reaches it.
  const lowest = closenessCosine(embedder.profile, "related");
  const bestOf = async (q: string) => {
    const fired = await meaningMoments(
      { query: q, closeness: lowest, embedder: embedder.model },
      { kind: "library", userId },
      all,
      embedder,
      { secondStage },
    );
    return new Map([...fired].map(([id, rows]) => [id, Math.max(...rows.map((r) => r.rank))]));
  };
  const para: { best: Map<string, number>; answering: Set<string | undefined> }[] = [];
  for (const j of paraphrases)
    para.push({ best: await bestOf(j.q), answering: new Set(j.answers.map(([t]) => ids.get(t))) });
  const off: Map<string, number>[] = [];
  for (const j of offTopic) off.push(await bestOf(j.q));
  const points: [string, number][] = [
    ...ALERT_CLOSENESS_WORDS.map((word): [string, number] => [
      `"${word}" (${closenessCosine(embedder.profile, word)})`,
      closenessCosine(embedder.profile, word),
    ]),
    ...SWEEP.filter((t) => t > lowest).map((t): [string, number] => [`cosine ${t}`, t]),
  ];
  for (const [name, at] of points) {
    let [hit, missed, wrong, quiet] = [0, 0, 0, 0];
    for (const { best, answering } of para)
      for (const id of all) {
        const on = (best.get(id) ?? -1) >= at;
        if (answering.has(id)) [hit, missed] = on ? [hit + 1, missed] : [hit, missed + 1];
        else [wrong, quiet] = on ? [wrong + 1, quiet] : [wrong, quiet + 1];
      }
    const offFired = off.reduce((n, best) => n + [...best.values()].filter((score) => score >= at).length, 0);
    const stages = secondStage ? ", with the second stage," : "";
    const label = `alerts by meaning${stages} at ${name}`;
    figures[`${label}: recall, the answering transcripts a paraphrase's alert fires on`] = hit / (hit + missed);
    figures[`${label}: precision, of the transcripts it fires on those that answer`] =
      hit + wrong === 0 ? NaN : hit / (hit + wrong);
    figures[`${label}: the other transcripts it fires on (goal <= 0.10)`] = wrong / (wrong + quiet);
    figures[`${label}: off-topic questions' alerts, transcripts fired on per question`] =
      offTopic.length === 0 ? NaN : offFired / offTopic.length;
    // The one the evaluation holds (scripts/eval/floors.ts): an alert saved without a closeness stays quiet on at
    // least 9 in 10 of the transcripts that do not answer it.
    if (name.startsWith(`"${DEFAULT_ALERT_CLOSENESS}"`))
      figures[`alerts by meaning${stages} at the default closeness: the other transcripts it stays quiet on`] =
        quiet / (wrong + quiet);
  }
  return figures;
}

/** The app's fused search on the corpus (search-judged's figures of it, without the rest of that bench). */
async function judgeFused(corpus: JudgedCorpus, ids: ReadonlyMap<string, string>): Promise<Record<string, number>> {
  const { getDb } = await import("../../lib/db/client");
  const { searchLibrary } = await import("../../lib/search/search-moments");
  const { searchQuerySchema } = await import("../../lib/search/schemas");
  const keyOf = new Map([...ids].map(([key, id]) => [id, key]));
  const passages = await (
    await getDb()
  ).$queryRawUnsafe<JudgedPassage[]>(
    `SELECT "pid", "transcriptId" AS track, "segFrom", "segTo", '' AS text FROM "TranscriptPassage"`,
  );
  const f = await judgeSearch(corpus.queries, async (q) => {
    const { results } = await searchLibrary(USER, searchQuerySchema.parse({ q, limit: "10", mode: "hybrid" }));
    return results.flatMap((m): JudgedPassage[] => {
      const p = passages.find(
        (s) => s.track === m.transcript_id && m.segment_index >= s.segFrom && m.segment_index <= s.segTo,
      );
      const someWords = m.matched === "some_words" && m.closeness === null;
      return p ? [{ ...p, track: keyOf.get(p.track)!, someWords }] : [];
    });
  });
  return judgedFigures("app search, fused", f);
}

/** The corpus stored in a fresh database, every passage embedded by the configured embedder, then its alerts judged. */
export async function benchJudgedAlerts(corpus: JudgedCorpus = TUNE_CORPUS): Promise<Record<string, number>> {
  const database = await createMigratedTestDatabase();
  process.env.DATABASE_URL = database.url;
  process.env.APP_URL ??= "https://verbatim.example";
  process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
  const { getDb, closeDatabase } = await import("../../lib/db/client");
  try {
    const db = await getDb();
    const { ids } = await storeJudgedLibrary(db, USER, corpus.tracks);
    const { configuredEmbedder } = await import("../../lib/embeddings/registry");
    const { embedMissingPassages } = await import("../../lib/search/embed-passages");
    const embedder = configuredEmbedder()!;
    await embedder.prepare();
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const figures = {
      ...(await judgeFused(corpus, ids)),
      ...(await judgeMeaningAlerts(corpus.queries, ids, USER, embedder)),
    };
    const { configuredSecondStage } = await import("../../lib/embeddings/registry");
    const { patient } = await import("../../lib/search/second-stage");
    const stage = configuredSecondStage();
    if (!stage) return figures;
    await upgradeEveryPassage(stage);
    return { ...figures, ...(await judgeMeaningAlerts(corpus.queries, ids, USER, embedder, patient(stage))) };
  } finally {
    await closeDatabase();
    await database.drop();
  }
}
