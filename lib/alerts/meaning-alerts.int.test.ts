// Alerts by meaning: a question matched against each new transcript's passage vectors (made-up vectors of 4
// dimensions), at least its closeness alike; and the same privacy as by words: another person's private
// transcript and another person's correction never match, whatever they say.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { defaultModelFile } from "@/lib/embeddings/default-model";
import { DEFAULT_MEANING_PROFILE } from "@/lib/embeddings/meaning-profile";
import { encodeWordVectors } from "@/lib/embeddings/word-vectors";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute as callRouteRaw } from "@/test/request";
import { indexCorrections, storeTranscript } from "@/test/search";

/** A route's answer, its body read loosely: each test checks the fields it names. */
async function callRoute(...args: Parameters<typeof callRouteRaw>) {
  const answer = await callRouteRaw(...args);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { ...answer, json: answer.json as any };
}

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let dir: string;
let match: typeof import("@/lib/alerts/match-transcript");
let alerts: typeof import("@/app/v1/alerts/route");
let previewRoute: typeof import("@/app/v1/alerts/preview/route");

const VOCABULARY: [string, number[]][] = [
  ["the", [1, 1, 1, 1]],
  ["a", [1, 1, 1, 0.9]],
  ["cat", [9, 1, 0, 0]],
  ["kitten", [8, 2, 0, 0]],
  ["puppy", [7, 3, 0, 0]],
  ["engine", [0, 0, 9, 1]],
  ["rocket", [0, 1, 8, 2]],
  ["violin", [0, 9, 0, 1]],
];
const segments = (text: string) => [{ start: 0, end: 9, text }];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "meaning-alerts-"));
  // Made-up word vectors, and no distilled ones beside to outweigh them.
  Object.assign(process.env, {
    DATA_DIR: dir,
    SEARCH_EMBEDDER: "default",
    SEARCH_DISTILLED_WORDS: "0",
    RATE_LIMIT_MULTIPLIER: "0",
  });
  ctx = await useTestDatabase();
  db = ctx.db;
  const file = defaultModelFile(dir);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    encodeWordVectors(
      VOCABULARY.map(([word, vector]) => ({ word, vector })),
      4,
    ),
  );
  match = await import("@/lib/alerts/match-transcript");
  alerts = await import("@/app/v1/alerts/route");
  previewRoute = await import("@/app/v1/alerts/preview/route");
});

afterAll(async () => {
  await ctx?.teardown();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function runQueuedChecks(): Promise<number> {
  const jobs = await db.job.findMany({
    where: { status: "queued", input: { path: ["pipeline"], equals: "alerts-match" } },
    orderBy: { createdAt: "asc" },
  });
  let matched = 0;
  for (const job of jobs) {
    matched += await match.checkTranscript((job.input as unknown as { context: never }).context);
    await db.job.update({ where: { id: job.id }, data: { status: "done" } });
  }
  return matched;
}

describe("alerts by meaning", () => {
  it("match a transcript that means the question, not one that does not, nor what the owner cannot read", async () => {
    const owner = await createCaller(db);
    const stranger = await createCaller(db);
    const saved = await callRoute(alerts.POST, "/v1/alerts", {
      headers: owner.headers,
      body: { query: "a kitten", mode: "meaning", closeness: 0.9, scope: { kind: "library" } },
    });
    expect(saved.status).toBe(201);
    expect(saved.json).toMatchObject({ mode: "meaning", closeness: 0.9 });
    const everyone = await callRoute(alerts.POST, "/v1/alerts", {
      headers: owner.headers,
      body: { query: "a kitten", mode: "meaning", closeness: 0.9, scope: { kind: "public" } },
    });

    // Another person's private transcript, and another person's correction of one both hold.
    await storeTranscript(db, {
      segments: segments("the cat"),
      lang: "en",
      title: "Theirs",
      userIds: [stranger.userId],
    });
    const shared = await storeTranscript(db, {
      segments: segments("a violin"),
      lang: "en",
      title: "Shared",
      userIds: [owner.userId, stranger.userId],
    });
    await db.transcriptRevision.create({
      data: {
        userId: stranger.userId,
        transcriptId: shared.transcript.id,
        segments: segments("the cat"),
        sizeBytes: 10,
      },
    });
    await indexCorrections(db);
    await runQueuedChecks();
    expect(await db.alertMatch.count({ where: { alertId: { in: [saved.json.id, everyone.json.id] } } })).toBe(0);

    // Said otherwise, meant alike: the owner's own transcript of a cat matches; one of an engine does not.
    const own = await storeTranscript(db, {
      segments: segments("the cat"),
      lang: "en",
      title: "Mine",
      userIds: [owner.userId],
    });
    await storeTranscript(db, {
      segments: segments("a rocket engine"),
      lang: "en",
      title: "Engine",
      userIds: [owner.userId],
    });
    expect(await runQueuedChecks()).toBe(1);
    const [found] = await db.alertMatch.findMany({ where: { alertId: saved.json.id } });
    expect(found!.transcriptId).toBe(own.transcript.id);
  });

  it("previews before it is saved: how many of the last 30 days' transcripts it would have matched", async () => {
    const owner = await createCaller(db);
    for (const [text, title] of [
      ["the cat", "Cat"],
      ["a violin", "Violin"],
      ["a rocket engine", "Engine"],
    ])
      await storeTranscript(db, { segments: segments(text), lang: "en", title, userIds: [owner.userId] });
    const preview = (body: object) =>
      callRoute(previewRoute.POST, "/v1/alerts/preview", {
        headers: owner.headers,
        body: { scope: { kind: "library" }, ...body },
      });
    const meant = await preview({ query: "a kitten", mode: "meaning", closeness: "close" });
    expect(meant.status).toBe(200);
    expect(meant.json).toMatchObject({ matched: 1, transcripts: 3 });
    expect(meant.json.matches.map((m: { title: string }) => m.title)).toEqual(["Cat"]);
    const said = await preview({ query: "rocket", mode: "words" });
    expect(said.json).toMatchObject({ matched: 1, transcripts: 3 });
    expect(await db.alert.count({ where: { userId: owner.userId } })).toBe(0);
    // Saved with its closeness in words: the point of the embedder's own scale.
    const saved = await callRoute(alerts.POST, "/v1/alerts", {
      headers: owner.headers,
      body: { query: "a kitten", mode: "meaning", closeness: "close", scope: { kind: "library" } },
    });
    expect(saved.json.closeness).toBe(DEFAULT_MEANING_PROFILE.close);
  });
});
