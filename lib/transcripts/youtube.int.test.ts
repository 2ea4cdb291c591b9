import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { startFakeYoutube, type FakeYoutube } from "@/test/fakes/youtube/server";
import { FAKE_IDS } from "@/test/fakes/youtube/ids";
import { createOutbound } from "@/lib/http/outbound";
import { createYoutubeProvider } from "@/lib/captions/youtube";
import { transcriptRequestSchema } from "@/lib/transcripts/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { ApiError } from "@/lib/http/errors";

// The whole caption path with the real youtubei.js against the local YouTube fake.

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let fake: FakeYoutube;
type Request = typeof import("@/lib/transcripts/request-transcript").requestTranscript;
let requestTranscript: (
  ...args: Parameters<Request>
) => Promise<import("@/lib/transcripts/schemas").TranscriptResponse>;

function deps(): TranscriptDeps {
  const allowPrivateFor = (host: string) => host === "127.0.0.1";
  const outbound = createOutbound({ allowPrivateFor });
  const youtube = createYoutubeProvider({ outbound, innertubeBaseUrl: fake.url });
  return { outbound, allowPrivateFor, providerFor: (p) => (p === "youtube" ? youtube : null), cacheHours: 24 };
}

const timedtextCalls = () => fake.requests.filter((r) => r.path === "/api/timedtext").length;
const playerCalls = () => fake.requests.filter((r) => r.path.endsWith("/player")).length;
const req = (id: string, extra: Record<string, unknown> = {}) =>
  transcriptRequestSchema.parse({ url: `https://youtu.be/${id}`, ...extra });

beforeAll(async () => {
  // A server without speech recognition (auto would pick the local whisper.cpp where it is installed).
  process.env.ASR_PROVIDER = "off";
  ctx = await useTestDatabase();
  fake = await startFakeYoutube();
  const real = (await import("@/lib/transcripts/request-transcript")).requestTranscript;
  // These tests are about the captions path: the answer must be a transcript, not a job.
  requestTranscript = async (...args) => {
    const outcome = await real(...args);
    if (outcome.kind !== "transcript") throw new Error(`expected a transcript, got job ${outcome.job.jobId}`);
    return outcome.transcript;
  };
});
afterAll(async () => {
  await fake?.close();
  await ctx?.teardown();
});

describe("YouTube captions end to end", () => {
  it("transcribes, then serves repeats and other formats from the store with no upstream call", async () => {
    const user = await createUser(ctx.db);
    const first = await requestTranscript(user.id, req(FAKE_IDS.captioned), deps());
    expect(first).toMatchObject({
      platform: "youtube",
      video_id: FAKE_IDS.captioned,
      source: "captions",
      caption_kind: "manual",
      lang: "en",
    });
    expect(first.title).toBeTruthy();
    expect(first.duration_seconds).toBeGreaterThan(0);
    expect(first.segments![0].text).toBe("[MUSIC]");
    const before = { player: playerCalls(), timedtext: timedtextCalls() };
    expect(before.timedtext).toBe(1);

    const other = await createUser(ctx.db);
    const vtt = await requestTranscript(other.id, req(FAKE_IDS.captioned, { format: "vtt" }), deps());
    await requestTranscript(user.id, req(FAKE_IDS.captioned, { format: "md" }), deps());
    expect(vtt.content).toMatch(/^WEBVTT\n/);
    expect({ player: playerCalls(), timedtext: timedtextCalls() }).toEqual(before);
  });

  it("coalesces concurrent requests for a new language into one player and one timedtext call", async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(ctx.db)));
    const before = { player: playerCalls(), timedtext: timedtextCalls() };
    const results = await Promise.all(
      users.map((u) => requestTranscript(u.id, req(FAKE_IDS.captioned, { lang: "de" }), deps())),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results[0].segments![0].text).toBe("[MUSIK]");
    expect(playerCalls() - before.player).toBe(1);
    expect(timedtextCalls() - before.timedtext).toBe(1);
  });

  it("the JSON transcript says which client served it, the channel, publish date and chapters; Markdown has the chapters as headings", async () => {
    const user = await createUser(ctx.db);
    const json = await requestTranscript(user.id, req(FAKE_IDS.captioned, { lang: "en" }), deps());
    expect(json).toMatchObject({
      served_by: "innertube:VISIONOS",
      channel: "Kitchen Physics",
      source_published_at: "2024-03-14T07:00:10-07:00",
      chapters: [
        { start: 0, title: "Intro" },
        { start: 10, title: "Yeast" },
        { start: 35, title: "Gluten" },
        { start: 70, title: "Proofing" },
        { start: 105, title: "Baking" },
      ],
    });
    const md = await requestTranscript(user.id, req(FAKE_IDS.captioned, { format: "md" }), deps());
    const headings = md.content!.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## Intro", "## Yeast", "## Gluten", "## Proofing", "## Baking"]);
    expect(md.content).toMatch(/\n\n## Yeast\n\n\[00:1\d\]\(https:\/\/www\.youtube\.com\/watch\?v=/);
  });

  it("the first client blocked: the second serves, and the transcript records it", async () => {
    const user = await createUser(ctx.db);
    fake.scenarios.set("GJLlxj_dtq8", { VISIONOS: "recorded/request_blocked", "*": "recorded/captioned" });
    try {
      const t = await requestTranscript(user.id, req("GJLlxj_dtq8", { lang: "de" }), deps());
      expect(t).toMatchObject({
        served_by: "innertube:ANDROID_VR",
        channel: "Dave2D",
        title: "Surface Go Review - It’s Awesome",
        chapters: [],
      });
    } finally {
      fake.scenarios.clear();
    }
  });

  it("blocked everywhere → 503 upstream_blocked with Retry-After; a token needed and none configured → 503 po_token_required", async () => {
    const user = await createUser(ctx.db);
    fake.scenarios.set("blkdBotChk1", { "*": "recorded/request_blocked" });
    fake.scenarios.set("GJLlxj_dtq8", { "*": "recorded/po_token_required" });
    try {
      const blocked = await requestTranscript(user.id, req("blkdBotChk1"), deps()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(blocked).toMatchObject({ status: 503, code: "upstream_blocked" });
      expect(Number((blocked as ApiError).headers["Retry-After"])).toBeGreaterThan(0);
      const pot = await requestTranscript(user.id, req("GJLlxj_dtq8", { lang: "en" }), deps()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(pot).toMatchObject({ status: 503, code: "po_token_required" });
      // Each cause its own sentence; a setting is named only where the operator is told to act
      // (docs/decisions/0009-failures-name-their-cause-and-fix.md).
      expect((pot as ApiError).detail).toBe(
        "YouTube wants a proof-of-origin (PO) token from this server, and none is configured: its operator can add a PO token provider (YOUTUBE_POT_PROVIDER_URL). Asking again will not help until then.",
      );
      const { operatorNote } = await import("@/lib/observability/failure-cause");
      expect(operatorNote(pot).setting).toContain("YOUTUBE_POT_PROVIDER_URL");
      expect((blocked as ApiError).detail).toMatch(
        /^YouTube asked this server to prove it is not a bot \(a bot check\)/,
      );
      expect((blocked as ApiError).detail).toContain("YOUTUBE_PROXIES");
      expect(operatorNote(blocked)).toMatchObject({
        cause: "youtube_bot_check",
        setting: "YOUTUBE_PROXIES or YOUTUBE_POT_PROVIDER_URL",
      });
      expect(await ctx.db.transcription.count({ where: { userId: user.id } })).toBe(0);
    } finally {
      fake.scenarios.clear();
    }
  });

  it("maps unavailable, age-restricted and caption-less videos to clear errors, charging nothing", async () => {
    const user = await createUser(ctx.db);
    const outcome = async (id: string) => {
      const error = await requestTranscript(user.id, req(id), deps()).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, code: (error as ApiError).code };
    };
    expect(await outcome(FAKE_IDS.unavailable)).toEqual({ status: 404, code: "video_unavailable" });
    expect(await outcome(FAKE_IDS.ageRestricted)).toEqual({ status: 403, code: "age_restricted" });
    expect(await outcome(FAKE_IDS.noCaptions)).toEqual({ status: 503, code: "asr_not_configured" });
    expect(await ctx.db.transcription.count({ where: { userId: user.id } })).toBe(0);
  });
});
