// What an alert reaches and what it is told when it reaches no further: a public alert watches transcripts as they
// become public, not each library one enters after; the account's last alert names the limit that applies (a
// server without plans has no plan to name).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { storeTranscript, type Segments } from "@/test/search";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;

const HARBOUR: Segments = [{ start: 0, end: 5, text: "The quillowick boats came into the harbour at dawn." }];

beforeAll(async () => {
  Object.assign(process.env, {
    APP_URL: "https://verbatim.test",
    RATE_LIMIT_MULTIPLIER: "0",
    SEARCH_EMBEDDER: "off",
    ALERT_MAX_FREE: "2",
  });
  delete process.env.STRIPE_SECRET_KEY;
  ctx = await useTestDatabase();
  db = ctx.db;
});

afterAll(async () => {
  await ctx?.teardown();
});

async function save(headers: Record<string, string>, body: object) {
  const alerts = await import("@/app/v1/alerts/route");
  return callRoute(alerts.POST, "/v1/alerts", { headers, body });
}

/** Runs the alert checks the database has queued, as the local runner would. */
async function runQueuedChecks(): Promise<void> {
  const { checkTranscript } = await import("@/lib/alerts/match-transcript");
  const jobs = await db.job.findMany({
    where: { status: "queued", input: { path: ["pipeline"], equals: "alerts-match" } },
    orderBy: { createdAt: "asc" },
  });
  for (const job of jobs) {
    await checkTranscript((job.input as unknown as { context: never }).context);
    await db.job.update({ where: { id: job.id }, data: { status: "done" } });
  }
}

describe("a public alert", () => {
  it("fires when a transcript is published, not when an already public one enters a team's library", async () => {
    const publisher = await createCaller(db);
    const watcher = await createCaller(db);
    const { transcript } = await storeTranscript(db, {
      segments: HARBOUR,
      lang: "en",
      title: "Harbour",
      userIds: [publisher.userId],
    });
    await db.publication.create({
      data: {
        slug: `harbour-${Date.now()}`,
        userId: publisher.userId,
        transcriptId: transcript.id,
        publishedAt: new Date(),
      },
    });
    const saved = await save(watcher.headers, { query: "quillowick", scope: { kind: "public" } });
    expect(saved.status).toBe(201);
    await runQueuedChecks();

    const team = await db.user.create({ data: { kind: "team", name: "Crew", slug: `crew-${Date.now()}` } });
    await db.transcription.create({
      data: {
        userId: team.id,
        platform: transcript.platform,
        videoId: transcript.videoId,
        lang: "en",
        origin: "captions",
        transcriptId: transcript.id,
        state: "done",
      },
    });
    await runQueuedChecks();
    expect(await db.alertMatch.count({ where: { alertId: (saved.json as { id: string }).id } })).toBe(0);

    // A transcript newly published does reach it: the test can fail.
    const fresh = await storeTranscript(db, { segments: HARBOUR, lang: "en", title: "Dawn", userIds: [team.id] });
    await db.publication.create({
      data: { slug: `dawn-${Date.now()}`, userId: team.id, transcriptId: fresh.transcript.id, publishedAt: new Date() },
    });
    await runQueuedChecks();
    expect(await db.alertMatch.count({ where: { alertId: (saved.json as { id: string }).id } })).toBe(1);
  });
});

describe("the account's last alert", () => {
  it("names the server's limit when the server sells no plans", async () => {
    const person = await createCaller(db);
    for (const query of ["gulls", "ferry"])
      expect((await save(person.headers, { query, scope: { kind: "library" } })).status).toBe(201);
    const refused = await save(person.headers, { query: "pier", scope: { kind: "library" } });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: "too_many_alerts" });
    expect((refused.json as { detail: string }).detail).toMatch(/keeps 2 alerts, the most this server allows/);
    expect((refused.json as { detail: string }).detail).not.toMatch(/plan/);
  });
});
