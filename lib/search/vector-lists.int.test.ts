// Meaning past the exact bound on PostgreSQL without pgvector (the exact bound lowered, as `exactMax` allows): the
// lists of vectors trained on real caption tracks (the judged set's first tracks, the default embedder's real word
// vectors) find the exact nearest 10, see exactly what keyword search may see (another user's private passage and
// another reader's correction never surface), and a vector stored after the training is found, before and after the
// background job assigns it its list.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "@/lib/embeddings/embedder";
import { useTestDatabase } from "@/test/app-db";
import { JUDGED_QUERIES, JUDGED_TRACKS, judgedTrackSegments } from "@/test/fixtures/captions/judged-search";
import { indexCorrections, storeTranscript } from "@/test/search";
import { useSharedModels } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dir: string;
let embedder: Embedder;
let meaning: typeof import("./meaning");
let lists: typeof import("./vector-lists");
let embedMissingPassages: typeof import("./embed-passages").embedMissingPassages;
const ANY = { platform: null, lang: null };
const READER = { kind: "library", userId: "reader" } as const;
const OTHER = { kind: "library", userId: "other" } as const;
const TRACKS = JUDGED_TRACKS.slice(0, 10);
const QUERIES = JUDGED_QUERIES.filter((j) => j.kind === "meaning" && TRACKS.some((t) => t.key === j.answers[0]?.[0]));
const PRIVATE = "the submarine captain listened to sonar pings beneath the arctic ice";
const CORRECTED = "a violinist tuned her strings before the evening concert";
const LATER = "beekeepers harvest honey from hives in late summer meadows";
/** Below the fixture's passages, so the scope is past it: the lists (or the bounded candidates). */
const EXACT_MAX = 50;
let privateId: string;
let sharedId: string;

const near = (scope: typeof READER | typeof OTHER, q: string, exactMax = EXACT_MAX) =>
  meaning.nearestPassages(scope, { q, ...ANY }, 10, embedder, { exactMax, offTopicFrom: Infinity });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "vector-lists-"));
  process.env.DATA_DIR = dir;
  await useSharedModels(dir);
  process.env.SEARCH_EMBEDDER = "default";
  // The word vectors alone: what this checks is the same with the distilled ones beside (the judged guard has them).
  process.env.SEARCH_DISTILLED_WORDS = "0";
  ctx = await useTestDatabase();
  // A server with pgvector would search through HNSW: this is the database without it.
  await ctx.db.$executeRawUnsafe(`ALTER TABLE "PassageEmbedding" DROP COLUMN IF EXISTS "embedding"`);
  ({ embedMissingPassages } = await import("./embed-passages"));
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  embedder = configuredEmbedder()!;
  await embedder.prepare();
  meaning = await import("./meaning");
  lists = await import("./vector-lists");
  await ctx.db.user.createMany({ data: ["reader", "other"].map((id) => ({ id, email: `${id}@example.test` })) });
  for (const track of TRACKS)
    await storeTranscript(ctx.db, {
      segments: judgedTrackSegments(track),
      lang: "en",
      title: track.title,
      userIds: ["reader"],
    });
  const segments = (text: string) => [{ start: 0, end: 9, text }];
  privateId = (
    await storeTranscript(ctx.db, { segments: segments(PRIVATE), lang: "en", title: "p", userIds: ["other"] })
  ).transcript.id;
  sharedId = (
    await storeTranscript(ctx.db, {
      segments: segments("a quiet talk about tomatoes in the garden"),
      lang: "en",
      title: "s",
      userIds: ["reader", "other"],
    })
  ).transcript.id;
  await ctx.db.$executeRawUnsafe(
    `INSERT INTO "TranscriptRevision" ("id", "userId", "transcriptId", "segments", "sizeBytes") VALUES ('corr', 'other', $1, $2::jsonb, 10)`,
    sharedId,
    JSON.stringify(segments(CORRECTED)),
  );
  await indexCorrections(ctx.db);
  while ((await embedMissingPassages(embedder)).embedded > 0);
}, 300_000);

afterAll(async () => {
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

describe("the lists of vectors on PostgreSQL without pgvector", () => {
  it("are trained by the background job's round, about √N of them, every vector given the nearest", async () => {
    const { vectorSearchPath } = await import("./vector-index");
    expect(await vectorSearchPath(ctx.db, embedder.model)).toBe("bounded");
    const [{ n }] = await ctx.db.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM "PassageEmbedding" WHERE "model" = $1`,
      embedder.model,
    );
    expect(n).toBeGreaterThan(8 * EXACT_MAX);
    // The background job's round trains them once the embedder has `from` vectors.
    await lists.keepVectorLists(embedder.model, { from: n + 1 });
    expect(await vectorSearchPath(ctx.db, embedder.model)).toBe("bounded");
    await lists.keepVectorLists(embedder.model, { from: n });
    expect(await vectorSearchPath(ctx.db, embedder.model)).toBe("lists");
    const [{ trained }] = await ctx.db.$queryRawUnsafe<{ trained: number }[]>(
      `SELECT count(*)::int AS trained FROM "PassageVectorList" WHERE "model" = $1`,
      embedder.model,
    );
    expect(trained).toBe(lists.listCount(n));
    const [{ unassigned, used }] = await ctx.db.$queryRawUnsafe<{ unassigned: number; used: number }[]>(
      `SELECT count(*) FILTER (WHERE "list" IS NULL)::int AS unassigned,
              count(DISTINCT "list") FILTER (WHERE "list" >= 0)::int AS used FROM "PassageEmbedding"`,
    );
    expect(unassigned).toBe(0);
    // No list is left empty (an empty one starts again from a vector).
    expect(used).toBe(trained);
  });

  it("find the exact nearest 10 through the query's nearest lists", async () => {
    expect(QUERIES.length).toBeGreaterThanOrEqual(15);
    let found = 0;
    let asked = 0;
    let words = 0;
    for (const { q } of QUERIES) {
      const exact = (await near(READER, q, Number.MAX_SAFE_INTEGER)).map((m) => m.pid);
      const listed = new Set((await near(READER, q)).map((m) => m.pid));
      const bounded = new Set(
        (
          await meaning.nearestPassages(READER, { q, ...ANY }, 10, embedder, {
            exactMax: EXACT_MAX,
            offTopicFrom: Infinity,
            index: false,
          })
        ).map((m) => m.pid),
      );
      found += exact.filter((pid) => listed.has(pid)).length;
      words += exact.filter((pid) => bounded.has(pid)).length;
      asked += exact.length;
    }
    expect(asked).toBeGreaterThan(10 * QUERIES.length * 0.9);
    expect(found / asked).toBeGreaterThanOrEqual(0.9);
    // The words' candidates alone find fewer of them: the lists are what found these.
    expect(found).toBeGreaterThan(words);
  });

  it("see exactly what keyword search may see: another's private passage and correction never surface", async () => {
    const transcripts = async (scope: typeof READER | typeof OTHER, q: string) =>
      (await near(scope, q)).map((m) => m.transcriptId);
    expect(await transcripts(OTHER, PRIVATE)).toContain(privateId);
    expect(await transcripts(READER, PRIVATE)).not.toContain(privateId);
    const corrected = await ctx.db.$queryRawUnsafe<{ pid: bigint }[]>(`SELECT "pid" FROM "RevisionPassage"`);
    expect(corrected.length).toBeGreaterThan(0);
    const pids = async (scope: typeof READER | typeof OTHER) => (await near(scope, CORRECTED)).map((m) => m.pid);
    expect(await pids(OTHER)).toContain(corrected[0]!.pid);
    for (const { pid } of corrected) expect(await pids(READER)).not.toContain(pid);
    // The reader still finds the shared transcript as it was stored.
    expect((await near(READER, "tomatoes in the garden")).map((m) => m.transcriptId)).toContain(sharedId);
  });

  it("find a vector stored after the training, before and after it is given its list", async () => {
    const { transcript } = await storeTranscript(ctx.db, {
      segments: [{ start: 0, end: 9, text: LATER }],
      lang: "en",
      title: "later",
      userIds: ["reader"],
    });
    while ((await embedMissingPassages(embedder)).embedded > 0);
    const list = async () =>
      (
        await ctx.db.$queryRawUnsafe<{ list: number | null }[]>(
          `SELECT e."list" FROM "PassageEmbedding" e JOIN "TranscriptPassage" p ON p."pid" = e."pid" WHERE p."transcriptId" = $1`,
          transcript.id,
        )
      )[0]!.list;
    expect(await list()).toBeNull();
    expect((await near(READER, LATER))[0]?.transcriptId).toBe(transcript.id);
    await lists.keepVectorLists(embedder.model, { from: 8 * EXACT_MAX });
    expect(await list()).toBeGreaterThanOrEqual(0);
    expect((await near(READER, LATER))[0]?.transcriptId).toBe(transcript.id);
  });
});
