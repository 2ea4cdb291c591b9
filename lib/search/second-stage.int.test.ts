// Search by meaning's second stage on PostgreSQL, with Universal Sentence Encoder lite itself (npm installs it) in
// its thread: the background upgrade resumes where a restart left it (what is read is stored, nothing read twice),
// and a passage the asker may not see is never a candidate, however close its words are to the question; an alert
// by meaning's check reads its new transcript whole before it decides; a passage deleted takes its vector with it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SecondStage } from "@/lib/embeddings/second-stage";
import { useTestDatabase } from "@/test/app-db";
import { JUDGED_TRACKS, judgedTrackSegments } from "@/test/fixtures/captions/judged-search";
import { storeTranscript } from "@/test/search";
import { useSharedModels } from "@/test/shared-fixtures";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let dir: string;
let stage: SecondStage;
let asker: string;
let hidden: string;
const QUESTION = "how do I descale a kettle";

/** `stage`, counting the passages it is asked to read. */
const counting = (of: SecondStage) => {
  const counted = { texts: 0 };
  const spy: SecondStage = {
    ...of,
    embedPassages: (texts) => {
      counted.texts += texts.length;
      return of.embedPassages(texts);
    },
  };
  return { spy, counted };
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "second-stage-"));
  process.env.DATA_DIR = dir;
  process.env.SEARCH_EMBEDDER = "default";
  process.env.SEARCH_DISTILLED_WORDS = "0";
  await useSharedModels(dir);
  // npm test turns the second stage off for every app and file but this one (scripts/test-all.ts).
  process.env.SEARCH_SECOND_STAGE = "use-lite";
  ctx = await useTestDatabase();
  const user = async (name: string) => (await ctx.db.user.create({ data: { email: `${name}@second.test` } })).id;
  [asker, hidden] = [await user("asker"), await user("hidden")];
  const track = JUDGED_TRACKS.find((t) => t.key === "komodo")!;
  await storeTranscript(ctx.db, {
    segments: judgedTrackSegments(track),
    lang: "en",
    title: track.title,
    userIds: [asker],
  });
  // Someone else's private upload, about nothing but the question.
  await storeTranscript(ctx.db, {
    segments: Array.from({ length: 4 }, (_, i) => ({
      start: i * 5,
      end: i * 5 + 5,
      text: `To descale a kettle, fill it with vinegar and water, boil it, rinse the kettle and descale it again.`,
    })),
    lang: "en",
    title: "Kitchen chores",
    platform: "upload",
    userIds: [hidden],
  });
  const { configuredSecondStage } = await import("@/lib/embeddings/registry");
  stage = configuredSecondStage()!;
  const { embedMissingPassages } = await import("./embed-passages");
  const { configuredEmbedder } = await import("@/lib/embeddings/registry");
  const embedder = configuredEmbedder()!;
  await embedder.prepare();
  while ((await embedMissingPassages(embedder)).embedded > 0);
});

afterAll(async () => {
  stage?.release();
  await ctx?.teardown();
  await rm(dir, { recursive: true, force: true });
});

describe("the second stage's background upgrade", () => {
  it("resumes after a restart with the passages it has not read, reading none twice", async () => {
    const { upgradeMissingPassages, upgradeProgress } = await import("./second-stage");
    const { upgradeRound } = await import("@/lib/app/schedule-second-stage");
    const { passages } = await upgradeProgress(stage);
    expect(passages).toBeGreaterThan(10);
    const before = counting(stage);
    expect((await upgradeMissingPassages(before.spy, 5)).upgraded).toBe(5);
    // The process stops: its thread with it. A new one starts the upgrade from nothing but what is stored.
    stage.release();
    const after = counting(stage);
    const state = { mark: null, backfilled: false };
    while (!state.backfilled) await upgradeRound(after.spy, state);
    expect(after.counted.texts).toBe(passages - 5);
    expect(await upgradeProgress(stage)).toEqual({ passages, upgraded: passages });
    expect(await upgradeRound(after.spy, state)).toBe(0);
  });

  it("never makes a passage the asker may not see a candidate, and finds nothing close to a question about it", async () => {
    const { nearestPassages } = await import("./meaning");
    const { configuredEmbedder } = await import("@/lib/embeddings/registry");
    const [{ transcriptId }] = await ctx.db.$queryRawUnsafe<{ transcriptId: string }[]>(
      `SELECT DISTINCT p."transcriptId" FROM "TranscriptPassage" p JOIN "Transcript" t ON t."id" = p."transcriptId" WHERE t."title" = 'Kitchen chores'`,
    );
    await stage.embedQuery("the model read", 60_000);
    // Every candidate comes back when any closeness answers: none of them is the hidden upload's.
    const open = { ...stage.scale, answer: -Infinity };
    const every = await nearestPassages(
      { kind: "library", userId: asker },
      { q: QUESTION, platform: null, lang: null },
      100,
      configuredEmbedder(),
      { secondStage: { ...stage, scale: open } },
    );
    expect(every.length).toBeGreaterThan(0);
    expect(every.map((n) => n.transcriptId)).not.toContain(transcriptId);
    // Its owner finds it first.
    const own = await nearestPassages(
      { kind: "library", userId: hidden },
      { q: QUESTION, platform: null, lang: null },
      10,
      configuredEmbedder(),
      { secondStage: stage },
    );
    expect(own[0]?.transcriptId).toBe(transcriptId);
    const { searchLibrary } = await import("./search-moments");
    const { searchQuerySchema } = await import("./schemas");
    const found = await searchLibrary(asker, searchQuerySchema.parse({ q: QUESTION, mode: "meaning", limit: "10" }));
    expect(found).toMatchObject({ results: [], nothing_close: true });
  });

  it("reads a new transcript whole when an alert by meaning checks it, and fires only on the one that answers", async () => {
    const { checkTranscript } = await import("@/lib/alerts/match-transcript");
    const { closenessCosine, DEFAULT_ALERT_CLOSENESS } = await import("@/lib/alerts/closeness");
    const { configuredEmbedder } = await import("@/lib/embeddings/registry");
    const embedder = configuredEmbedder()!;
    await ctx.db.alert.create({
      data: {
        userId: asker,
        name: "Kettles",
        query: QUESTION,
        mode: "meaning",
        closeness: closenessCosine(embedder.profile, DEFAULT_ALERT_CLOSENESS),
        embedder: embedder.model,
        scopeKind: "library",
        feedToken: "second-stage-alert-feed-token",
      },
    });
    const { transcript: answering } = await storeTranscript(ctx.db, {
      segments: [
        { start: 0, end: 6, text: "Right, the last job of the morning: how to descale the kettle." },
        {
          start: 6,
          end: 12,
          text: "Fill the kettle with half white vinegar and half water, and bring it to the boil.",
        },
        { start: 12, end: 18, text: "Then rinse the kettle out two or three times and the scale comes away." },
      ],
      lang: "en",
      title: "Around the house",
      userIds: [asker],
    });
    const unread = async (transcriptId: string) =>
      (
        await ctx.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "SearchPassage" p WHERE p."transcriptId" = $1
             AND NOT EXISTS (SELECT 1 FROM "PassageSecondVector" v WHERE v."pid" = p."pid")`,
          transcriptId,
        )
      )[0]!.n;
    expect(await unread(answering.id)).toBeGreaterThan(0);
    expect(await checkTranscript({ transcriptId: answering.id, accountId: asker, reason: "library" })).toBe(1);
    expect(await unread(answering.id)).toBe(0);
    const [{ id: komodo }] = await ctx.db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM "Transcript" WHERE "title" = $1`,
      JUDGED_TRACKS.find((t) => t.key === "komodo")!.title,
    );
    expect(await checkTranscript({ transcriptId: komodo, accountId: asker, reason: "library" })).toBe(0);
  });

  it("deletes a passage's second vector with its passage", async () => {
    const [{ id }] = await ctx.db.$queryRawUnsafe<{ id: string }[]>(
      `SELECT "id" FROM "Transcript" WHERE "title" = 'Kitchen chores'`,
    );
    const count = async () =>
      (
        await ctx.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM "PassageSecondVector" v WHERE NOT EXISTS (SELECT 1 FROM "SearchPassage" p WHERE p."pid" = v."pid")`,
        )
      )[0]!.n;
    await ctx.db.transcript.delete({ where: { id } });
    expect(await count()).toBe(0);
    const { upgradeProgress } = await import("./second-stage");
    const { passages, upgraded } = await upgradeProgress(stage);
    expect(upgraded).toBe(passages);
  });
});
