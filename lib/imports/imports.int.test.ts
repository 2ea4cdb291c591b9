import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import type { FakePodcastServer } from "@/test/fakes/podcasts/server";

// Imports end to end: POST /v1/import → the import job (local runner, real PostgreSQL) lists a feed from the
// fake podcast host and transcribes each episode through the real speech-recognition path (guarded download,
// ffprobe/ffmpeg, the OpenAI-compatible fake answering at once) → GET /v1/import/{id} shows the counts.

let world: ImportWorld;
let ctx: ImportWorld["ctx"];
let fake: FakePodcastServer;
let routes: {
  start: typeof import("@/app/v1/import/route").POST;
  list: typeof import("@/app/v1/import/route").GET;
  get: typeof import("@/app/v1/import/[batch_id]/route").GET;
};

beforeAll(async () => {
  world = await startImportWorld("imports", (podcasts) => ({ ITUNES_LOOKUP_URL: `${podcasts.origin}/lookup` }));
  ({ ctx, podcasts: fake } = world);
  fake.shows.set("1000", {
    feed: "/feeds/podcastindex-example.xml",
    episodes: [
      {
        trackId: 2003,
        guid: "https://example.com/ep0003",
        title: "Episode 3 - The Future",
        audioPath: "/ex/file-03.mp3",
      },
    ],
  });
  const batchRoutes = await import("@/app/v1/import/route");
  routes = {
    start: batchRoutes.POST,
    list: batchRoutes.GET,
    get: (await import("@/app/v1/import/[batch_id]/route")).GET,
  };
});

afterAll(async () => {
  await world?.close();
});

async function caller() {
  const { userId, headers } = await world.caller();
  return { user: { id: userId }, auth: headers };
}

interface Batch {
  id: string;
  source_url: string;
  title: string | null;
  total: number;
  done: number;
  failed: number;
  skipped: number;
  status: string;
  note: string | null;
}

async function startImport(auth: Record<string, string>, url: string): Promise<string> {
  const res = await callRoute(routes.start, "/v1/import", { headers: auth, body: { url } });
  expect(res.status).toBe(200);
  return (res.json as { batch_id: string }).batch_id;
}

async function waitForBatch(auth: Record<string, string>, id: string, seconds = 240): Promise<Batch> {
  for (let i = 0; i < seconds * 10; i++) {
    const res = await callRoute(routes.get, `/v1/import/${id}`, { headers: auth, params: { batch_id: id } });
    const batch = res.json as Batch;
    if (["done", "partial", "error"].includes(batch.status)) return batch;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`batch ${id} did not finish`);
}

const EPISODES = 10;

describe("imports", () => {
  // 10 episodes prove what 200 did (docs/testing.md: fixtures sized to what they prove): more than twice the runner's
  // concurrency, so items queue, finish out of order and are counted while others still run.
  it("a 10-episode feed: every episode transcribed once, counts right, nothing charged twice", async () => {
    const { user, auth } = await caller();
    const id = await startImport(auth, `${fake.origin}/generated/${EPISODES}.xml?prefix=big`);
    const batch = await waitForBatch(auth, id);
    expect(batch).toMatchObject({
      total: EPISODES,
      done: EPISODES,
      failed: 0,
      skipped: 0,
      status: "done",
      note: null,
      title: `Generated show (${EPISODES})`,
    });
    const entries = await ctx.db.transcription.findMany({ where: { userId: user.id } });
    expect(entries).toHaveLength(EPISODES);
    expect(entries.every((e) => e.state === "done" && e.origin === "asr" && e.totalSeconds === 1)).toBe(true);
    const period = await ctx.db.usagePeriod.findFirst({ where: { userId: user.id } });
    expect(period?.usedSeconds).toBe(EPISODES);
    const items = await ctx.db.importItem.findMany({ where: { batchId: id } });
    expect(new Set(items.map((i) => i.jobId)).size).toBe(EPISODES);
  });

  it("names the member who started a team's import on each entry it makes, and charges the team", async () => {
    const { user: member } = await caller();
    const team = await ctx.db.user.create({ data: { kind: "team", name: "Import desk" } });
    await ctx.db.membership.create({ data: { teamId: team.id, userId: member.id, role: "member" } });
    const { startImport: start } = await import("@/lib/imports/start-import");
    const { actingAs } = await import("@/lib/membership/actor");
    const { appOutbound } = await import("@/lib/http/outbound/configured");
    const url = `${fake.origin}/generated/2.xml?prefix=team`;
    const { batch_id } = await actingAs(member.id, () =>
      start(team.id, { url, lang: "en" }, { outbound: appOutbound() }),
    );
    for (let i = 0; i < 2400; i++) {
      const batch = await ctx.db.importBatch.findUniqueOrThrow({ where: { id: batch_id } });
      if (["done", "partial", "error"].includes(batch.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const entries = await ctx.db.transcription.findMany({ where: { userId: team.id } });
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => e.actorId)).toEqual([member.id, member.id]);
    expect((await ctx.db.usagePeriod.findFirst({ where: { userId: team.id } }))?.usedSeconds).toBe(2);
    expect(await ctx.db.transcription.count({ where: { userId: member.id } })).toBe(0);
  });

  it("charges a feed whose episodes publish their own transcripts exactly what the preview said", async () => {
    const { user, auth } = await caller();
    const url = `${fake.origin}/generated/3.xml?prefix=preview&transcripts=1`;
    const resolve = (await import("@/app/v1/podcast/resolve/route")).POST;
    const resolved = await callRoute(resolve, "/v1/podcast/resolve", { headers: auth, body: { url } });
    expect(resolved.status).toBe(200);
    const { importCostText } = await import("@/lib/browser/imports");
    const feed = resolved.json as { episodes: { duration: string | null; has_transcript: boolean }[] };
    const preview = importCostText(feed.episodes, feed.episodes.length, true);
    // Episodes 1 to 3 state 61, 62 and 63 s; their transcripts end within the first 3 s.
    expect(preview.seconds).toBe(186);

    const batch = await waitForBatch(auth, await startImport(auth, url));
    expect(batch).toMatchObject({ total: 3, done: 3, status: "done" });
    const entries = await ctx.db.transcription.findMany({ where: { userId: user.id } });
    expect(entries.every((e) => e.origin === "captions")).toBe(true);
    const period = await ctx.db.usagePeriod.findFirst({ where: { userId: user.id } });
    expect(period?.usedSeconds).toBe(preview.seconds);
  });

  it("skips what the user already has; the list is newest first and private to its owner", async () => {
    const { auth } = await caller();
    const first = await startImport(auth, `${fake.origin}/generated/3.xml?prefix=again`);
    expect(await waitForBatch(auth, first)).toMatchObject({ total: 3, done: 3, status: "done" });
    const second = await startImport(auth, `${fake.origin}/generated/5.xml?prefix=again`);
    expect(await waitForBatch(auth, second)).toMatchObject({
      total: 5,
      done: 2,
      skipped: 3,
      failed: 0,
      status: "done",
    });

    const list = await callRoute(routes.list, "/v1/import", { headers: auth });
    expect((list.json as Batch[]).map((b) => b.id)).toEqual([second, first]);

    const other = await caller();
    const res = await callRoute(routes.get, `/v1/import/${first}`, {
      headers: other.auth,
      params: { batch_id: first },
    });
    expect(res.status).toBe(404);
    expect((await callRoute(routes.list, "/v1/import", { headers: other.auth })).json).toEqual([]);
  });

  it("an allowance that runs out mid-batch: the rest are failed with a note, not dropped", async () => {
    const { user, auth } = await caller();
    // Free tier: 900 s a month. Leave 3 s: three one-second episodes fit, the other five do not.
    const { chargeSeconds } = await import("@/lib/usage/charge");
    await ctx.db.$transaction((tx) => chargeSeconds(tx, user.id, 897));
    const id = await startImport(auth, `${fake.origin}/generated/8.xml?prefix=allowance&durations=0`);
    const batch = await waitForBatch(auth, id);
    expect(batch).toMatchObject({ total: 8, done: 3, failed: 5, skipped: 0, status: "partial" });
    expect(batch.note).toMatch(/^5 of 8 items failed; the first: .*allowance/);
    const failed = await ctx.db.importItem.findMany({ where: { batchId: id, status: "failed" } });
    expect(failed).toHaveLength(5);
    expect(failed.every((i) => /allowance/.test(i.note ?? ""))).toBe(true);
    const period = await ctx.db.usagePeriod.findFirst({ where: { userId: user.id } });
    expect(period?.usedSeconds).toBe(900);
  });

  it("an Apple Podcasts episode link imports that one episode; a show link imports the feed", async () => {
    const { auth } = await caller();
    const episode = await startImport(auth, "https://podcasts.apple.com/us/podcast/example/id1000?i=2003");
    expect(await waitForBatch(auth, episode)).toMatchObject({
      total: 1,
      done: 1,
      status: "done",
      title: "Podcasting 2.0 Namespace Example",
    });
    const show = await startImport(auth, "https://podcasts.apple.com/us/podcast/example/id1000");
    // Three episodes (the live item's stream is not an episode); the one just transcribed is skipped.
    expect(await waitForBatch(auth, show)).toMatchObject({ total: 3, skipped: 1, done: 2, failed: 0, status: "done" });
  });

  it("a vocabulary on the import reaches the recogniser for every episode, as its prompt; a bad one is a 422", async () => {
    const { auth } = await caller();
    const res = await callRoute(routes.start, "/v1/import", {
      headers: auth,
      body: { url: `${fake.origin}/generated/3.xml?prefix=vocab`, vocabulary: ["Verbatim", "Nguyễn Thị Lan"] },
    });
    expect(res.status).toBe(200);
    const before = world.asr.requests.length;
    const batch = await waitForBatch(auth, (res.json as { batch_id: string }).batch_id);
    expect(batch).toMatchObject({ total: 3, done: 3, status: "done" });
    const sent = world.asr.requests.slice(before);
    expect(sent).toHaveLength(3);
    expect(sent.every((r) => r.params.prompt === "Verbatim, Nguyễn Thị Lan.")).toBe(true);

    const bad = await callRoute(routes.start, "/v1/import", {
      headers: auth,
      body: { url: `${fake.origin}/generated/3.xml?prefix=vocab-bad`, vocabulary: ["x".repeat(51)] },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ detail: [{ loc: ["body", "vocabulary", 0] }] });
  });

  it("two batches of one user at once never run more than IMPORT_CONCURRENCY items together", async () => {
    const { user, auth } = await caller();
    const ids = await Promise.all([
      // Each batch has more items than the limit: a limit per batch instead of per user would run 8 at once.
      startImport(auth, `${fake.origin}/generated/6.xml?prefix=pair-a&durations=0`),
      startImport(auth, `${fake.origin}/generated/6.xml?prefix=pair-b&durations=0`),
    ]);
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(
          most,
          await ctx.db.importItem.count({ where: { status: "running", batch: { userId: user.id } } }),
        );
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const batches = await Promise.all(ids.map((id) => waitForBatch(auth, id)));
    sampling = false;
    await sampler;
    expect(batches.map((b) => [b.status, b.done])).toEqual([
      ["done", 6],
      ["done", 6],
    ]);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(4); // IMPORT_CONCURRENCY in this file
  });

  it("a source that cannot be listed ends in error with the reason; bad URLs are refused at once", async () => {
    const { auth } = await caller();
    const id = await startImport(auth, `${fake.origin}/hostile/malformed.xml`);
    const batch = await waitForBatch(auth, id);
    expect(batch).toMatchObject({ status: "error", total: 0 });
    expect(batch.note).toMatch(/not well-formed XML/);

    const internal = await callRoute(routes.start, "/v1/import", {
      headers: auth,
      body: { url: "http://169.254.169.254/latest/meta-data" },
    });
    expect(internal.status).toBe(422);
    expect((internal.json as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual(["body", "url"]);
    expect(
      (await callRoute(routes.start, "/v1/import", { headers: auth, body: { url: "x".repeat(3000) } })).status,
    ).toBe(422);
    expect(
      (await callRoute(routes.start, "/v1/import", { body: { url: `${fake.origin}/generated/1.xml` } })).status,
    ).toBe(401);
  });
});
