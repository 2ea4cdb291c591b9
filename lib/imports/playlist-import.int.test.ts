import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { startImportWorld, type ImportWorld } from "@/test/imports";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { startFakeProxy, youtubeResolver, type FakeProxy } from "@/test/fakes/proxy/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { createOutbound, type Outbound } from "@/lib/http/outbound";
import { waitUntil } from "@/test/wait";

// A YouTube playlist through the whole import pipeline: POST /v1/import → the import job lists the playlist
// with the REAL yt-dlp (flat-playlist mode), whose connections pass the app's guarded forward proxy, chained to
// a proxy that terminates TLS for https://www.youtube.com and hands the requests to the YouTube fake (no DNS
// here: YouTube's names resolve to one of its public addresses) → one transcription per video, captions from
// the same fake through youtubei.js (YOUTUBE_BASE_URL) → GET /v1/import/{id} shows the counts.

const LIST = "PLverbatimImport00000001";
const RECORDED_ID = "GJLlxj_dtq8"; // the recorded "Surface Go Review" player response

let world: ImportWorld;
let youtube: FakeYoutube;
let mitm: FakeProxy;
let viaMitm: Outbound;
let routes: {
  start: typeof import("@/app/v1/import/route").POST;
  get: typeof import("@/app/v1/import/[batch_id]/route").GET;
};

beforeAll(async () => {
  youtube = await startFakeYoutube();
  youtube.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
  youtube.playlists.set(LIST, [
    { id: FAKE_IDS.captioned, title: "How bread rises", seconds: 114 },
    { id: RECORDED_ID, title: "Surface Go Review", seconds: 316 },
    { id: FAKE_IDS.unavailable, title: "A removed video", seconds: 60 },
  ]);
  mitm = await startFakeProxy("mitm", "pass", { intercept: youtube.url });
  world = await startImportWorld("playlist-import", () => ({ YOUTUBE_BASE_URL: youtube.url }));
  viaMitm = createOutbound({ proxyUrl: mitm.url, resolver: youtubeResolver, defaults: { retries: 0 } });
  const { importDeps, setImportDepsForTests } = await import("@/lib/imports/deps");
  // The settings' deps, with yt-dlp behind the chained proxies and trusting the fake's self-signed certificate.
  setImportDepsForTests({ ...importDeps(), outbound: viaMitm, ytdlp: { extraArgs: ["--no-check-certificates"] } });
  routes = {
    start: (await import("@/app/v1/import/route")).POST,
    get: (await import("@/app/v1/import/[batch_id]/route")).GET,
  };
});

afterAll(async () => {
  (await import("@/lib/imports/deps")).setImportDepsForTests(undefined);
  await world?.close();
  await viaMitm?.close();
  await mitm?.close();
  await youtube?.close();
});

interface Batch {
  total: number;
  done: number;
  failed: number;
  skipped: number;
  status: string;
  note: string | null;
  title: string | null;
}

async function importPlaylist(auth: Record<string, string>): Promise<{ id: string; batch: Batch }> {
  const res = await callRoute(routes.start, "/v1/import", {
    headers: auth,
    body: { url: `https://www.youtube.com/playlist?list=${LIST}` },
  });
  expect(res.status).toBe(200);
  const id = (res.json as { batch_id: string }).batch_id;
  const batch = await waitUntil(
    `batch ${id} to finish`,
    async () => {
      const seen = (await callRoute(routes.get, `/v1/import/${id}`, { headers: auth, params: { batch_id: id } }))
        .json as Batch;
      return ["done", "partial", "error"].includes(seen.status) ? seen : null;
    },
    { timeoutMs: 120_000, everyMs: 100 },
  );
  return { id, batch };
}

describe("a YouTube playlist import", () => {
  it("lists the playlist with yt-dlp, transcribes each video from its captions, and skips them the second time", async () => {
    const { userId, headers } = await world.caller();
    const first = await importPlaylist(headers);
    expect(first.batch).toMatchObject({ total: 3, done: 2, failed: 1, skipped: 0, status: "partial" });
    expect(first.batch.note).toMatch(/^1 of 3 items failed; the first: /);

    // yt-dlp asked for the playlist's page only (flat mode: no video page), over HTTPS through the guard.
    expect(mitm.requests.filter((r) => r.url.startsWith("https:")).map((r) => r.url)).toEqual([
      `https://www.youtube.com/playlist?list=${LIST}`,
    ]);

    const items = await world.ctx.db.importItem.findMany({
      where: { batchId: first.id },
      orderBy: { position: "asc" },
    });
    expect(items.map((i) => [i.guid, i.title, i.durationSeconds, i.status])).toEqual([
      [`youtube:${FAKE_IDS.captioned}`, "How bread rises", 114, "done"],
      [`youtube:${RECORDED_ID}`, "Surface Go Review", 316, "done"],
      [`youtube:${FAKE_IDS.unavailable}`, "A removed video", 60, "failed"],
    ]);
    expect(items[2]!.note).toMatch(/unavailable/i);
    const entries = await world.ctx.db.transcription.findMany({ where: { userId }, orderBy: { videoId: "asc" } });
    expect(entries.map((e) => [e.platform, e.videoId, e.state, e.origin])).toEqual([
      ["youtube", RECORDED_ID, "done", "captions"],
      ["youtube", FAKE_IDS.captioned, "done", "captions"],
    ]);
    // Captions, not speech recognition: no job behind any item.
    expect(items.every((i) => i.jobId === null)).toBe(true);

    const second = await importPlaylist(headers);
    expect(second.batch).toMatchObject({ total: 3, done: 0, skipped: 2, failed: 1, status: "partial" });
    expect(await world.ctx.db.transcription.count({ where: { userId } })).toBe(2);
  }, 240_000);
});
