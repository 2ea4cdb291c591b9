import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { deliverToCallback, until } from "@/test/follows";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { startFakeProxy, youtubeResolver, type FakeProxy } from "@/test/fakes/proxy/server";
import { startFakeHub, type FakeHub } from "@/test/fakes/websub/hub";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { createOutbound, type Outbound } from "@/lib/http/outbound";

// A followed YouTube playlist or channel, listed by the REAL yt-dlp through the app's guarded forward proxy chained
// to a proxy that hands https://www.youtube.com to the YouTube fake (as lib/imports/playlist-import.int.test.ts):
// what it holds is remembered, a video added later is transcribed from its captions at once (no job), and a
// playlist YouTube does not have is a 4xx when following it. A channel is subscribed for push at
// FOLLOW_PUSH_YOUTUBE_HUB (the fake WebSub hub, calling the callback's route handlers here), and a push has the
// video it announces found and transcribed.

const LIST = "PLverbatimFollow00000001";
const CHANNEL = "UCverbatimFollowPush0001";
let world: ImportWorld;
let youtube: FakeYoutube;
let mitm: FakeProxy;
let viaMitm: Outbound;
let hub: FakeHub;

beforeAll(async () => {
  youtube = await startFakeYoutube();
  youtube.playlists.set(LIST, [{ id: FAKE_IDS.unavailable, title: "A removed video", seconds: 60 }]);
  mitm = await startFakeProxy("mitm", "pass", { intercept: youtube.url });
  hub = await startFakeHub({ deliver: deliverToCallback });
  world = await startImportWorld("follow-channel", () => ({
    YOUTUBE_BASE_URL: youtube.url,
    FOLLOW_PUSH_YOUTUBE_HUB: hub.url,
    APP_URL: "http://127.0.0.1:3000",
    FOLLOW_PUSH_PRIVATE_CALLBACK: "1",
  }));
  // The hub is on 127.0.0.1 too; its requests go through the same proxy.
  viaMitm = createOutbound({
    proxyUrl: mitm.url,
    resolver: youtubeResolver,
    allowPrivateFor: (host) => host === "127.0.0.1",
    defaults: { retries: 0 },
  });
  const { importDeps, setImportDepsForTests } = await import("@/lib/imports/deps");
  setImportDepsForTests({ ...importDeps(), outbound: viaMitm, ytdlp: { extraArgs: ["--no-check-certificates"] } });
});

afterAll(async () => {
  (await import("@/lib/imports/deps")).setImportDepsForTests(undefined);
  await world?.close();
  await viaMitm?.close();
  await mitm?.close();
  await hub?.close();
  await youtube?.close();
});

describe("following a YouTube playlist or channel", () => {
  it("remembers what is there, transcribes a video added later once, and refuses a playlist YouTube lacks", async () => {
    const { POST } = await import("@/app/v1/follows/route");
    const { checkFollow } = await import("@/lib/follows/check-follow");
    const { userId, headers } = await world.caller();
    const url = `https://www.youtube.com/playlist?list=${LIST}`;
    const created = await callRoute(POST, "/v1/follows", { headers, body: { url } });
    expect(created.status, created.text).toBe(201);
    const follow = created.json as { id: string; kind: string; items_seen: number; url: string };
    expect(follow).toMatchObject({ kind: "youtube", items_seen: 1, url });

    youtube.playlists.set(LIST, [
      { id: FAKE_IDS.captioned, title: "How bread rises", seconds: 114 },
      { id: FAKE_IDS.unavailable, title: "A removed video", seconds: 60 },
    ]);
    expect(await checkFollow(follow.id)).toMatchObject({ fetched: true, found: 1, started: 1 });
    const item = await world.ctx.db.followItem.findFirstOrThrow({
      where: { followId: follow.id, guid: `youtube:${FAKE_IDS.captioned}` },
    });
    expect(item).toMatchObject({ status: "done", jobId: null });
    expect(await checkFollow(follow.id)).toMatchObject({ found: 0, started: 0 });
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(1);

    const missing = await callRoute(POST, "/v1/follows", {
      headers,
      body: { url: "https://www.youtube.com/playlist?list=PLverbatimNoSuchList0001" },
    });
    expect(missing.status, missing.text).toBeGreaterThanOrEqual(400);
    expect(missing.status, missing.text).toBeLessThan(500);
  });

  it("subscribes a channel followed by its handle at FOLLOW_PUSH_YOUTUBE_HUB; a signed push has its new video transcribed", async () => {
    const { POST } = await import("@/app/v1/follows/route");
    const { userId, headers } = await world.caller();
    youtube.channels.set(CHANNEL, {
      id: CHANNEL,
      handle: "verbatimpush",
      title: "Verbatim Push",
      videos: [{ id: FAKE_IDS.unavailable, title: "A removed video", seconds: 60 }],
    });
    const created = await callRoute(POST, "/v1/follows", {
      headers,
      body: { url: "https://www.youtube.com/@verbatimpush" },
    });
    expect(created.status, created.text).toBe(201);
    const follow = created.json as { id: string; url: string; items_seen: number; push: { hub: string } | null };
    expect(follow).toMatchObject({
      url: "https://www.youtube.com/@verbatimpush/videos",
      items_seen: 1,
      push: { hub: hub.url },
    });

    // The topic is the channel's feed, its id from yt-dlp's listing (the URL names only the handle).
    const topic = `https://www.youtube.com/xml/feeds/videos.xml?channel_id=${CHANNEL}`;
    await until(
      "the subscription to be verified",
      () => world.ctx.db.follow.findUniqueOrThrow({ where: { id: follow.id } }),
      (f) => f.pushState === "active",
    );
    // The app marks it active while answering the hub's check; the hub holds it once it has read that answer.
    await hub.settled();
    expect(hub.requests).toEqual([expect.objectContaining({ mode: "subscribe", topic })]);
    const { callback } = hub.requests[0]!;

    // YouTube's hub announces an upload with an Atom entry (developers.google.com/youtube/v3/guides/push_notifications).
    youtube.channels.get(CHANNEL)!.videos.unshift({ id: FAKE_IDS.captioned, title: "How bread rises", seconds: 114 });
    const listings = () => youtube.requests.filter((r) => r.path === "/@verbatimpush/videos").length;
    const listedBefore = listings();
    const t0 = Date.now();
    expect(await hub.publish(topic, uploadNotice(FAKE_IDS.captioned, topic))).toEqual([{ callback, status: 202 }]);
    const guid = `youtube:${FAKE_IDS.captioned}`;
    await until(
      "the pushed video to be found",
      () => world.ctx.db.followItem.findFirst({ where: { followId: follow.id, guid } }),
      (item) => item !== null,
    );
    const foundMs = Date.now() - t0;
    const item = await until(
      "the pushed video to be transcribed",
      () => world.ctx.db.followItem.findFirstOrThrow({ where: { followId: follow.id, guid } }),
      (row) => row.status !== "queued" && row.status !== "running",
    );
    expect(item).toMatchObject({ status: "done", jobId: null, transcriptId: expect.any(String) });
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(1);
    expect(listings() - listedBefore).toBe(1); // the push's check listed the channel again, once
    console.log(`websub YouTube channel push → video found ${foundMs} ms, transcribed ${Date.now() - t0} ms`);
  });
});

/** What YouTube's hub POSTs for a new upload: the channel's feed with the one new entry. */
function uploadNotice(videoId: string, topic: string): string {
  return `<?xml version='1.0' encoding='UTF-8'?>
<feed xmlns:yt="http://www.youtube.com/xml/schemas/2015" xmlns="http://www.w3.org/2005/Atom"><link rel="hub" href="${hub.url}"/><link rel="self" href="${topic}"/><title>YouTube video feed</title><updated>2026-11-27T10:00:00+00:00</updated><entry>
  <id>yt:video:${videoId}</id>
  <yt:videoId>${videoId}</yt:videoId>
  <yt:channelId>${CHANNEL}</yt:channelId>
  <title>How bread rises</title>
  <link rel="alternate" href="https://www.youtube.com/watch?v=${videoId}"/>
  <author><name>Verbatim Push</name><uri>https://www.youtube.com/channel/${CHANNEL}</uri></author>
  <published>2026-11-27T09:59:00+00:00</published>
  <updated>2026-11-27T10:00:00+00:00</updated>
</entry></feed>`;
}
