import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { followRoutes, until, type FollowRoutes } from "@/test/follows";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { FEEDS_DIR, generatedFeed, type FakePodcastServer } from "@/test/fakes/podcasts/server";

// Follows against the route handlers and real PostgreSQL: the fake podcast host serves feeds a test changes
// (with ETags), the local runner runs the follow-check chain and the transcriptions (the OpenAI-compatible fake
// hears "Hello." at once). Checks are also called directly, to see their cost and to run two at once.

let world: ImportWorld;
let fake: FakePodcastServer;
let checkFollow: typeof import("@/lib/follows/check-follow").checkFollow;
let routes: FollowRoutes;

const GIANTBOMB = readFileSync(path.join(FEEDS_DIR, "giantbomb-podcast.rss"), "utf8");

/** The real feed with `n` new episodes on top (newest first, as the feed lists them). */
function giantbombWith(prefix: string, n: number): string {
  const items = Array.from(
    { length: n },
    (_, k) =>
      `<item><title>New ${prefix} ${k}</title><guid isPermaLink="false">${prefix}-new-${k}</guid><itunes:duration>2</itunes:duration><enclosure url="https://example.com/${prefix}-new-${k}.mp3" type="audio/mpeg" length="1"/></item>`,
  );
  const at = GIANTBOMB.indexOf("<item>");
  return GIANTBOMB.slice(0, at) + items.join("\n") + GIANTBOMB.slice(at);
}

beforeAll(async () => {
  world = await startImportWorld("follows", (podcasts) => ({ ITUNES_LOOKUP_URL: `${podcasts.origin}/lookup` }));
  fake = world.podcasts;
  ({ checkFollow } = await import("@/lib/follows/check-follow"));
  routes = await followRoutes();
});

afterAll(async () => {
  await world?.close();
});

interface Follow {
  id: string;
  url: string;
  kind: string;
  title: string | null;
  state: string;
  note: string | null;
  items_seen: number;
  next_check_at: string | null;
  last_checked_at: string | null;
}
interface Item {
  guid: string;
  status: string;
  transcript_id: string | null;
  job_id: string | null;
}

async function follow(headers: Record<string, string>, body: Record<string, unknown>) {
  return callRoute(routes.create, "/v1/follows", { headers, body });
}

async function followed(headers: Record<string, string>, url: string, extra: Record<string, unknown> = {}) {
  const res = await follow(headers, { url, ...extra });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as Follow;
}

async function detail(headers: Record<string, string>, id: string) {
  const res = await callRoute(routes.get, `/v1/follows/${id}`, { headers, params: { id } });
  return res.json as Follow & { items: Item[] };
}

async function waitForItems(headers: Record<string, string>, id: string, done: number) {
  for (let i = 0; i < 600; i++) {
    const items = (await detail(headers, id)).items;
    if (items.filter((x) => x.status === "done").length >= done) return items;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`follow ${id} did not finish ${done} items`);
}

/** The error's code: `{code}`, or the first item's `type` of a 422 in FastAPI's shape. */
function codeOf(res: { status: number; json: unknown }): string {
  const body = res.json as { code?: string; detail?: { type: string }[] };
  return `${res.status} ${body.code ?? body.detail?.[0]?.type}`;
}

async function usedSeconds(userId: string) {
  return (await world.ctx.db.usagePeriod.findFirst({ where: { userId } }))?.usedSeconds ?? 0;
}

describe("follows", () => {
  it("starts from now: what the feed holds is remembered, not transcribed; list and get show it", async () => {
    const { userId, headers } = await world.caller();
    fake.live.set("/live/now.rss", generatedFeed(fake.origin, 5, { prefix: "now" }));
    const created = await followed(headers, `${fake.origin}/live/now.rss`);
    expect(created).toMatchObject({ kind: "podcast", title: "Generated show (5)", state: "active", items_seen: 5 });
    expect(new Date(created.next_check_at!).getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    const listed = await callRoute(routes.list, "/v1/follows", { headers });
    expect((listed.json as Follow[]).map((f) => f.id)).toEqual([created.id]);
    const items = (await detail(headers, created.id)).items;
    expect(items).toHaveLength(5);
    expect(items.every((i) => i.status === "seen")).toBe(true);
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(0);
    // Another user sees none of it.
    const other = await world.caller();
    expect(
      (await callRoute(routes.get, `/v1/follows/${created.id}`, { headers: other.headers, params: { id: created.id } }))
        .status,
    ).toBe(404);
    expect((await follow(headers, { url: `${fake.origin}/live/now.rss` })).json).toMatchObject({
      code: "follow_exists",
    });
  });

  it("a real feed of 730 episodes: an unchanged check is one conditional request; a new episode is transcribed once", async () => {
    const { userId, headers } = await world.caller();
    fake.live.set("/live/giantbomb.rss", GIANTBOMB);
    const created = await followed(headers, `${fake.origin}/live/giantbomb.rss`);
    expect(created.items_seen).toBe(500); // IMPORT_MAX_ITEMS of the newest

    const primed = await checkFollow(created.id); // the first check learns the ETag
    expect(primed).toMatchObject({ fetched: true, requests: 1, found: 0, started: 0 });
    expect(primed.bytes).toBeGreaterThan(1_000_000);
    const unchanged = await checkFollow(created.id);
    expect(unchanged).toMatchObject({ fetched: true, requests: 1, bytes: 0, found: 0, started: 0 });

    fake.live.set("/live/giantbomb.rss", giantbombWith("gb", 1));
    const fresh = await checkFollow(created.id);
    expect(fresh).toMatchObject({ fetched: true, requests: 1, found: 1, started: 1 });
    const items = await waitForItems(headers, created.id, 1);
    expect(items[0]).toMatchObject({ guid: "gb-new-0", status: "done" });
    expect(items.filter((i) => i.status !== "seen")).toHaveLength(1);
    expect(await usedSeconds(userId)).toBe(1);
    // Checked again (a retry, a restart): nothing new, nothing charged again.
    expect(await checkFollow(created.id)).toMatchObject({ found: 0, started: 0 });
    expect(await usedSeconds(userId)).toBe(1);
    expect(
      await world.ctx.db.job.count({
        where: { userId, status: { not: "done" }, input: { path: ["pipeline"], equals: "transcribe" } },
      }),
    ).toBe(0);
  });

  it("two checks at once: each new item is claimed, started and charged once", async () => {
    const { userId, headers } = await world.caller();
    fake.live.set("/live/race.rss", generatedFeed(fake.origin, 4, { prefix: "race" }));
    const created = await followed(headers, `${fake.origin}/live/race.rss`);
    fake.live.set("/live/race.rss", generatedFeed(fake.origin, 7, { prefix: "race" }));
    const [a, b] = await Promise.all([checkFollow(created.id), checkFollow(created.id)]);
    expect(a.started + b.started).toBe(3);
    await waitForItems(headers, created.id, 3);
    const entries = await world.ctx.db.transcription.findMany({ where: { userId } });
    expect(entries.map((e) => e.videoId).sort()).toHaveLength(3);
    expect(await world.ctx.db.followItem.count({ where: { followId: created.id } })).toBe(7);
    // Each generated episode i reserves its feed duration (60 + i seconds or 1:0i) and is settled at 1 s.
    expect(await usedSeconds(userId)).toBe(3);
  });

  it("backfill transcribes the newest N on the job system; more than FOLLOW_MAX_BACKFILL is a 422", async () => {
    const { headers } = await world.caller();
    fake.live.set("/live/back.rss", generatedFeed(fake.origin, 6, { prefix: "back" }));
    expect((await follow(headers, { url: `${fake.origin}/live/back.rss`, backfill: 21 })).status).toBe(422);
    const created = await followed(headers, `${fake.origin}/live/back.rss`, { backfill: 2 });
    const items = await waitForItems(headers, created.id, 2);
    expect(
      items
        .filter((i) => i.status === "done")
        .map((i) => i.guid)
        .sort(),
    ).toEqual(["back-5", "back-6"]);
    expect(items.filter((i) => i.status === "seen")).toHaveLength(4);
  });

  it("a feed that moved for good is followed at its new URL; one that fails backs off and says why", async () => {
    const { headers } = await world.caller();
    fake.live.set("/live/old.rss", generatedFeed(fake.origin, 2, { prefix: "old" }));
    const created = await followed(headers, `${fake.origin}/live/old.rss`);
    fake.live.set("/live/new.rss", generatedFeed(fake.origin, 2, { prefix: "old" }));
    fake.redirects.set("/live/old.rss", [301, "/live/new.rss"]);
    expect(await checkFollow(created.id)).toMatchObject({ requests: 2, found: 0 });
    expect((await detail(headers, created.id)).url).toBe(`${fake.origin}/live/new.rss`);

    fake.live.delete("/live/new.rss");
    expect((await checkFollow(created.id)).error).toContain("HTTP 404");
    const failing = await detail(headers, created.id);
    expect(failing).toMatchObject({ state: "failing" });
    expect(failing.note).toContain("HTTP 404");
    fake.live.set("/live/new.rss", generatedFeed(fake.origin, 2, { prefix: "old" }));
    await checkFollow(created.id);
    expect(await detail(headers, created.id)).toMatchObject({ state: "active", note: null });
  });

  it("bad input is a clear 4xx: a web page, an audio file, an unknown Apple show", async () => {
    const { headers } = await world.caller();
    expect(codeOf(await follow(headers, { url: `${fake.origin}/hostile/page.html` }))).toBe("422 not_a_feed");
    expect(codeOf(await follow(headers, { url: `${fake.origin}/ex/file.mp3` }))).toBe("422 not_a_feed");
    expect(codeOf(await follow(headers, { url: `${fake.origin}/hostile/malformed.xml` }))).toBe("422 feed_invalid");
    expect(codeOf(await follow(headers, { url: `${fake.origin}/nothing.xml` }))).toBe("502 upstream_failed");
    const apple = await follow(headers, { url: "https://podcasts.apple.com/us/podcast/x/id999999" });
    expect(codeOf(apple)).toBe("404 podcast_not_found");
    expect((await follow(headers, { url: "http://10.0.0.1/feed.xml" })).status).toBe(422);
  });

  it("pause, check now, resume and delete", async () => {
    const { headers } = await world.caller();
    fake.live.set("/live/manage.rss", generatedFeed(fake.origin, 2, { prefix: "manage" }));
    const { id } = await followed(headers, `${fake.origin}/live/manage.rss`);
    const paused = await callRoute(routes.patch, `/v1/follows/${id}`, {
      headers,
      params: { id },
      method: "PATCH",
      body: { state: "paused" },
    });
    expect(paused.json).toMatchObject({ state: "paused", next_check_at: null });
    const refused = await callRoute(routes.check, `/v1/follows/${id}/check`, {
      headers,
      params: { id },
      method: "POST",
    });
    expect(refused.json).toMatchObject({ code: "follow_paused" });
    const resumed = await callRoute(routes.patch, `/v1/follows/${id}`, {
      headers,
      params: { id },
      method: "PATCH",
      body: { state: "active", publish: true },
    });
    expect(resumed.json).toMatchObject({ state: "active", publish: true });
    fake.live.set("/live/manage.rss", generatedFeed(fake.origin, 3, { prefix: "manage" }));
    const checked = await callRoute(routes.check, `/v1/follows/${id}/check`, {
      headers,
      params: { id },
      method: "POST",
    });
    expect(checked.status).toBe(202);
    const items = await waitForItems(headers, id, 1);
    expect(items[0]).toMatchObject({ guid: "manage-3", status: "done" });
    // publish: true publishes it once the chain sees the item's job done.
    let published = false;
    for (let i = 0; i < 300 && !published; i++) {
      published = (await world.ctx.db.publication.count({ where: { transcriptId: items[0]!.transcript_id! } })) > 0;
      if (!published) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(published).toBe(true);
    expect(
      (await callRoute(routes.remove, `/v1/follows/${id}`, { headers, params: { id }, method: "DELETE" })).status,
    ).toBe(204);
    expect((await callRoute(routes.get, `/v1/follows/${id}`, { headers, params: { id } })).status).toBe(404);
  });

  it("check now with nothing new ends too: its time moves past the last one and nothing is added", async () => {
    // The dashboard's Check now waits for last_checked_at to change (components/dashboard/follows-panel.tsx).
    const { headers } = await world.caller();
    fake.live.set("/live/quiet.rss", generatedFeed(fake.origin, 1, { prefix: "quiet" }));
    const { id } = await followed(headers, `${fake.origin}/live/quiet.rss`);
    const before = await until(
      "the first check",
      () => detail(headers, id),
      (d) => d.last_checked_at !== null,
    );
    const checked = await callRoute(routes.check, `/v1/follows/${id}/check`, {
      headers,
      params: { id },
      method: "POST",
    });
    expect(checked.status).toBe(202);
    const after = await until(
      "the asked-for check",
      () => detail(headers, id),
      (d) => d.last_checked_at !== before.last_checked_at,
    );
    expect(Date.parse(after.last_checked_at!)).toBeGreaterThan(Date.parse(before.last_checked_at!));
    expect(after.items.map((item) => [item.guid, item.status])).toEqual([["quiet-1", "seen"]]);
    expect(after.state).toBe("active");
  });

  it("when the allowance runs out the follow pauses, says so, and the item waits", async () => {
    const { userId, headers } = await world.caller();
    fake.live.set("/live/broke.rss", generatedFeed(fake.origin, 1, { prefix: "broke" }));
    const { id } = await followed(headers, `${fake.origin}/live/broke.rss`);
    const { chargeSeconds } = await import("@/lib/usage/charge");
    await world.ctx.db.$transaction((tx) => chargeSeconds(tx, userId, 900));
    fake.live.set("/live/broke.rss", generatedFeed(fake.origin, 2, { prefix: "broke" }));
    expect(await checkFollow(id)).toMatchObject({ found: 1, started: 0 });
    const paused = await detail(headers, id);
    expect(paused.state).toBe("allowance");
    expect(paused.note).toMatch(/allowance/);
    expect(new Date(paused.next_check_at!).getUTCDate()).toBe(1);
    expect(paused.items.find((i) => i.guid === "broke-2")?.status).toBe("queued");
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(0);
  });

  it("each transcribed item is told to the follow's webhook_url with its follow_id, also without a job", async () => {
    const { userId, headers } = await world.caller();
    await (await import("@/lib/webhooks/rotate-request-secret")).rotateRequestSecret(userId);
    fake.live.set("/live/hook.rss", generatedFeed(fake.origin, 1, { prefix: "hook" }));
    const hook = "https://hooks.example.com/follows";
    const { id } = await followed(headers, `${fake.origin}/live/hook.rss`, { webhook_url: hook });
    fake.live.set(
      "/live/hook.rss",
      generatedFeed(fake.origin, 3, { prefix: "hook" }).replace(
        "<guid",
        `<podcast:transcript url="${fake.origin}/ex/hook-3/transcript.json" type="application/json"/><guid`,
      ),
    );
    await checkFollow(id);
    await waitForItems(headers, id, 2);
    let payloads: { type: string; data: { follow_id?: string; job_id: string | null } }[] = [];
    for (let i = 0; i < 300 && payloads.length < 2; i++) {
      const rows = await world.ctx.db.webhookDelivery.findMany({ where: { userId, url: hook } });
      payloads = rows.map((r) => r.payload as (typeof payloads)[number]);
      if (payloads.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(payloads.map((p) => [p.type, p.data.follow_id])).toEqual([
      ["transcript.completed", id],
      ["transcript.completed", id],
    ]);
    // hook-3 publishes its transcript (no job); hook-2 is recognised (a job).
    expect(payloads.map((p) => p.data.job_id === null).sort()).toEqual([false, true]);
  });
});

describe("a show given to an alert of chosen follows", () => {
  it("follows it when not followed yet (nothing transcribed), adds it once, takes an existing follow, refuses other scopes", async () => {
    const { userId, headers } = await world.caller();
    const alerts = await import("@/app/v1/alerts/route");
    const give = (await import("@/app/v1/alerts/[id]/follows/route")).POST;
    const addShow = (id: string, body: Record<string, unknown>, as = headers) =>
      callRoute(give, `/v1/alerts/${id}/follows`, { headers: as, params: { id }, body });
    fake.live.set("/live/first.rss", generatedFeed(fake.origin, 2, { prefix: "first" }));
    fake.live.set("/live/second.rss", generatedFeed(fake.origin, 3, { prefix: "second" }));
    fake.live.set("/live/third.rss", generatedFeed(fake.origin, 1, { prefix: "third" }));
    const first = await followed(headers, `${fake.origin}/live/first.rss`);
    const made = await callRoute(alerts.POST, "/v1/alerts", {
      headers,
      body: { query: "harbour", scope: { kind: "follows", follow_ids: [first.id] } },
    });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    const alertId = (made.json as { id: string }).id;

    // A show not followed yet: followed now, from its next item on, and watched.
    const given = await addShow(alertId, { url: `${fake.origin}/live/second.rss`, lang: "de" });
    expect(given.status, JSON.stringify(given.json)).toBe(200);
    const follows = await world.ctx.db.follow.findMany({ where: { userId }, orderBy: { createdAt: "asc" } });
    expect(follows.map((f) => [f.url, f.lang, f.itemsSeen])).toEqual([
      [`${fake.origin}/live/first.rss`, "en", 2],
      [`${fake.origin}/live/second.rss`, "de", 3],
    ]);
    expect((given.json as { scope: { follow_ids: string[] } }).scope.follow_ids).toEqual([first.id, follows[1].id]);
    expect(await world.ctx.db.followItem.count({ where: { followId: follows[1].id, status: { not: "seen" } } })).toBe(
      0,
    );

    // The same show again: nothing changes. Two shows at once: both kept.
    const again = await addShow(alertId, { url: `${fake.origin}/live/second.rss` });
    expect((again.json as { scope: { follow_ids: string[] } }).scope.follow_ids).toEqual([first.id, follows[1].id]);
    const both = await Promise.all([
      addShow(alertId, { url: `${fake.origin}/live/third.rss` }),
      addShow(alertId, { url: `${fake.origin}/live/third.rss` }),
    ]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    const third = await world.ctx.db.follow.findMany({ where: { userId, url: `${fake.origin}/live/third.rss` } });
    expect(third).toHaveLength(1);
    const stored = await world.ctx.db.alert.findUniqueOrThrow({ where: { id: alertId } });
    expect(stored.scopeIds).toEqual([first.id, follows[1].id, third[0].id]);

    // A show this account follows already, given to a second alert: its follow, not a follow_exists.
    const other = await callRoute(alerts.POST, "/v1/alerts", {
      headers,
      body: { query: "ferry", scope: { kind: "follows", follow_ids: [third[0].id] } },
    });
    const taken = await addShow((other.json as { id: string }).id, { url: `${fake.origin}/live/first.rss` });
    expect((taken.json as { scope: { follow_ids: string[] } }).scope.follow_ids).toEqual([third[0].id, first.id]);
    expect(await world.ctx.db.follow.count({ where: { userId } })).toBe(3);

    // Not a feed: the follow's own 4xx, the alert as it was. An alert of a library: 422. Another's alert: 404.
    fake.live.set("/live/page.html", "<!doctype html><title>not a feed</title>");
    const notFeed = await addShow(alertId, { url: `${fake.origin}/live/page.html` });
    expect(notFeed.status).toBeGreaterThanOrEqual(400);
    expect(notFeed.status).toBeLessThan(500);
    expect((await world.ctx.db.alert.findUniqueOrThrow({ where: { id: alertId } })).scopeIds).toHaveLength(3);
    const library = await callRoute(alerts.POST, "/v1/alerts", {
      headers,
      body: { query: "gulls", scope: { kind: "library" } },
    });
    const refused = await addShow((library.json as { id: string }).id, { url: `${fake.origin}/live/first.rss` });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json)).toContain("only an alert of chosen follows takes a show");
    const stranger = await world.caller();
    expect((await addShow(alertId, { url: `${fake.origin}/live/first.rss` }, stranger.headers)).status).toBe(404);
    expect(await world.ctx.db.follow.count({ where: { userId: stranger.userId } })).toBe(0);
  });
});
