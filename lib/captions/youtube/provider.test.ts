import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";

import { type Outbound, OutboundError, createOutbound } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { LINES, asrText, timeLines } from "@/test/fakes/youtube/fixtures/speech";
import { type FakeYoutube, startFakeYoutube } from "@/test/fakes/youtube/server";

import { repeatedNgramCount } from "../parse";
import { type CaptionTrack, SourceError, type VideoInfo } from "../types";
import { createOutboundFetch, isAllowedYoutubeHost, rewriteYoutubeUrl } from "./fetch";
import {
  type YoutubeTrackRef,
  createYoutubeProvider,
  normalizeLanguageCode,
  playabilityError,
  trackName,
} from "./provider";

const source = (videoId: string): ParsedSource => ({
  platform: "youtube",
  videoId,
  canonicalUrl: `https://www.youtube.com/watch?v=${videoId}`,
});

let fake: FakeYoutube;
/** Reaches the fake on 127.0.0.1; no retries so 429s answer at once. */
const local = createOutbound({ allowPrivateFor: (h) => h === "127.0.0.1", defaults: { retries: 0, timeoutMs: 5_000 } });

/** `local`, counting what goes through it. */
function counting(): { outbound: Outbound; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    outbound: {
      ...local,
      checkUrl: local.checkUrl,
      safeFetchStream: local.safeFetchStream,
      safeFetchBuffer: (url, opts) => {
        urls.push(String(url));
        return local.safeFetchBuffer(url, opts);
      },
    },
  };
}

beforeAll(async () => {
  fake = await startFakeYoutube();
});
afterAll(async () => {
  await fake.close();
});
afterEach(() => {
  fake.requests.length = 0;
  fake.timedtext = "normal";
  vi.restoreAllMocks();
});

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected a rejection");
}

describe("getInfo through youtubei.js against the fake", () => {
  it("the captioned video: title, duration, manual and auto tracks with names", async () => {
    const warn = vi.spyOn(console, "warn");
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const info = await provider.getInfo(source(FAKE_IDS.captioned));
    const last = timeLines().at(-1);
    expect(info).toMatchObject({
      platform: "youtube",
      videoId: FAKE_IDS.captioned,
      canonicalUrl: `https://www.youtube.com/watch?v=${FAKE_IDS.captioned}`,
      title: 'How Bread Rises: Yeast, Gluten & the "Oven Spring"',
      durationSeconds: Math.ceil(((last?.endMs ?? 0) + 1500) / 1000),
    });
    expect(info.tracks.map(({ lang, name, kind }) => ({ lang, name, kind }))).toEqual([
      { lang: "en", name: "English", kind: "manual" },
      { lang: "en", name: "English", kind: "auto" },
      { lang: "de", name: "German", kind: "manual" }, // name given as runs, not simpleText
    ]);
    const refs = info.tracks.map((t) => t.ref as YoutubeTrackRef);
    expect(refs.map((r) => r.vssId)).toEqual([".en", "a.en", ".de"]);
    expect(refs[1]?.baseUrl).toMatch(
      /^https:\/\/www\.youtube\.com\/api\/timedtext\?v=Hq7sWc2dT4E&.*&kind=asr&lang=en$/,
    );
    // youtubei.js's parser knew every renderer in the fixture.
    expect(warn).not.toHaveBeenCalled();
  });

  it("sends what youtubei.js sends: config once per session, then a WEB player call per video", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url, clients: ["WEB"] });
    await provider.getInfo(source(FAKE_IDS.captioned));
    await provider.getInfo(source(FAKE_IDS.noCaptions));
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /youtubei/v1/config",
      "POST /youtubei/v1/player",
      "POST /youtubei/v1/player",
    ]);
    const player = fake.requests[1];
    expect(player?.query.get("prettyPrint")).toBe("false");
    expect(player?.headers["content-type"]).toBe("application/json");
    expect(player?.headers["x-youtube-client-name"]).toBe("1");
    expect(player?.headers["user-agent"]).toMatch(/^Mozilla\/5\.0/);
    expect(player?.headers.host).toBe(new URL(fake.url).host);
    const body = JSON.parse(player?.body ?? "{}") as {
      videoId: string;
      racyCheckOk: boolean;
      contentCheckOk: boolean;
      context: { client: { clientName: string; hl: string } };
    };
    expect(body).toMatchObject({
      videoId: FAKE_IDS.captioned,
      racyCheckOk: true,
      contentCheckOk: true,
      context: { client: { clientName: "WEB", hl: "en" } },
    });
  });

  it("a video without captions has no tracks", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const info = await provider.getInfo(source(FAKE_IDS.noCaptions));
    expect(info.title).toBe("Sourdough starter, day 1 to day 7 (timelapse, no talking)");
    expect(info.durationSeconds).toBe(94);
    expect(info.tracks).toEqual([]);
  });

  it.each([
    [FAKE_IDS.unavailable, "video_unavailable", 404],
    ["zzzzzzzzzzz", "video_unavailable", 404], // unknown ids get the same ERROR response
    [FAKE_IDS.private, "video_unavailable", 404],
    [FAKE_IDS.ageRestricted, "age_restricted", 403],
    [FAKE_IDS.ageVerification, "age_restricted", 403],
    [FAKE_IDS.botCheck, "upstream_blocked", 503],
  ])("%s → SourceError %s", async (id, code, status) => {
    const warn = vi.spyOn(console, "warn");
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const err = await rejection(provider.getInfo(source(id)));
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ code, status });
    expect(warn).not.toHaveBeenCalled();
  });

  it("refuses other platforms", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const err = await rejection(
      provider.getInfo({ platform: "vimeo", videoId: "76979871", canonicalUrl: "https://vimeo.com/76979871" }),
    );
    expect(err).toMatchObject({ name: "SourceError", code: "unsupported_source" });
    expect(fake.requests).toEqual([]);
  });
});

describe("fetchTrack", () => {
  let info: VideoInfo;
  const track = (kind: "manual" | "auto", lang: string): CaptionTrack => {
    const t = info.tracks.find((x) => x.kind === kind && x.lang === lang);
    if (!t) throw new Error(`no ${kind} ${lang} track`);
    return t;
  };

  beforeAll(async () => {
    info = await createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url }).getInfo(
      source(FAKE_IDS.captioned),
    );
  });

  it("manual English: json3, entities decoded, text as uploaded", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const segments = await provider.fetchTrack(info, track("manual", "en"));
    expect(segments.map((s) => s.text)).toEqual(LINES.map(([, en]) => en));
    const req = fake.requests.at(-1);
    expect(req?.path).toBe("/api/timedtext");
    expect(req?.query.get("fmt")).toBe("json3");
    expect(req?.query.get("signature")).toMatch(/^[0-9A-F.]+$/);
  });

  it("auto English: de-duplicated, clean, in order, monotonic", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const segments = await provider.fetchTrack(info, track("auto", "en"));
    expect(segments.map((s) => s.text).join(" ")).toBe(asrText());
    expect(repeatedNgramCount(segments)).toBe(0);
    segments.slice(1).forEach((s, i) => expect(s.start).toBeGreaterThanOrEqual(segments[i]?.end ?? 0));
    expect(fake.requests.at(-1)?.query.get("kind")).toBe("asr");
    // Each word with its own time: every word of the text once, inside its segment.
    const words = segments.flatMap((s) => s.words ?? []);
    expect(words.map((w) => w.text).join(" ")).toBe(asrText());
    for (const s of segments) for (const w of s.words ?? []) expect(w.start >= s.start && w.end <= s.end).toBe(true);
  });

  it("manual English has no word times", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const segments = await provider.fetchTrack(info, track("manual", "en"));
    expect(segments.some((s) => s.words)).toBe(false);
  });

  it("manual German", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const segments = await provider.fetchTrack(info, track("manual", "de"));
    expect(segments[24]?.text).toBe("Bäcker nennen das den „Ofentrieb“.");
  });

  it("an empty 200 (a track that wants a PO token) and a 429 are upstream failures", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    fake.timedtext = "empty";
    expect(await rejection(provider.fetchTrack(info, track("manual", "en")))).toMatchObject({
      name: "SourceError",
      code: "upstream_failed",
    });
    fake.timedtext = "throttled";
    expect(await rejection(provider.fetchTrack(info, track("manual", "en")))).toMatchObject({
      name: "SourceError",
      code: "upstream_failed",
    });
  });

  it("a track the fake does not have (404) is an upstream failure", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const ref = track("manual", "en").ref as YoutubeTrackRef;
    const fr: CaptionTrack = {
      lang: "fr",
      name: "French",
      kind: "manual",
      ref: { ...ref, baseUrl: ref.baseUrl.replace("lang=en", "lang=fr") },
    };
    expect(await rejection(provider.fetchTrack(info, fr))).toMatchObject({ code: "upstream_failed" });
  });

  it("does not follow a baseUrl off youtube.com, or a ref without one", async () => {
    const provider = createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url });
    const bad: CaptionTrack = {
      lang: "en",
      name: "English",
      kind: "manual",
      ref: { baseUrl: "http://169.254.169.254/api/timedtext?v=x", languageCode: "en", vssId: null },
    };
    expect(await rejection(provider.fetchTrack(info, bad))).toMatchObject({
      name: "SourceError",
      code: "upstream_failed",
    });
    expect(await rejection(provider.fetchTrack(info, { ...bad, ref: null }))).toMatchObject({
      code: "upstream_failed",
    });
    expect(fake.requests).toEqual([]);
  });
});

describe("every request goes through the outbound module", () => {
  it("youtubei.js's calls and the timedtext fetch all pass through the given outbound", async () => {
    const { outbound, urls } = counting();
    const provider = createYoutubeProvider({ outbound, innertubeBaseUrl: fake.url });
    const info = await provider.getInfo(source(FAKE_IDS.captioned));
    await provider.fetchTrack(info, info.tracks[1] as CaptionTrack);
    expect(urls.map((u) => new URL(u).pathname)).toEqual([
      "/youtubei/v1/config",
      "/youtubei/v1/player",
      "/api/timedtext",
    ]);
    expect(fake.requests).toHaveLength(urls.length);
  });

  it("the default outbound (nothing internal allowed) refuses the fake: OutboundError, nothing sent", async () => {
    const provider = createYoutubeProvider({
      outbound: createOutbound({ defaults: { retries: 0 } }),
      innertubeBaseUrl: fake.url,
    });
    const err = await rejection(provider.getInfo(source(FAKE_IDS.captioned)));
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe("address_not_allowed");
    expect(fake.requests).toEqual([]);

    const info = await createYoutubeProvider({ outbound: local, innertubeBaseUrl: fake.url }).getInfo(
      source(FAKE_IDS.captioned),
    );
    fake.requests.length = 0;
    expect(await rejection(provider.fetchTrack(info, info.tracks[0] as CaptionTrack))).toBeInstanceOf(OutboundError);
    expect(fake.requests).toEqual([]);
  });

  it("without a test base URL, youtube.com is checked by the guard too (resolving to an internal address)", async () => {
    const outbound = createOutbound({ resolver: async () => ["10.0.0.7"], defaults: { retries: 0 } });
    const provider = createYoutubeProvider({ outbound });
    const err = await rejection(provider.getInfo(source(FAKE_IDS.captioned)));
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe("address_not_allowed");
  });

  it("the fetch given to youtubei.js refuses hosts that are not YouTube's or Google's", async () => {
    const f = createOutboundFetch({ outbound: local, baseUrl: fake.url });
    const err = await rejection(f("https://example.com/youtubei/v1/player", { method: "POST", body: "{}" }));
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).code).toBe("url_not_allowed");
    expect(fake.requests).toEqual([]);
  });

  it("the fetch adapter reads Request objects and init, and answers a web Response", async () => {
    const f = createOutboundFetch({ outbound: local, baseUrl: fake.url });
    const request = new Request("https://www.youtube.com/youtubei/v1/player?prettyPrint=false", {
      method: "POST",
      headers: { "X-Test": "1" },
    });
    const res = await f(request, {
      body: JSON.stringify({
        context: { client: { clientName: "WEB", clientVersion: "2.0" } },
        videoId: FAKE_IDS.noCaptions,
      }),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${fake.url}/youtubei/v1/player?prettyPrint=false`);
    expect(((await res.json()) as { videoDetails: { videoId: string } }).videoDetails.videoId).toBe(
      FAKE_IDS.noCaptions,
    );
    expect(fake.requests[0]?.headers["content-type"]).toBe("application/json");
    // init.headers replace the Request's, as in fetch()
    expect(fake.requests[0]?.headers["x-test"]).toBeUndefined();

    const bad = await f(new URL("https://www.youtube.com/youtubei/v1/player"), { method: "POST", body: "{}" });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
  });

  it("rejects an invalid proxy URL when the provider is made", () => {
    expect(() => createYoutubeProvider({ outbound: local, proxyUrl: "socks5://127.0.0.1:1080" })).toThrow(/proxy/i);
  });
});

describe("helpers", () => {
  it("rewriteYoutubeUrl only moves YouTube API hosts", () => {
    expect(
      rewriteYoutubeUrl(new URL("https://www.youtube.com/api/timedtext?v=1&fmt=json3"), "http://127.0.0.1:9/").href,
    ).toBe("http://127.0.0.1:9/api/timedtext?v=1&fmt=json3");
    expect(
      rewriteYoutubeUrl(new URL("https://youtubei.googleapis.com/youtubei/v1/player"), "http://127.0.0.1:9/base").href,
    ).toBe("http://127.0.0.1:9/base/youtubei/v1/player");
    expect(rewriteYoutubeUrl(new URL("https://i.ytimg.com/vi/x/hq.jpg"), "http://127.0.0.1:9").href).toBe(
      "https://i.ytimg.com/vi/x/hq.jpg",
    );
    expect(rewriteYoutubeUrl(new URL("https://www.youtube.com/x"), undefined).href).toBe("https://www.youtube.com/x");
  });

  it("isAllowedYoutubeHost", () => {
    expect(isAllowedYoutubeHost("www.youtube.com")).toBe(true);
    expect(isAllowedYoutubeHost("rr3---sn-4g5lznez.googlevideo.com")).toBe(true);
    expect(isAllowedYoutubeHost("youtube.com.evil.com")).toBe(false);
    expect(isAllowedYoutubeHost("notyoutube.com")).toBe(false);
  });

  it("normalizeLanguageCode", () => {
    expect(
      ["en", "EN-gb", "pt_br", "zh-hans", "zh-Hant", "es-419", "iw", "fil", "sr-latn-rs"].map(normalizeLanguageCode),
    ).toEqual(["en", "en-GB", "pt-BR", "zh-Hans", "zh-Hant", "es-419", "he", "fil", "sr-Latn-RS"]);
  });

  it("trackName", () => {
    expect(trackName("English (auto-generated)", true, "en")).toBe("English");
    expect(trackName("English (United Kingdom) (auto-generated)", true, "en-GB")).toBe("English (United Kingdom)");
    expect(trackName("English (United Kingdom)", false, "en-GB")).toBe("English (United Kingdom)");
    expect(trackName("  ", false, "de")).toBe("de");
  });

  it("playabilityError", () => {
    expect(playabilityError({ status: "OK" })).toBeNull();
    expect(playabilityError({ status: "UNPLAYABLE", reason: "Video unavailable" })).toMatchObject({
      code: "video_unplayable",
      message: "YouTube will not play this video: Video unavailable",
    });
    expect(playabilityError({ status: "LIVE_STREAM_OFFLINE", reason: "Premieres in 2 hours" })).toMatchObject({
      code: "live_not_finished",
      status: 409,
    });
    expect(playabilityError({ status: "LOGIN_REQUIRED", reason: "Sign in to confirm you’re not a bot" })).toMatchObject(
      { code: "upstream_blocked", status: 503 },
    );
    expect(playabilityError({ status: "AGE_CHECK_REQUIRED" })).toMatchObject({ code: "age_restricted" });
    expect(playabilityError({ status: "LOGIN_REQUIRED", reason: "Sign in to confirm your age" })).toMatchObject({
      code: "age_restricted",
    });
    expect(playabilityError(undefined)).toMatchObject({ code: "video_unplayable" });
  });
});
