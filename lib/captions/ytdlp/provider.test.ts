import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";

import { TRACK_BOUNDS } from "@/lib/captions/caption-job";
import type { CaptionTrack, VideoInfo } from "@/lib/captions/types";
import { createOutbound, OutboundError } from "@/lib/http/outbound";
import { parseSourceUrl, type ParsedSource } from "@/lib/sources";
import {
  FAKES_DIR,
  FIXTURES_DIR,
  startFakeSubtitleServer,
  type FakeSubtitleServer,
  type FixtureName,
} from "@/test/fakes/ytdlp/server";

import type { YtDlpTrackRef } from "./info";
import { createYtDlpProvider, INFO_ARGS } from "./provider";
import { denoBinary, jsRuntimeArgs } from "./js-runtime";
import { BASE_ARGS } from "./run";

// Unit tests: a fake yt-dlp prints the fixtures (the integration tests run the real binary); the subtitle
// files come from a local fake CDN through the real outbound module.

const FAKE = path.join(FAKES_DIR, "fake-yt-dlp.mjs");
const outbound = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0 } });
let server: FakeSubtitleServer;
let tmp: string;

beforeAll(async () => {
  server = await startFakeSubtitleServer();
  tmp = mkdtempSync(path.join(tmpdir(), "ytdlp-provider-"));
});
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => {
  server.hits.length = 0;
});

const URLS: Record<FixtureName, string> = {
  x: "https://x.com/verbatim_demo/status/1790000000000000001",
  tiktok: "https://www.tiktok.com/@verbatim.demo/video/7350000000000000001",
  facebook: "https://www.facebook.com/watch/?v=1234567890123456",
  instagram: "https://www.instagram.com/reel/C6xYzAbCdEf/",
  rednote: "https://www.xiaohongshu.com/explore/6650f0a1000000001e00abcd",
  vimeo: "https://vimeo.com/987654321",
};

function source(name: FixtureName): ParsedSource {
  const s = parseSourceUrl(URLS[name]);
  if (!s) throw new Error(`fixture URL not recognised: ${URLS[name]}`);
  return s;
}

function provider(name: FixtureName, extraEnv: Record<string, string> = {}) {
  return createYtDlpProvider({
    outbound,
    binary: FAKE,
    timeoutMs: 10_000,
    env: {
      FAKE_YTDLP_MODE: "info",
      FAKE_YTDLP_INFO: path.join(FIXTURES_DIR, `${name}.info.json`),
      FAKE_YTDLP_ORIGIN: server.origin,
      ...extraEnv,
    },
  });
}

function track(info: VideoInfo, lang: string, kind: CaptionTrack["kind"] = "manual"): CaptionTrack {
  const t = info.tracks.find((x) => x.lang === lang && x.kind === kind);
  if (!t) throw new Error(`no ${kind} ${lang} track in ${JSON.stringify(info.tracks.map((x) => [x.lang, x.kind]))}`);
  return t;
}

describe("getInfo", () => {
  it("runs yt-dlp -J on the canonical URL, after the safety flags", async () => {
    const argsFile = path.join(tmp, "argv.json");
    await provider("vimeo", { FAKE_YTDLP_ARGSFILE: argsFile }).getInfo(source("vimeo"));
    expect(JSON.parse(readFileSync(argsFile, "utf8"))).toEqual([
      ...BASE_ARGS,
      ...jsRuntimeArgs(denoBinary()),
      "--proxy",
      await outbound.toolProxyUrl(),
      ...INFO_ARGS,
      "--",
      "https://vimeo.com/987654321",
    ]);
  });

  it("points yt-dlp's --proxy at the outbound instance's guarded forward proxy", async () => {
    const argsFile = path.join(tmp, "argv-proxy.json");
    const p = createYtDlpProvider({
      outbound,
      binary: FAKE,
      env: {
        FAKE_YTDLP_MODE: "info",
        FAKE_YTDLP_INFO: path.join(FIXTURES_DIR, "x.info.json"),
        FAKE_YTDLP_ARGSFILE: argsFile,
      },
    });
    await p.getInfo(source("x"));
    const argv = JSON.parse(readFileSync(argsFile, "utf8")) as string[];
    expect(argv[argv.indexOf("--proxy") + 1]).toBe(await outbound.toolProxyUrl());
  });

  it.each([
    ["x", "Verbatim Demo - Three things we learned building a transcript API \u{1F9F5}", 48, [["en", "manual"]]],
    [
      "tiktok",
      "How we turn any video link into a clean transcript #developer #api",
      62,
      [
        ["zh-Hans", "manual"],
        ["en", "manual"],
        ["es", "manual"],
      ],
    ],
    [
      "facebook",
      "Behind the scenes: transcribing a whole conference in an afternoon. | By Verbatim",
      96,
      [
        ["en", "manual"],
        ["es-419", "auto"],
      ],
    ],
    ["instagram", "Video by verbatim.demo", 34, []],
    ["rednote", "三分钟做好会议纪要", 182, []],
    [
      "vimeo",
      "Verbatim: from link to transcript",
      143,
      [
        ["en", "manual"],
        ["fr", "manual"],
        ["en", "auto"],
      ],
    ],
  ] as const)("%s: metadata and tracks", async (name, title, duration, tracks) => {
    const s = source(name);
    const info = await provider(name).getInfo(s);
    expect(info).toMatchObject({
      platform: s.platform,
      videoId: s.videoId,
      canonicalUrl: s.canonicalUrl,
      title,
      durationSeconds: duration,
    });
    expect(info.tracks.map((t) => [t.lang, t.kind])).toEqual(tracks);
    expect(server.hits).toEqual([]); // metadata only: no subtitle fetched
  });

  it("refuses platforms it does not serve and unresolved short links", async () => {
    const p = provider("x");
    await expect(p.getInfo(parseSourceUrl("https://www.youtube.com/watch?v=dQw4w9WgXcQ")!)).rejects.toMatchObject({
      code: "unsupported_source",
    });
    await expect(p.getInfo(parseSourceUrl("https://vm.tiktok.com/ZMabcdef/")!)).rejects.toMatchObject({
      code: "unsupported_source",
    });
    await expect(
      p.getInfo({ platform: "podcast", videoId: "abc", canonicalUrl: "https://cdn.example/a.mp3" }),
    ).rejects.toMatchObject({
      code: "unsupported_source",
    });
  });

  it("checks the URL with the outbound guard before starting yt-dlp", async () => {
    const argsFile = path.join(tmp, "argv-never.json");
    const p = provider("x", { FAKE_YTDLP_ARGSFILE: argsFile });
    const evil: ParsedSource = { platform: "x", videoId: "1", canonicalUrl: "http://169.254.169.254/latest/meta-data" };
    await expect(p.getInfo(evil)).rejects.toBeInstanceOf(OutboundError);
    expect(() => readFileSync(argsFile)).toThrow();
  });

  it("maps yt-dlp failures and unreadable output", async () => {
    const failing = provider("x", {
      FAKE_YTDLP_MODE: "fail",
      FAKE_YTDLP_STDERR:
        "ERROR: [twitter] 1790000000000000001: NSFW tweet requires authentication. Use --cookies-from-browser or --cookies for the authentication.\n",
    });
    await expect(failing.getInfo(source("x"))).rejects.toMatchObject({ code: "age_restricted", status: 403 });
    const garbage = provider("x", { FAKE_YTDLP_MODE: "garbage" });
    await expect(garbage.getInfo(source("x"))).rejects.toMatchObject({ code: "upstream_failed" });
  });
});

describe("fetchTrack", () => {
  it("X: fetches the HLS playlist and its WebVTT segments and merges them", async () => {
    const p = provider("x");
    const info = await p.getInfo(source("x"));
    const segments = await p.fetchTrack(info, track(info, "en"));
    expect(segments).toHaveLength(7);
    expect(segments[0]).toEqual({ start: 0.4, end: 3.9, text: "Three things we learned building a transcript API." });
    expect(segments[3]).toEqual({ start: 18.5, end: 21.7, text: "Two: captions beat speech-to-text" });
    expect(segments[6]).toEqual({ start: 40.5, end: 44, text: "That\u2019s it. Thread below." });
    expect(server.hits.map((h) => h.split("/").pop())).toEqual([
      "Zb3kXQ1aPq0rT9mA.m3u8",
      "seg-0.vtt",
      "seg-1.vtt",
      "seg-2.vtt",
    ]);
  });

  it("TikTok: the chosen VTT (not the creator_caption json)", async () => {
    const p = provider("tiktok");
    const info = await p.getInfo(source("tiktok"));
    expect(await p.fetchTrack(info, track(info, "en"))).toEqual([
      { start: 0.12, end: 2.48, text: "So you've got a video link" },
      { start: 2.48, end: 5.04, text: "and you want the words out of it." },
      { start: 5.4, end: 9.96, text: "Paste it in, pick a format, done." },
    ]);
    expect(await p.fetchTrack(info, track(info, "zh-Hans"))).toEqual([
      { start: 0.12, end: 2.48, text: "你有一个视频链接" },
      { start: 2.48, end: 5.04, text: "想把里面的话提取出来。" },
    ]);
    expect(server.hits[0]).toMatch(/\/o1AbCdEfGhIjKlMnOp\/\?a=1988&/);
  });

  it("Facebook: SRT, manual and auto", async () => {
    const p = provider("facebook");
    const info = await p.getInfo(source("facebook"));
    expect((await p.fetchTrack(info, track(info, "en"))).map((s) => s.text)).toEqual([
      "Behind the scenes at the Verbatim office.",
      "We transcribed a whole conference in an afternoon.",
      "Here's how.",
    ]);
    expect(await p.fetchTrack(info, track(info, "es-419", "auto"))).toEqual([
      { start: 1, end: 4.2, text: "Detrás de escena en la oficina de Verbatim." },
      { start: 4.6, end: 8, text: "Transcribimos una conferencia entera en una tarde." },
    ]);
  });

  it("Vimeo: manual and auto-generated text tracks", async () => {
    const p = provider("vimeo");
    const info = await p.getInfo(source("vimeo"));
    expect((await p.fetchTrack(info, track(info, "en"))).map((s) => s.text)).toEqual([
      "This is Verbatim:",
      "from link to transcript in one request.",
      "Thanks for watching.",
    ]);
    expect(await p.fetchTrack(info, track(info, "en", "auto"))).toEqual([
      { start: 0.5, end: 3, text: "this is verbatim" },
      { start: 3.2, end: 6.8, text: "from link to transcript in one request" },
    ]);
  });

  const info: VideoInfo = {
    platform: "vimeo",
    videoId: "1",
    canonicalUrl: "https://vimeo.com/1",
    title: null,
    durationSeconds: 0,
    tracks: [],
  };
  const ref = (r: Partial<YtDlpTrackRef>): YtDlpTrackRef => ({ url: null, format: "vtt", key: "en", ...r });

  it("json3 and rolling auto VTT are de-duplicated for auto tracks", async () => {
    const p = provider("vimeo");
    const json3 = await p.fetchTrack(info, {
      lang: "en",
      name: "English",
      kind: "auto",
      ref: ref({ url: `${server.origin}/youtube/timedtext/auto.json3`, format: "json3" }),
    });
    expect(json3.map((s) => s.text)).toEqual([
      "hello everyone and welcome",
      "to the show",
      "today we talk captions & more",
    ]);
    const vtt = await p.fetchTrack(info, {
      lang: "en",
      name: "English",
      kind: "auto",
      ref: ref({ url: `${server.origin}/youtube/timedtext/auto.vtt` }),
    });
    expect(vtt.map((s) => s.text)).toEqual(["hello everyone and welcome", "to the show", "today we talk captions"]);
  });

  it("parses inline data without any request", async () => {
    const p = provider("vimeo");
    const segs = await p.fetchTrack(info, {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: ref({ data: "1\n00:00:01,000 --> 00:00:02,000\nhi &amp; bye\n", format: "srt" }),
    });
    expect(segs).toEqual([{ start: 1, end: 2, text: "hi & bye" }]);
    expect(server.hits).toEqual([]);
  });

  it("a track with more lines than one transcript keeps is response_too_large, saying how many", async () => {
    const lines = TRACK_BOUNDS.maxSegments + 1;
    const clock = (s: number) => `${new Date(s * 1000).toISOString().slice(11, 19)},000`;
    const data = Array.from({ length: lines }, (_, i) => `${i + 1}\n${clock(i)} --> ${clock(i + 1)}\nline ${i}\n`).join(
      "\n",
    );
    const t: CaptionTrack = { lang: "en", name: "English", kind: "manual", ref: ref({ data, format: "srt" }) };
    await expect(provider("vimeo").fetchTrack(info, t)).rejects.toMatchObject({
      code: "response_too_large",
      message: expect.stringContaining(`${lines.toLocaleString("en-US")} lines`),
    });
  });

  it("a subtitle URL that is gone is upstream_failed", async () => {
    const p = provider("vimeo");
    const t: CaptionTrack = {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: ref({ url: `${server.origin}/vimeo/captions/expired.vtt` }),
    };
    await expect(p.fetchTrack(info, t)).rejects.toMatchObject({ code: "upstream_failed" });
  });

  it("caps the size of a subtitle file and of all HLS segments together", async () => {
    const small = createYtDlpProvider({ outbound, binary: FAKE, maxSubtitleBytes: 300 });
    const big: CaptionTrack = {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: ref({ url: `${server.origin}/vimeo/captions/171000001.vtt` }),
    };
    await expect(small.fetchTrack(info, big)).rejects.toMatchObject({ code: "response_too_large" });
    const hls: CaptionTrack = {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: ref({
        url: `${server.origin}/x/ext_tw_video/1790000000000000002/pu/pl/subs/en/Zb3kXQ1aPq0rT9mA.m3u8`,
        protocol: "m3u8_native",
      }),
    };
    await expect(
      createYtDlpProvider({ outbound, binary: FAKE, maxSubtitleBytes: 700 }).fetchTrack(info, hls),
    ).rejects.toMatchObject({ code: "response_too_large" });
  });

  it("fetches through the outbound guard: internal subtitle hosts are refused", async () => {
    const strict = createYtDlpProvider({ outbound: createOutbound(), binary: FAKE });
    const t: CaptionTrack = {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: ref({ url: `${server.origin}/vimeo/captions/171000001.vtt` }),
    };
    await expect(strict.fetchTrack(info, t)).rejects.toMatchObject({
      name: "OutboundError",
      code: "address_not_allowed",
    });
    expect(server.hits).toEqual([]);
  });

  it("refuses a track from another provider", async () => {
    const p = provider("vimeo");
    await expect(
      p.fetchTrack(info, {
        lang: "en",
        name: "English",
        kind: "manual",
        ref: { baseUrl: "https://youtube.com/api/timedtext" },
      }),
    ).rejects.toThrow(/not come from the yt-dlp provider/);
  });
});
