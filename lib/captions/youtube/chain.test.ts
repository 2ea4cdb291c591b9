import { operatorNote, type OperatorNote } from "@/lib/observability/failure-cause";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import { createOutbound } from "@/lib/http/outbound";
import type { ParsedSource } from "@/lib/sources";
import { type FakePotProvider, startFakePotProvider } from "@/test/fakes/pot-provider/server";
import { type FakeProxy, startFakeProxy } from "@/test/fakes/proxy/server";
import { type FakeYoutube, startFakeYoutube } from "@/test/fakes/youtube/server";

import { type CaptionTrack, SourceError } from "../types";
import type { InnerTubeClient } from "./clients";
import { createPotProvider } from "./pot";
import { type YoutubeProviderOptions, createYoutubeProvider } from "./provider";

// The client chain, PO tokens and proxy rotation against the YouTube fake replaying real recorded
// player responses (youtube-transcript-api's test assets, see test/fakes/youtube/README.md).

/** The video of the recorded captioned response (and of the recorded PO-token-required one). */
const RECORDED_ID = "GJLlxj_dtq8";
/** Recorded answers that name their video are served for that id; the others for made-up ids. */
const ID = {
  blocked: "blkdBotChk1",
  tooMany: "tooManyReq1",
  age: "Njp5uhTorCo",
  gone: "unavailabl1",
  unplayable: "unplayable1",
  disabled: "dsMFmonKDD4",
  liveEnded: "Fjg5lYqvzUs",
  hang: "hangsForevr",
};

const source = (videoId: string): ParsedSource => ({
  platform: "youtube",
  videoId,
  canonicalUrl: `https://www.youtube.com/watch?v=${videoId}`,
});
const local = (h: string) => h === "127.0.0.1";
const outbound = createOutbound({ allowPrivateFor: local, defaults: { retries: 0, timeoutMs: 5_000 } });

let fake: FakeYoutube;
let pots: FakePotProvider;
const proxies: FakeProxy[] = [];

beforeAll(async () => {
  [fake, pots] = await Promise.all([startFakeYoutube(), startFakePotProvider()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), pots.close(), ...proxies.map((p) => p.close())]);
});
afterEach(() => {
  fake.requests.length = 0;
  fake.scenarios.clear();
  pots.calls.length = 0;
});

function provider(extra: Partial<YoutubeProviderOptions> = {}) {
  return createYoutubeProvider({
    outbound,
    innertubeBaseUrl: fake.url,
    makeOutbound: (proxyUrl) =>
      createOutbound({ proxyUrl, allowPrivateFor: local, defaults: { retries: 0, timeoutMs: 5_000 } }),
    ...extra,
  });
}

const players = () => fake.requests.filter((r) => r.path === "/youtubei/v1/player");
const clientsTried = () => players().map((r) => r.client);
const upstream = () => fake.requests.length;

async function outcome(
  p: Promise<unknown>,
): Promise<{ status: number; code: string; message: string; retryAfter?: number; note: OperatorNote }> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SourceError);
  const e = err as SourceError;
  return { status: e.status, code: e.code, message: e.message, retryAfter: e.retryAfterSeconds, note: operatorNote(e) };
}

async function transcript(
  p: ReturnType<typeof provider>,
  id: string,
  pick: (t: CaptionTrack) => boolean = (t) => t.lang === "en" && t.kind === "manual",
) {
  const info = await p.getInfo(source(id));
  const track = info.tracks.find(pick);
  if (!track) throw new Error("no such track");
  const segments = await p.fetchTrack(info, track);
  return { info, segments };
}

describe("recorded YouTube answers, replayed for every client", () => {
  it("a captioned video (recorded ANDROID answer): the first client serves; config, one player call, one track", async () => {
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    const { info, segments } = await transcript(provider(), RECORDED_ID);
    expect(info).toMatchObject({
      title: "Surface Go Review - It’s Awesome",
      durationSeconds: 316,
      channel: "Dave2D",
      servedBy: "innertube:VISIONOS",
    });
    expect(info.tracks.length).toBe(9);
    expect(segments.map((s) => s.text)).toEqual([
      "Hey, this is just a test",
      "this is not the original transcript",
      "just something shorter, I made up for testing",
    ]);
    expect(clientsTried()).toEqual(["VISIONOS"]);
    expect(upstream()).toBe(3); // config, player, timedtext
  });

  it.each([
    // [recorded answer, video id, clients tried, upstream requests, status, code]
    ["recorded/request_blocked", ID.blocked, ["VISIONOS", "ANDROID_VR", "WEB"], 4, 503, "upstream_blocked"],
    ["429", ID.tooMany, ["VISIONOS", "ANDROID_VR", "WEB"], 4, 503, "upstream_rate_limited"],
    ["recorded/age_restricted", ID.age, ["VISIONOS"], 2, 403, "age_restricted"],
    ["recorded/video_unavailable", ID.gone, ["VISIONOS"], 2, 404, "video_unavailable"],
    ["recorded/unplayable", ID.unplayable, ["VISIONOS", "ANDROID_VR", "WEB"], 4, 422, "video_unplayable"],
  ])("%s → clients %j, %i upstream requests, %i %s", async (answer, id, tried, requests, status, code) => {
    fake.scenarios.set(id, { "*": answer });
    const result = await outcome(provider().getInfo(source(id)));
    expect(result).toMatchObject({ status, code });
    expect(clientsTried()).toEqual(tried);
    expect(upstream()).toBe(requests);
    if (status === 503) expect(result.retryAfter).toBeGreaterThan(0);
  });

  it("UNPLAYABLE keeps YouTube's own reason", async () => {
    fake.scenarios.set(ID.unplayable, { "*": "recorded/unplayable" });
    expect((await outcome(provider().getInfo(source(ID.unplayable)))).message).toContain("Custom Reason");
  });

  it.each([
    ["recorded/transcripts_disabled", ID.disabled, "Angèle - Eels x Richard Cocciante | A Take Away Show"],
    [
      "recorded/transcripts_disabled2",
      ID.liveEnded,
      "Watch live Dow Jones feed: Markets plunge amid coronavirus fears, oil price war",
    ],
  ])("%s: every client asked, no tracks (speech recognition's turn), no yt-dlp", async (answer, id, title) => {
    fake.scenarios.set(id, { "*": answer });
    const info = await provider().getInfo(source(id));
    expect(info.title).toBe(title);
    expect(info.tracks).toEqual([]);
    expect(clientsTried()).toEqual(["VISIONOS", "ANDROID_VR", "WEB"]);
    expect(upstream()).toBe(4);
  });

  it("a live stream that has not ended → 409 live_not_finished, no other client asked", async () => {
    // The recorded finished stream, as YouTube describes one still running: videoDetails.isLive.
    const { readPlayerResponse } = await import("./player-response");
    const recorded = (await import("@/test/fakes/youtube/fixtures/recorded/transcripts_disabled2.json")).default as {
      videoDetails: Record<string, unknown>;
    };
    const verdict = readPlayerResponse({ ...recorded, videoDetails: { ...recorded.videoDetails, isLive: true } });
    expect(verdict).toMatchObject({ kind: "final", error: { code: "live_not_finished", status: 409 } });
  });

  it("PO token required (recorded: the English track marked exp=xpe) and none configured → 503 po_token_required naming the setting", async () => {
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/po_token_required" });
    const p = provider();
    const info = await p.getInfo(source(RECORDED_ID));
    const en = info.tracks.find((t) => t.lang === "en" && t.kind === "manual") as CaptionTrack;
    const result = await outcome(p.fetchTrack(info, en));
    expect(result).toMatchObject({ status: 503, code: "po_token_required" });
    // The sentence names the fix, and so does the log's note.
    expect(result.message).toContain("YOUTUBE_POT_PROVIDER_URL");
    expect(result.note.setting).toContain("YOUTUBE_POT_PROVIDER_URL");
    // Each client listed the track only with exp=xpe; nothing was fetched without a token.
    expect(clientsTried()).toEqual(["VISIONOS", "ANDROID_VR", "WEB"]);
    expect(fake.requests.filter((r) => r.path === "/api/timedtext")).toHaveLength(0);
  });

  it("the same recording with tracks that need no token: served by the first client", async () => {
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/po_token_required" });
    const { info } = await transcript(provider(), RECORDED_ID, (t) => t.lang === "en" && t.kind === "auto");
    expect(info.servedBy).toBe("innertube:VISIONOS");
  });
});

describe("the client chain", () => {
  it("first client blocked → the second serves", async () => {
    fake.scenarios.set(RECORDED_ID, { VISIONOS: "recorded/request_blocked", "*": "recorded/captioned" });
    const { info } = await transcript(provider(), RECORDED_ID);
    expect(info.servedBy).toBe("innertube:ANDROID_VR");
    expect(clientsTried()).toEqual(["VISIONOS", "ANDROID_VR"]);
    expect(upstream()).toBe(4);
  });

  it("YOUTUBE_CLIENTS order is followed", async () => {
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/unplayable", iOS: "recorded/captioned" }); // youtubei.js names IOS "iOS"
    const { info } = await transcript(
      provider({ clients: ["ANDROID", "IOS", "WEB"] as InnerTubeClient[] }),
      RECORDED_ID,
    );
    expect(info.servedBy).toBe("innertube:IOS");
    expect(clientsTried()).toEqual(["ANDROID", "iOS"]);
  });

  it("only browser clients configured, each told UNPLAYABLE without its token → 503 po_token_required, not YouTube's reason", async () => {
    fake.scenarios.set(ID.unplayable, { "*": "recorded/unplayable" });
    const result = await outcome(provider({ clients: ["WEB", "MWEB"] }).getInfo(source(ID.unplayable)));
    expect(result).toMatchObject({ status: 503, code: "po_token_required" });
    expect(clientsTried()).toEqual(["WEB", "MWEB"]);
  });

  it("with the fake provider: the token is minted once per video, sent on WEB's player call and appended to the track", async () => {
    const pot = createPotProvider({ baseUrl: pots.url });
    fake.scenarios.set(RECORDED_ID, {
      VISIONOS: "recorded/unplayable",
      ANDROID_VR: "recorded/unplayable",
      WEB: "recorded/po_token_required",
    });
    const p = provider({ pot });
    const first = await transcript(p, RECORDED_ID);
    const second = await transcript(p, RECORDED_ID);
    expect(first.info.servedBy).toBe("innertube:WEB");
    expect(second.segments).toEqual(first.segments);
    expect(pots.calls).toEqual([{ content_binding: RECORDED_ID }]);
    expect(pot.minted).toBe(1);
    const token = pots.issued.get(RECORDED_ID);
    expect(
      players()
        .filter((r) => r.client === "WEB")
        .map((r) => r.poToken),
    ).toEqual([token, token]);
    const tracks = fake.requests.filter((r) => r.path === "/api/timedtext");
    expect(tracks).toHaveLength(2);
    for (const t of tracks) {
      expect(t.query.get("exp")).toBe("xpe");
      expect({ pot: t.query.get("pot"), potc: t.query.get("potc"), c: t.query.get("c") }).toEqual({
        pot: token,
        potc: "1",
        c: "WEB",
      });
    }
  });

  it("a provider that fails: the chain ends with upstream_failed saying so", async () => {
    pots.fail = true;
    try {
      fake.scenarios.set(RECORDED_ID, { "*": "recorded/po_token_required" });
      const p = provider({ pot: createPotProvider({ baseUrl: pots.url }), clients: ["WEB"] });
      const info = await p.getInfo(source(RECORDED_ID));
      const result = await outcome(
        p.fetchTrack(info, info.tracks.find((t) => t.lang === "en" && t.kind === "manual") as CaptionTrack),
      );
      expect(result).toMatchObject({ status: 502, code: "upstream_failed" });
      expect(result.note.detail).toMatch(/PO token provider answered 500/);
    } finally {
      pots.fail = false;
    }
  });
});

describe("egress: proxy rotation", () => {
  async function proxy(name: string, mode: FakeProxy["mode"]) {
    const p = await startFakeProxy(name, mode);
    proxies.push(p);
    return p;
  }
  const playerCalls = (p: FakeProxy) =>
    p.requests.filter(
      (r) => r.url.endsWith("/youtubei/v1/player?prettyPrint=false") || r.url.includes("/youtubei/v1/player"),
    ).length;

  it("a proxy that meets the bot check → the same client again on the next proxy, which serves", async () => {
    const [a, b] = [await proxy("a", "bot-check"), await proxy("b", "pass")];
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    const { info } = await transcript(provider({ proxies: [a.url, b.url] }), RECORDED_ID);
    expect(info.servedBy).toBe("innertube:VISIONOS");
    expect([playerCalls(a), playerCalls(b)]).toEqual([1, 1]);
    expect(clientsTried()).toEqual(["VISIONOS"]); // a's answer never reached YouTube
  });

  it("an empty track where one was expected: that proxy cools down, the same client is asked again through the next", async () => {
    const [a, b] = [await proxy("f", "empty-tracks"), await proxy("g", "pass")];
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    const { info, segments } = await transcript(provider({ proxies: [a.url, b.url] }), RECORDED_ID);
    expect(info.servedBy).toBe("innertube:VISIONOS");
    expect(segments).toHaveLength(3);
    expect(clientsTried()).toEqual(["VISIONOS", "VISIONOS"]);
    expect(a.requests.filter((r) => r.url.includes("/api/timedtext"))).toHaveLength(1);
    expect(b.requests.filter((r) => r.url.includes("/api/timedtext"))).toHaveLength(1);
  });

  it("a blocked proxy cools down: the next lookups go through the other one first", async () => {
    const [a, b] = [await proxy("i", "bot-check"), await proxy("j", "pass")];
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    const p = provider({ proxies: [a.url, b.url] });
    await p.getInfo(source(RECORDED_ID)); // a blocks, b serves
    await p.getInfo(source(RECORDED_ID));
    await p.getInfo(source(RECORDED_ID));
    expect([playerCalls(a), playerCalls(b)]).toEqual([1, 3]);
  });

  it("YOUTUBE_COOKIES_FILE: the cookies go with the InnerTube calls", async () => {
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    await provider({ cookie: "PREF=f6=40000000&hl=en; VISITOR_INFO1_LIVE=abc" }).getInfo(source(RECORDED_ID));
    expect(players()[0]?.headers.cookie).toContain("VISITOR_INFO1_LIVE=abc");
  });

  it("every proxy blocks: bounded retries, then 503 upstream_blocked with Retry-After from the cooldown", async () => {
    const list = [await proxy("c", "bot-check"), await proxy("d", "429"), await proxy("e", "bot-check")];
    fake.scenarios.set(RECORDED_ID, { "*": "recorded/captioned" });
    const p = provider({
      proxies: list.map((x) => x.url),
      blockRetries: 1,
      clients: ["VISIONOS", "ANDROID_VR"],
      cooldownMs: 120_000,
    });
    const result = await outcome(p.getInfo(source(RECORDED_ID)));
    expect(result).toMatchObject({ status: 503, code: "upstream_blocked" });
    expect(result.retryAfter).toBeGreaterThan(60);
    // VISIONOS through c, once more through d (the one retry), ANDROID_VR through one of them: 3 attempts.
    expect(
      list.reduce((n, x) => n + x.requests.filter((r) => r.url.includes("/youtubei/v1/")).length, 0),
    ).toBeLessThanOrEqual(6);
    expect(list.reduce((n, x) => n + playerCalls(x), 0)).toBe(3);
  });

  it("the time budget holds: a proxy that never answers ends in upstream_failed within the budget", async () => {
    const h = await proxy("h", "hang");
    const result = await outcome(provider({ proxies: [h.url], timeoutMs: 400 }).getInfo(source(RECORDED_ID)));
    expect(result).toMatchObject({ status: 502, code: "upstream_failed" });
    expect(result.message).toMatch(/within 0 s|within/);
  });

  it("the time budget holds for a YouTube that never answers /player", async () => {
    fake.scenarios.set(ID.hang, { "*": "hang" });
    const result = await outcome(provider({ timeoutMs: 400 }).getInfo(source(ID.hang)));
    expect(result).toMatchObject({ code: "upstream_failed" });
    // No client after the first: on a loaded machine the budget can run out before the first request is even sent.
    expect(clientsTried()).toEqual(["VISIONOS"].slice(0, clientsTried().length));
  });
});
