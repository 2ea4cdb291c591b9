/**
 * Listing a YouTube playlist with the REAL yt-dlp (the pinned .venv binary) and its real `youtube:tab`
 * extractor, in flat-playlist mode, through the project's runner: the playlist page is served by a local
 * fake proxy (plain HTTP; nothing reaches the internet), hand-made as test/fakes/podcasts/youtube-playlist.ts says.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveYtDlpBinary } from "@/lib/captions/ytdlp";
import { listPlaylist } from "@/lib/imports/playlist";
import { createOutbound, type Outbound } from "@/lib/http/outbound";
import { youtubeResolver } from "@/test/fakes/proxy/server";
import { startFakeProxy, type FakeProxy } from "@/test/fakes/ytdlp/server";
import { youtubePlaylistPage } from "@/test/fakes/podcasts/youtube-playlist";

const LIST = "PLverbatimTest0000000001";
const VIDEOS = Array.from({ length: 12 }, (_, i) => ({
  id: `vid${String(i).padStart(8, "0")}`,
  title: `Talk ${i + 1}: “quotes” & ampersands`,
  seconds: 60 + i,
}));
let proxy: FakeProxy;
// yt-dlp runs behind the app's guarded forward proxy, chained to the fake; no DNS here, so YouTube resolves to
// one of its public addresses (the fake serves by the Host header).
let viaProxy: Outbound;

beforeAll(async () => {
  proxy = await startFakeProxy((url, _req, res) => {
    if (url.hostname === "www.youtube.com" && url.pathname === "/playlist" && url.searchParams.get("list") === LIST) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(youtubePlaylistPage(LIST, VIDEOS));
    } else {
      res.writeHead(404, { "content-type": "text/plain" }).end("not here");
    }
  });
  viaProxy = createOutbound({ proxyUrl: proxy.origin, resolver: youtubeResolver });
});

afterAll(async () => {
  await viaProxy?.close();
  await proxy?.close();
});

describe("a YouTube playlist through the real yt-dlp", () => {
  it("lists every video once, with titles and durations, in one request", async () => {
    const listed = await listPlaylist(`http://www.youtube.com/playlist?list=${LIST}`, {
      binary: resolveYtDlpBinary(),
      outbound: viaProxy,
      max: 100,
    });
    expect(listed.entries).toEqual(VIDEOS.map((v) => ({ id: v.id, title: v.title, durationSeconds: v.seconds })));
    // One request, through the guard: it asks the upstream proxy for the address it checked, not the name.
    expect(proxy.requests).toEqual([`http://142.250.80.46:80/playlist?list=${LIST}`]); // flat: no video page fetched
  });

  it("stops at the item cap", async () => {
    const listed = await listPlaylist(`http://www.youtube.com/playlist?list=${LIST}`, {
      binary: resolveYtDlpBinary(),
      outbound: viaProxy,
      max: 5,
    });
    expect(listed.entries.map((e) => e.id)).toEqual(VIDEOS.slice(0, 5).map((v) => v.id));
  });

  it("a playlist the platform does not have is an error, not an empty import", async () => {
    await expect(
      listPlaylist("http://www.youtube.com/playlist?list=PLmissing000000000000001", {
        binary: resolveYtDlpBinary(),
        outbound: viaProxy,
        max: 5,
      }),
    ).rejects.toThrow();
  });
});
