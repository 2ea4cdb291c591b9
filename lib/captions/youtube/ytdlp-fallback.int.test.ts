/**
 * YouTube's second path with the REAL yt-dlp binary and its real YouTube extractor, offline: yt-dlp
 * talks to https://www.youtube.com through a local proxy that terminates TLS (self-signed, so
 * --no-check-certificates) and hands the requests to the YouTube fake, which replays the recorded
 * player response (test/fakes/youtube/fixtures/recorded). InnerTube's own clients are blocked there.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createYtDlpProvider, youtubeYtDlpArgs } from "@/lib/captions/ytdlp/provider";
import { createOutbound } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";
import { type FakeProxy, startFakeProxy, youtubeResolver } from "@/test/fakes/proxy/server";
import { type FakeYoutube, startFakeYoutube } from "@/test/fakes/youtube/server";

import { SourceError } from "../types";
import { rewriteYoutubeUrl } from "./fetch";
import { createYoutubeProvider } from "./provider";

const ID = "GJLlxj_dtq8";
const source: ParsedSource = {
  platform: "youtube",
  videoId: ID,
  canonicalUrl: `https://www.youtube.com/watch?v=${ID}`,
};
const outbound = createOutbound({
  allowPrivateFor: (h) => h === "127.0.0.1",
  defaults: { retries: 0, timeoutMs: 5_000 },
});

let fake: FakeYoutube;
let mitm: FakeProxy;

beforeAll(async () => {
  fake = await startFakeYoutube();
  mitm = await startFakeProxy("mitm", "pass", { intercept: fake.url });
});
afterAll(async () => {
  await mitm?.close();
  await fake?.close();
});
afterEach(() => {
  fake.requests.length = 0;
  fake.scenarios.clear();
  mitm.requests.length = 0;
});

function provider() {
  const fallback = createYtDlpProvider({
    // yt-dlp runs behind the app's guarded forward proxy, chained to the TLS-terminating test proxy. There is
    // no DNS here: YouTube's names resolve to one of its public addresses, which the guard accepts.
    outbound: createOutbound({
      proxyUrl: mitm.url,
      resolver: youtubeResolver,
      allowPrivateFor: (h) => h === "127.0.0.1",
      defaults: { retries: 0 },
    }),
    platforms: new Set(["youtube"]),
    // Test only: trust the proxy's certificate, and ask the player API straight away (no watch page).
    extraArgs: [
      "--no-check-certificates",
      "--extractor-args",
      "youtube:player_skip=webpage,configs,initial_data",
      ...youtubeYtDlpArgs({}),
    ],
    rewriteUrl: (url) => rewriteYoutubeUrl(url, fake.url),
  });
  // youtubei.js asks as ANDROID_VR and WEB; yt-dlp 2026.08.19 asks as VISIONOS and WEB (its default
  // clients; WEB only because it has a JavaScript runtime, the npm-installed deno, to solve the player's
  // challenges with: it first looks for the player's version in /iframe_api, which the fake does not serve).
  return createYoutubeProvider({
    outbound,
    innertubeBaseUrl: fake.url,
    clients: ["ANDROID_VR", "WEB"],
    fallback,
    timeoutMs: 60_000,
  });
}

describe("yt-dlp as the second path for YouTube", () => {
  it("InnerTube blocked for every client → yt-dlp's YouTube extractor gets the tracks; the same transcript; served_by yt-dlp", async () => {
    fake.scenarios.set(ID, {
      ANDROID_VR: "recorded/request_blocked",
      WEB: "recorded/request_blocked",
      VISIONOS: "recorded/captioned",
    });
    const p = provider();
    const info = await p.getInfo(source);
    // (yt-dlp takes the channel from the watch page's initial data, which this run skips: channel stays null.)
    expect(info).toMatchObject({ servedBy: "yt-dlp", title: "Surface Go Review - It’s Awesome", durationSeconds: 316 });
    const en = info.tracks.find((t) => t.lang === "en" && t.kind === "manual");
    expect(en).toBeDefined();
    const segments = await p.fetchTrack(info, en!);
    expect(segments.map((s) => s.text)).toEqual([
      "Hey, this is just a test",
      "this is not the original transcript",
      "just something shorter, I made up for testing",
    ]);
    expect(info.servedBy).toBe("yt-dlp");

    const players = fake.requests.filter((r) => r.path === "/youtubei/v1/player").map((r) => r.client);
    expect(players).toEqual(["ANDROID_VR", "WEB", "VISIONOS", "WEB"]);
    // yt-dlp's own requests went through the TLS-terminating proxy; the track was fetched by us.
    // (the track, fetched by us through the same egress, is the plain-http request to the fake).
    expect(new Set(mitm.requests.map((r) => r.url).filter((u) => u.startsWith("https:")))).toEqual(
      new Set(["https://www.youtube.com/youtubei/v1/player?prettyPrint=false", "https://www.youtube.com/iframe_api"]),
    );
    const tracks = fake.requests.filter((r) => r.path === "/api/timedtext");
    expect(tracks).toHaveLength(1);
    expect(tracks[0]?.query.get("fmt")).toBe("json3");
  });

  it("both paths blocked → 503 upstream_blocked with Retry-After", async () => {
    fake.scenarios.set(ID, { "*": "recorded/request_blocked" });
    const err = await provider()
      .getInfo(source)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ code: "upstream_blocked", status: 503 });
    expect((err as SourceError).retryAfterSeconds).toBeGreaterThan(0);
    expect(fake.requests.filter((r) => r.path === "/youtubei/v1/player").map((r) => r.client)).toEqual([
      "ANDROID_VR",
      "WEB",
      "VISIONOS",
      "WEB",
    ]);
  });

  it("a video InnerTube calls unavailable is not asked of yt-dlp", async () => {
    fake.scenarios.set(ID, { "*": "recorded/video_unavailable" });
    const err = await provider()
      .getInfo(source)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ code: "video_unavailable", status: 404 });
    expect(mitm.requests).toEqual([]);
  });
});

describe("youtubeYtDlpArgs", () => {
  it("points the bgutil plugin at the provider (plugins back on) and passes the cookies file", () => {
    expect(
      youtubeYtDlpArgs({ potProviderUrl: "http://127.0.0.1:4416", cookiesFile: "/etc/verbatim/cookies.txt" }),
    ).toEqual([
      "--plugin-dirs",
      "default",
      "--extractor-args",
      "youtubepot-bgutilhttp:base_url=http://127.0.0.1:4416",
      "--cookies",
      "/etc/verbatim/cookies.txt",
    ]);
    expect(youtubeYtDlpArgs({})).toEqual([]);
  });
});
