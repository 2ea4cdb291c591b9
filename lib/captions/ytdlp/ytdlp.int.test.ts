/**
 * Integration tests with the REAL yt-dlp binary (scripts/install-yt-dlp.sh installs the pinned version
 * into .venv). Nothing here reaches the internet: yt-dlp runs on fixtures (--load-info-json), on URLs no
 * extractor accepts, or on a real extractor through a local fake proxy.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { CaptionTrack } from "@/lib/captions/types";
import { createOutbound } from "@/lib/http/outbound";
import { parseSourceUrl, type ParsedSource } from "@/lib/sources";
import {
  type FakeProxy,
  type FakeSubtitleServer,
  type FixtureName,
  rednoteNotePage,
  startFakeProxy,
  startFakeSubtitleServer,
  writeFixture,
} from "@/test/fakes/ytdlp/server";

import { captionSegments, parseCaptions } from "../parse";
import { parseInfoJson, type YtDlpTrackRef } from "./info";
import { createYtDlpProvider } from "./provider";
import { resolveYtDlpBinary, runYtDlp } from "./run";
import { startCanary, type Canary } from "@/test/canary";

const binary = resolveYtDlpBinary();
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });
let server: FakeSubtitleServer;
let tmp: string;
let version = "";

beforeAll(async () => {
  try {
    version = (await runYtDlp(["--version"], { binary, timeoutMs: 30_000 })).stdout.trim();
  } catch (err) {
    const detail = err instanceof Error && "detail" in err ? String((err as { detail: unknown }).detail) : String(err);
    throw new Error(
      `yt-dlp is not installed or does not run (${binary}): run scripts/install-yt-dlp.sh first. ${detail}`,
    );
  }
  server = await startFakeSubtitleServer();
  tmp = mkdtempSync(path.join(tmpdir(), "ytdlp-int-"));
});

afterAll(async () => {
  await outbound.close();
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const URLS: Record<FixtureName, string> = {
  x: "https://x.com/i/status/1790000000000000001",
  tiktok: "https://www.tiktok.com/@/video/7350000000000000001",
  facebook: "https://www.facebook.com/watch/?v=1234567890123456",
  instagram: "https://www.instagram.com/p/C6xYzAbCdEf/",
  rednote: "https://www.xiaohongshu.com/explore/6650f0a1000000001e00abcd",
  vimeo: "https://vimeo.com/987654321",
};
const WITH_CAPTIONS = ["x", "tiktok", "facebook", "vimeo"] as const;

function source(name: FixtureName): ParsedSource {
  return parseSourceUrl(URLS[name]) as ParsedSource;
}

describe("the installed binary", () => {
  it("is a yt-dlp that accepts every flag runYtDlp always passes", () => {
    // runYtDlp(["--version"]) above ran with BASE_ARGS: an unknown flag would have exited 2.
    expect(version).toMatch(/^\d{4}\.\d{2}\.\d{2}/);
  });

  it("refuses the generic extractor: a plain URL is unsupported_source and nothing is fetched", async () => {
    const run = runYtDlp(["-J", "--skip-download"], { binary, url: `${server.origin}/talk.mp4`, timeoutMs: 30_000 });
    await expect(run).rejects.toMatchObject({ name: "YtDlpError", code: "unsupported_source", status: 422 });
    await expect(run).rejects.toMatchObject({ detail: expect.stringMatching(/No suitable extractor found/) });
    expect(server.hits).toEqual([]);
  });
});

describe("yt-dlp downloads the fixtures' subtitles; our provider gets the same segments", () => {
  it.each(WITH_CAPTIONS)("%s", async (name) => {
    const dir = mkdtempSync(path.join(tmp, `${name}-`));
    const infoJson = writeFixture(name, server.origin, dir);

    // 1. The real binary, as a user would run it: it fetches every subtitle file from the fake CDN
    //    (for X through its HLS downloader, which merges the WebVTT segments).
    await runYtDlp(
      [
        "--load-info-json",
        infoJson,
        "--skip-download",
        "--write-subs",
        "--write-auto-subs",
        "--sub-langs",
        "all",
        "-o",
        path.join(dir, "%(id)s.%(ext)s"),
      ],
      { binary, timeoutMs: 60_000, outbound },
    );

    // 2. The provider: getInfo runs the real binary (-J on the same fixture) and must fetch nothing;
    //    fetchTrack downloads through the outbound module.
    server.hits.length = 0;
    const provider = createYtDlpProvider({ outbound, binary, timeoutMs: 60_000, infoJsonFor: () => infoJson });
    const info = await provider.getInfo(source(name));
    expect(server.hits).toEqual([]);
    expect(info.tracks.length).toBeGreaterThan(0);

    const id = (JSON.parse(readFileSync(infoJson, "utf8")) as { id: string }).id;
    for (const track of info.tracks) {
      const ref = track.ref as YtDlpTrackRef;
      const written = path.join(dir, `${id}.${ref.key}.${ref.format}`);
      expect(existsSync(written), `yt-dlp wrote ${written}`).toBe(true);
      const theirs = captionSegments(parseCaptions(readFileSync(written, "utf8"), ref.format), track.kind);
      const ours = await provider.fetchTrack(info, track);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours).toEqual(theirs);
    }
  });
});

describe("provider end to end on the real binary", () => {
  it.each(["instagram", "rednote"] as const)("%s: metadata, no caption tracks", async (name) => {
    const infoJson = writeFixture(name, server.origin, mkdtempSync(path.join(tmp, `${name}-`)));
    const provider = createYtDlpProvider({ outbound, binary, timeoutMs: 60_000, infoJsonFor: () => infoJson });
    const s = source(name);
    const info = await provider.getInfo(s);
    expect(info).toMatchObject({ platform: s.platform, videoId: s.videoId, canonicalUrl: s.canonicalUrl, tracks: [] });
    expect(info.title).toBeTruthy();
    expect(info.durationSeconds).toBeGreaterThan(0);
  });

  it("X: the HLS track, fetched and merged", async () => {
    const infoJson = writeFixture("x", server.origin, mkdtempSync(path.join(tmp, "x2-")));
    const provider = createYtDlpProvider({ outbound, binary, timeoutMs: 60_000, infoJsonFor: () => infoJson });
    const info = await provider.getInfo(source("x"));
    expect(info).toMatchObject({ platform: "x", videoId: "1790000000000000001", durationSeconds: 48 });
    const en = info.tracks.find((t: CaptionTrack) => t.lang === "en") as CaptionTrack;
    const segments = await provider.fetchTrack(info, en);
    expect(segments.map((s) => s.text)).toContain("Two: captions beat speech-to-text");
    expect(segments.at(-1)).toEqual({ start: 40.5, end: 44, text: "That\u2019s it. Thread below." });
  });
});

describe("a real extractor through --proxy (RedNote page served by a local fake proxy)", () => {
  const NOTE = "6650f0a1000000001e00abcd";
  const GONE = "6650f0a1000000001e00dead";
  const SLOW = "6650f0a1000000001e005105";
  /** What www.xiaohongshu.com "resolves" to here (no DNS on this machine): a public address. */
  const PUBLIC_IP = "93.184.216.34";
  let proxy: FakeProxy;
  /** The app's outbound settings with OUTBOUND_PROXY = the fake proxy. */
  let viaProxy: ReturnType<typeof createOutbound>;

  beforeAll(async () => {
    proxy = await startFakeProxy((url, _req, res) => {
      if (url.hostname === "www.xiaohongshu.com" && url.pathname === `/explore/${NOTE}`) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          rednoteNotePage(NOTE, {
            title: "三分钟做好会议纪要",
            desc: "把视频链接变成文字稿",
            durationMs: 181266,
            videoUrl: "http://sns-video-bd.xhscdn.com/stream/1/110/259/01e650f0a1abcdef0103700190a1b2c3_259.mp4",
          }),
        );
        return;
      }
      if (url.pathname === `/explore/${SLOW}`) return; // never answers
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<html>404</html>");
    });
    viaProxy = createOutbound({ proxyUrl: proxy.origin, resolver: async () => [PUBLIC_IP] });
  });
  afterAll(async () => {
    await viaProxy?.close();
    await proxy?.close();
  });

  it("extracts the note's metadata with the XiaoHongShu extractor", async () => {
    const { stdout } = await runYtDlp(["-J", "--skip-download", "--write-subs", "--write-auto-subs"], {
      binary,
      url: `http://www.xiaohongshu.com/explore/${NOTE}`,
      outbound: viaProxy,
      timeoutMs: 60_000,
    });
    const info = parseInfoJson(stdout);
    expect(info).toMatchObject({
      id: NOTE,
      title: "三分钟做好会议纪要",
      durationSeconds: 182,
      extractorKey: "XiaoHongShu",
      tracks: [],
    });
    // yt-dlp → the guard's forward proxy → OUTBOUND_PROXY, which is asked for the address the guard
    // resolved and checked, never for the name.
    expect(proxy.requests).toContain(`http://${PUBLIC_IP}:80/explore/${NOTE}`);
    // Metadata only: the video itself was never requested.
    expect(proxy.requests.some((r) => r.includes("xhscdn.com"))).toBe(false);
  });

  it("maps the site's 404 to video_unavailable", async () => {
    const run = runYtDlp(["-J", "--skip-download"], {
      binary,
      url: `http://www.xiaohongshu.com/explore/${GONE}`,
      outbound: viaProxy,
      timeoutMs: 60_000,
    });
    await expect(run).rejects.toMatchObject({
      code: "video_unavailable",
      status: 404,
      detail: expect.stringMatching(/HTTP Error 404/),
    });
  });

  it("kills a run that outlives its deadline", async () => {
    const run = runYtDlp(["-J", "--skip-download", "--socket-timeout", "60"], {
      binary,
      url: `http://www.xiaohongshu.com/explore/${SLOW}`,
      outbound: viaProxy,
      timeoutMs: 3_000,
    });
    await expect(run).rejects.toMatchObject({
      code: "upstream_failed",
      detail: expect.stringMatching(/timed out after 3000 ms/),
    });
  });
});

describe("every connection yt-dlp makes passes the outbound guard (a canary outside the allow list)", () => {
  // Only 127.0.0.1 is allowed (the fakes); the canary listens on 127.0.0.2, another loopback address.
  let canary: Canary;
  beforeAll(async () => {
    canary = await startCanary();
  });
  afterAll(async () => {
    await canary?.close();
  });

  it.each([
    ["points at the canary", () => canary.origin],
    ["points at the canary by the name localhost", () => `http://localhost:${canary.port}`],
    ["redirects to the canary", () => `${server.origin}/to-canary`],
  ])("a subtitle URL that %s: yt-dlp fetches nothing from it, nor does the provider", async (_name, origin) => {
    server.override("/to-canary/vimeo/captions/171000001.vtt", {
      status: 302,
      headers: { location: `${canary.origin}/vimeo/captions/171000001.vtt` },
    });
    const dir = mkdtempSync(path.join(tmp, "canary-"));
    const infoJson = writeFixture("vimeo", origin(), dir);

    const run = runYtDlp(
      [
        "--load-info-json",
        infoJson,
        "--skip-download",
        "--write-subs",
        "--sub-langs",
        "en",
        "-o",
        path.join(dir, "%(id)s.%(ext)s"),
      ],
      {
        binary,
        timeoutMs: 60_000,
        outbound,
      },
    );
    const outcome = await run.then(
      () => "exit 0",
      (err: unknown) => err,
    );
    // The guard answers 403; yt-dlp then retries with the item's page (vimeo.com: no DNS here, so the guard's
    // 502 says the name could not be resolved: upstream_dns_failed; with DNS, upstream_failed) and fails the
    // run. Either way no subtitle file came from the canary.
    expect(outcome).toMatchObject({
      name: "YtDlpError",
      code: expect.stringMatching(/^upstream_(dns_)?failed$/),
    });
    expect(readdirSync(dir).filter((f) => f.endsWith(".vtt"))).toEqual([]);

    const provider = createYtDlpProvider({ outbound, binary, timeoutMs: 60_000, infoJsonFor: () => infoJson });
    const info = await provider.getInfo(source("vimeo"));
    const en = info.tracks.find((t: CaptionTrack) => t.lang === "en") as CaptionTrack;
    await expect(provider.fetchTrack(info, en)).rejects.toMatchObject({
      name: "OutboundError",
      code: "address_not_allowed",
    });
    expect(canary.connections()).toBe(0);
  });
});
