// Search by meaning's second stage in the database: every passage read whole by the second stage's encoder
// (lib/embeddings/second-stage.ts) and stored beside it ("PassageSecondVector", by pid), newest first, a batch at a
// time, by the background upgrade (lib/app/schedule-second-stage.ts); what is missing is its state, so it resumes
// wherever it stopped. A search re-ranks its first stage's best candidates by them (rerank.ts): only candidates,
// which the first stage found among the passages the caller may see, are ever read here.
import { getDb, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { cosine } from "@/lib/embeddings/embed";
import type { SecondStage, SecondStageScale } from "@/lib/embeddings/second-stage";
import { dequantise, passagesWithoutVector, quantise, type PidRange } from "@/lib/search/embed-passages";
import { rerankEach, rerankGroups } from "@/lib/search/rerank";

/** Passages a batch of the upgrade: a query waits for at most one batch in the encoder's thread. */
export const UPGRADE_BATCH = 32;
/**
 * The share of the search's deadline (SEARCH_TIMEOUT_MS) it waits for its query's vector from the second stage:
 * 800 ms by default. Past it (its model still being read, a few seconds after an idle spell) the first stage decides.
 */
export const QUERY_WAIT_SHARE = 0.4;

/**
 * Reads at most `batch` passages within `range` that `stage` has not read yet, newest first: how many, and the lowest
 * pid among them (where the next batch goes on below).
 */
export async function upgradeMissingPassages(
  stage: SecondStage,
  batch = UPGRADE_BATCH,
  range: PidRange = {},
): Promise<{ upgraded: number; lowest: bigint | null }> {
  const db = await getDb();
  const rows = await passagesWithoutVector(db, "PassageSecondVector", stage.model, batch, range);
  if (rows.length === 0) return { upgraded: 0, lowest: null };
  const vectors = await stage.embedPassages(rows.map((r) => r.text ?? ""));
  const quantised = vectors.map(quantise);
  // Only passages still there (one deleted meanwhile took its row with it, or never gets one).
  await db.$executeRaw`
    INSERT INTO "PassageSecondVector" ("pid", "model", "vector", "scale")
    SELECT e.pid, ${stage.model}, e.vector, e.scale
    FROM unnest(${rows.map((r) => r.pid)}::bigint[], ${quantised.map((q) => q.bytes)}::bytea[],
                ${quantised.map((q) => q.scale)}::real[]) AS e(pid, vector, scale)
    WHERE EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = e.pid)
    ON CONFLICT ("pid") DO UPDATE SET "model" = EXCLUDED."model", "vector" = EXCLUDED."vector", "scale" = EXCLUDED."scale"`;
  return { upgraded: rows.length, lowest: rows.at(-1)!.pid };
}

/** Whether `model` has read any passage: until it has, search is the first stage's alone. */
export async function upgradedAny(db: Db, model: string): Promise<boolean> {
  const [{ any }] = await db.$queryRaw<{ any: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM "PassageSecondVector" WHERE "model" = ${model}) AS any`;
  return any;
}

/** How far the upgrade has come: what an operator sees. */
export async function upgradeProgress(stage: SecondStage): Promise<{ passages: number; upgraded: number }> {
  const db = await getDb();
  const [row] = await db.$queryRaw<{ passages: number; upgraded: number }[]>`
    SELECT (SELECT count(*) FROM "SearchPassage")::int AS passages,
           (SELECT count(*) FROM "PassageSecondVector" WHERE "model" = ${stage.model})::int AS upgraded`;
  return row!;
}

/**
 * Each of `pids` that `stage` has read, with its closeness to `q`; null when none has been read, or the query's
 * vector is not at hand in time (the encoder's model not read yet: it is read meanwhile, for the next search).
 */
export async function secondCloseness(
  db: Db,
  stage: SecondStage,
  q: string,
  pids: readonly bigint[],
  waitMs = QUERY_WAIT_SHARE * env().SEARCH_TIMEOUT_MS,
): Promise<Map<bigint, number> | null> {
  if (pids.length === 0) return null;
  const rows = await db.$queryRaw<{ pid: bigint; vector: Uint8Array; scale: number }[]>`
    SELECT "pid", "vector", "scale" FROM "PassageSecondVector"
    WHERE "pid" = ANY (${[...pids]}::bigint[]) AND "model" = ${stage.model}`;
  if (rows.length === 0) return null;
  const query = await stage.embedQuery(q, waitMs);
  if (!query) return null;
  const out = new Map<bigint, number>();
  for (const { pid, vector, scale } of rows) {
    const v = dequantise(vector, scale);
    if (v && v.length === query.length) out.set(pid, cosine(query, v));
  }
  return out;
}

/**
 * The first stage's `candidates` re-ranked by `stage` (rerank.ts), `first` being the first stage's scale, and how
 * close the best of them are by both stages; null when the second stage has nothing to say of them (none read, or
 * the query's vector not at hand): the first stage decides. `perTranscript`: each transcript's candidates re-ranked
 * and judged "nothing close" apart (an alert asks whether each transcript answers, not whether the best one does).
 */
export async function rerankCandidates<T extends { pid: bigint; score: number; transcriptId: string }>(
  db: Db,
  stage: SecondStage,
  q: string,
  candidates: readonly T[],
  first: SecondStageScale,
  { perTranscript = false }: { perTranscript?: boolean } = {},
): Promise<{ ranked: T[]; closeness: number | null } | null> {
  const groups = rerankGroups(candidates, perTranscript);
  const closeness = await secondCloseness(
    db,
    stage,
    q,
    groups.flatMap((group) => group.map((c) => c.pid)),
  );
  return closeness ? rerankEach(groups, closeness, first, stage.scale) : null;
}

/** The transcript's passages read by `stage` now where the background upgrade has not reached them yet. */
export async function upgradeTranscript(db: Db, stage: SecondStage, transcriptId: string): Promise<void> {
  const [range] = await db.$queryRaw<{ low: bigint | null; high: bigint | null }[]>`
    SELECT min(p."pid") AS low, max(p."pid") AS high FROM "SearchPassage" p WHERE p."transcriptId" = ${transcriptId}`;
  if (range?.low == null || range.high == null) return;
  const within = { above: range.low - 1n, below: range.high + 1n };
  while ((await upgradeMissingPassages(stage, UPGRADE_BATCH, within)).upgraded === UPGRADE_BATCH);
}

/**
 * `stage` with its queries waiting for its model as long as a background check may (an alert's check: nobody waits
 * on it, and the first stage's decision alone is the one that fires too often).
 */
export const patient = (stage: SecondStage, waitMs = 60_000): SecondStage => ({
  ...stage,
  embedQuery: (text) => stage.embedQuery(text, waitMs),
});
