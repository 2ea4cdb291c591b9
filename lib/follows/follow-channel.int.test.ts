import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { startFakeProxy, youtubeResolver, type FakeProxy } from "@/test/fakes/proxy/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { createOutbound, type Outbound } from "@/lib/http/outbound";

// A followed YouTube playlist, listed by the REAL yt-dlp through the app's guarded forward proxy chained to a
// proxy that hands https://www.youtube.com to the YouTube fake (as lib/imports/playlist-import.int.test.ts): what
// it holds is remembered, a video added later is transcribed from its captions at once (no job), and a playlist
// YouTube does not have is a 4xx when following it.

const LIST = "PLverbatimFollow00000001";
let world: ImportWorld;
let youtube: FakeYoutube;
let mitm: FakeProxy;
let viaMitm: Outbound;

beforeAll(async () => {
  youtube = await startFakeYoutube();
  youtube.playlists.set(LIST, [{ id: FAKE_IDS.unavailable, title: "A removed video", seconds: 60 }]);
  mitm = await startFakeProxy("mitm", "pass", { intercept: youtube.url });
  world = await startImportWorld("follow-channel", () => ({ YOUTUBE_BASE_URL: youtube.url }));
  viaMitm = createOutbound({ proxyUrl: mitm.url, resolver: youtubeResolver, defaults: { retries: 0 } });
  const { importDeps, setImportDepsForTests } = await import("@/lib/imports/deps");
  setImportDepsForTests({ ...importDeps(), outbound: viaMitm, ytdlp: { extraArgs: ["--no-check-certificates"] } });
});

afterAll(async () => {
  (await import("@/lib/imports/deps")).setImportDepsForTests(undefined);
  await world?.close();
  await viaMitm?.close();
  await mitm?.close();
  await youtube?.close();
});

describe("following a YouTube playlist", () => {
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
});
