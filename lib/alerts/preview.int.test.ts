// An alert's preview searches only the transcripts whose passages its owner may see hold one of its words: a word
// only in another person's private correction costs no search, so the preview's work does not tell it is there.
// What the owner may see still matches: their own correction, a publisher's served one, a team's.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { callRoute } from "@/test/request";
import { indexCorrections, storeTranscript, type Segments } from "@/test/search";

vi.mock("@/lib/search/find-moments", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/search/find-moments")>();
  return { ...actual, momentsInTranscript: vi.fn(actual.momentsInTranscript) };
});

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let db: PrismaClient;
let searches: { mock: { calls: unknown[][] }; mockClear(): void };
let routes: {
  alerts: typeof import("@/app/v1/alerts/route");
  preview: typeof import("@/app/v1/alerts/[id]/preview/route");
};

const KEEPER: Segments = [{ start: 0, end: 5, text: "A lighthouse keeper spread marmalade on his toast." }];
const DULL: Segments = [{ start: 0, end: 5, text: "Nothing about the sea in this one at all." }];
const WITH_WORD = DULL.map((s) => ({ ...s, text: `${s.text} Then marmalade.` }));

beforeAll(async () => {
  Object.assign(process.env, { APP_URL: "https://verbatim.test", RATE_LIMIT_MULTIPLIER: "0", SEARCH_EMBEDDER: "off" });
  ctx = await useTestDatabase();
  db = ctx.db;
  searches = (await import("@/lib/search/find-moments")).momentsInTranscript as unknown as typeof searches;
  routes = {
    alerts: await import("@/app/v1/alerts/route"),
    preview: await import("@/app/v1/alerts/[id]/preview/route"),
  };
});

afterAll(async () => {
  await ctx?.teardown();
});

type Caller = Awaited<ReturnType<typeof createCaller>>;

async function saveAlert(caller: Caller, scope: object): Promise<string> {
  const saved = await callRoute(routes.alerts.POST, "/v1/alerts", {
    headers: caller.headers,
    body: { query: "marmalade", scope },
  });
  expect(saved.status).toBe(201);
  return (saved.json as { id: string }).id;
}

/** The preview's matches (titles) and the transcripts it searched (ids), each sorted. */
async function preview(caller: Caller, id: string) {
  searches.mockClear();
  const answer = await callRoute(routes.preview.POST, "/", { headers: caller.headers, params: { id }, method: "POST" });
  expect(answer.status).toBe(200);
  const titles = (answer.json as { matches: { title: string }[] }).matches.map((m) => m.title).sort();
  const searched = searches.mock.calls.map((call) => call[2] as string).sort();
  return { titles, searched };
}

async function correct(userId: string, transcriptId: string) {
  await db.transcriptRevision.create({ data: { userId, transcriptId, segments: WITH_WORD, sizeBytes: 100 } });
  await indexCorrections(db);
}

async function publish(userId: string, transcriptId: string) {
  await db.publication.create({
    data: { slug: `p-${transcriptId}`, userId, transcriptId, publishedAt: new Date() },
  });
}

describe("an alert's preview", () => {
  it("searches no transcript for another person's private correction in the owner's library", async () => {
    const owner = await createCaller(db);
    const stranger = await createCaller(db);
    const keeper = await storeTranscript(db, {
      segments: KEEPER,
      lang: "en",
      title: "Keeper",
      userIds: [owner.userId],
    });
    const own = await storeTranscript(db, { segments: DULL, lang: "en", title: "Own", userIds: [owner.userId] });
    await correct(owner.userId, own.transcript.id);
    const shared = await storeTranscript(db, {
      segments: DULL,
      lang: "en",
      title: "Shared",
      userIds: [owner.userId, stranger.userId],
    });
    const id = await saveAlert(owner, { kind: "library" });
    const before = await preview(owner, id);
    expect(before.titles).toEqual(["Keeper", "Own"]);
    expect(before.searched).toEqual([keeper.transcript.id, own.transcript.id].sort());

    await correct(stranger.userId, shared.transcript.id);
    expect(await preview(owner, id)).toEqual(before);
  });

  it("searches the published transcripts as their publishers corrected them, not as another person did", async () => {
    const owner = await createCaller(db);
    const publisher = await createCaller(db);
    const stranger = await createCaller(db);
    const corrected = await storeTranscript(db, {
      segments: DULL,
      lang: "en",
      title: "Publisher's",
      userIds: [publisher.userId],
    });
    await correct(publisher.userId, corrected.transcript.id);
    await publish(publisher.userId, corrected.transcript.id);
    const other = await storeTranscript(db, {
      segments: DULL,
      lang: "en",
      title: "Other's",
      userIds: [publisher.userId, stranger.userId],
    });
    await publish(publisher.userId, other.transcript.id);
    const id = await saveAlert(owner, { kind: "public" });
    const before = await preview(owner, id);
    expect(before.titles).toEqual(["Publisher's"]);
    expect(before.searched).toEqual([corrected.transcript.id]);

    await correct(stranger.userId, other.transcript.id);
    expect(await preview(owner, id)).toEqual(before);
  });

  it("searches a team's transcripts as the team corrected them, not as another person did", async () => {
    const owner = await createCaller(db);
    const stranger = await createCaller(db);
    const team = await db.user.create({ data: { kind: "team", name: "Crew", slug: `crew-${Date.now()}` } });
    await db.membership.create({ data: { teamId: team.id, userId: owner.userId, role: "member" } });
    const teams = await storeTranscript(db, { segments: DULL, lang: "en", title: "Team's", userIds: [team.id] });
    await correct(team.id, teams.transcript.id);
    const held = await storeTranscript(db, {
      segments: DULL,
      lang: "en",
      title: "Held",
      userIds: [team.id, stranger.userId],
    });
    const id = await saveAlert(owner, { kind: "team", team_id: team.id });
    const before = await preview(owner, id);
    expect(before.titles).toEqual(["Team's"]);
    expect(before.searched).toEqual([teams.transcript.id]);

    await correct(stranger.userId, held.transcript.id);
    expect(await preview(owner, id)).toEqual(before);
  });
});
