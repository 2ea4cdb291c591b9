// Search by meaning's second stage judged on a judged corpus (part of `search-judged`, so of `npm run eval`): every
// stored passage read whole as the background upgrade reads it (lib/search/second-stage.ts), then the app's search
// judged again, meaning-only and fused; and the floor of "nothing close": the one this corpus would choose
// (rerank.ts calibrateFloor: the highest that leaves at most 1 in 40 paraphrases with nothing), what the app's floor
// (chosen on the tuning corpus) does here, and a range of floors, so each corpus's choice can be read on the other.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { JudgedCorpus } from "../../test/fixtures/captions/judged-corpora";
import { judgeSearch, type JudgedPassage } from "../../test/judged-figures";
import type { SecondStage } from "../../lib/embeddings/second-stage";
import type { SearchMoment } from "../../lib/search/schemas";
import { judgedFigures } from "./meaning-candidates";

const read = new Map<string, Float32Array>();
const keyOf = (text: string) => createHash("sha256").update(text).digest("base64");
const DIMS = 512;

/** The passages read in an earlier run (DATA_DIR/models, kept for the next as the distilled words are). */
const cacheFile = (model: string) =>
  path.resolve(process.env.DATA_DIR ?? "data", "models", `${model.replace(/\W+/g, "-")}.eval-cache.bin`);

function loadCache(model: string) {
  if (!existsSync(cacheFile(model))) return;
  const bytes = readFileSync(cacheFile(model));
  for (let at = 0; at + 44 + DIMS * 4 <= bytes.length; at += 44 + DIMS * 4)
    read.set(
      bytes.subarray(at, at + 44).toString("latin1"),
      new Float32Array(bytes.buffer.slice(bytes.byteOffset + at + 44, bytes.byteOffset + at + 44 + DIMS * 4)),
    );
}

function saveCache(model: string) {
  const parts: Buffer[] = [];
  for (const [key, v] of read)
    if (v.length === DIMS) parts.push(Buffer.from(key, "latin1"), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
  writeFileSync(cacheFile(model), Buffer.concat(parts));
}

/** `stage` with each passage's text read once (the same corpus on PostgreSQL, then on PGlite, and the next run). */
function readOnce(stage: SecondStage): SecondStage {
  return {
    ...stage,
    embedPassages: async (texts) => {
      const missing = [...new Set(texts.filter((t) => !read.has(keyOf(t))))];
      const vectors = await stage.embedPassages(missing);
      missing.forEach((t, i) => read.set(keyOf(t), Float32Array.from(vectors[i]!)));
      return texts.map((t) => read.get(keyOf(t))!);
    },
  };
}

const judged = new Set<string>();

/** Every stored passage read whole, as the upgrade reads them (those read in an earlier run from its cache). */
export async function upgradeEveryPassage(stage: SecondStage): Promise<number> {
  const { upgradeMissingPassages } = await import("../../lib/search/second-stage");
  if (read.size === 0) loadCache(stage.model);
  const known = read.size;
  const cached = readOnce(stage);
  let passages = 0;
  for (let n; (n = (await upgradeMissingPassages(cached, 64)).upgraded) > 0;) passages += n;
  if (read.size > known) saveCache(stage.model);
  return passages;
}

export async function judgeSecondStage({
  corpus,
  userId,
  prefix,
  toJudged,
}: {
  corpus: JudgedCorpus;
  userId: string;
  /** The figures' label before "with the second stage". */
  prefix: string;
  toJudged: (results: readonly SearchMoment[]) => JudgedPassage[];
}): Promise<Record<string, number>> {
  const { configuredSecondStage, configuredEmbedder } = await import("../../lib/embeddings/registry");
  const { searchLibrary } = await import("../../lib/search/search-moments");
  const { searchQuerySchema } = await import("../../lib/search/schemas");
  const { nearestPassages } = await import("../../lib/search/meaning");
  const { atFloor, calibrateFloor } = await import("../../lib/search/rerank");
  const { getDb } = await import("../../lib/db/client");
  const stage = configuredSecondStage();
  if (!stage) throw new Error("the second stage is off (SEARCH_SECOND_STAGE) or USE lite is not installed");
  const embedder = configuredEmbedder()!;
  const figures: Record<string, number> = {};
  const first = !judged.has(corpus.name);
  judged.add(corpus.name);
  if (read.size === 0) loadCache(stage.model);
  const known = read.size;
  const started = performance.now();
  const passages = await upgradeEveryPassage(stage);
  // The cost only where every passage was read here (not from an earlier run's).
  if (read.size - known === passages && passages > 0) {
    const ms = performance.now() - started;
    const [{ hours }] = await (
      await getDb()
    ).$queryRawUnsafe<{ hours: number }[]>(
      `SELECT (sum(e) / 3600)::float8 AS hours FROM (SELECT max("end") AS e FROM "TranscriptPassage" GROUP BY "transcriptId") t`,
    );
    figures["second stage: a passage read whole, in its thread, stored (ms)"] = ms / passages;
    figures["second stage: an hour of speech read whole (s)"] = ms / 1000 / hours;
  }
  await stage.embedQuery("the model read before the questions", 120_000);

  for (const [label, mode] of [
    ["meaning-only", "meaning"],
    ["fused", "hybrid"],
  ] as const) {
    const f = await judgeSearch(corpus.queries, async (q) =>
      toJudged((await searchLibrary(userId, searchQuerySchema.parse({ q, limit: "10", mode }))).results),
    );
    Object.assign(figures, judgedFigures(`${prefix} with the second stage, ${label}`, f));
  }
  if (!first) return figures;

  // Each question's closeness by both stages (rerank.ts closenessOfBest), -Infinity where the words' rule (or its
  // not reading as prose) left it with nothing.
  const bestOf = async (q: string) => {
    const asked: { vector: Float32Array | null; offTopic?: boolean; closeness?: number | null } = { vector: null };
    await nearestPassages({ kind: "library", userId }, { q, platform: null, lang: null }, 1, embedder, {
      asked,
      secondStage: { ...stage, scale: { ...stage.scale, answer: -Infinity } },
    });
    return asked.offTopic ? -Infinity : (asked.closeness ?? -Infinity);
  };
  const bests = async (kind: string) => {
    const out: number[] = [];
    for (const j of corpus.queries.filter((x) => x.kind === kind)) out.push(await bestOf(j.q));
    return out;
  };
  const [paraphrases, offTopic] = [await bests("meaning"), await bests("off-topic")];
  const chosen = calibrateFloor(paraphrases, offTopic);
  const app = atFloor(stage.scale.answer, paraphrases, offTopic);
  figures["closeness by both stages: the floor this corpus would choose (1 in 40 paraphrases with nothing at most)"] =
    chosen.floor;
  figures["closeness by both stages: at that floor, paraphrases with nothing close"] = chosen.paraphrasesEmpty;
  figures['closeness by both stages: at that floor, off-topic questions "nothing close"'] = chosen.offTopicNothing;
  figures[`closeness by both stages: at the app's floor (${stage.scale.answer}), paraphrases with nothing close`] =
    app.paraphrasesEmpty;
  figures[`closeness by both stages: at the app's floor (${stage.scale.answer}), off-topic questions "nothing close"`] =
    app.offTopicNothing;
  console.log(
    `\n| floor of closeness by both stages | paraphrases with nothing | off-topic "nothing close" |\n|---|---|---|`,
  );
  for (let at = 0.8; at <= 1.6 + 1e-9; at += 0.05) {
    const f = atFloor(at, paraphrases, offTopic);
    console.log(`| ${at.toFixed(3)} | ${f.paraphrasesEmpty.toFixed(3)} | ${f.offTopicNothing.toFixed(3)} |`);
  }
  return figures;
}
