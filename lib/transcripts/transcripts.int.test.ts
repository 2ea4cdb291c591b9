import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { transcriptRequestSchema, transcriptionListQuerySchema } from "@/lib/transcripts/schemas";
import { createOutbound } from "@/lib/http/outbound";
import { ApiError } from "@/lib/http/errors";

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
type Request = typeof import("@/lib/transcripts/request-transcript").requestTranscript;
let requestTranscript: (
  ...args: Parameters<Request>
) => Promise<import("@/lib/transcripts/schemas").TranscriptResponse>;
let listTranscriptions: typeof import("@/lib/transcripts/list-transcriptions").listTranscriptions;
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;

// Eleven-character YouTube ids; durations chosen against the 900 s free allowance.
const videos = {
  aaaaaaaaaaa: {
    title: "Short talk",
    durationSeconds: 120,
    tracks: [
      { lang: "en", name: "English", kind: "manual" as const },
      { lang: "de", name: "German", kind: "auto" as const },
    ],
  },
  bbbbbbbbbbb: {
    title: "Long lecture",
    durationSeconds: 800,
    tracks: [{ lang: "en-US", name: "English", kind: "auto" as const }],
  },
  ccccccccccc: {
    title: "No English",
    durationSeconds: 60,
    tracks: [{ lang: "fr", name: "French", kind: "manual" as const }],
  },
  ddddddddddd: {
    title: "Forty",
    durationSeconds: 40,
    tracks: [{ lang: "en", name: "English", kind: "manual" as const }],
  },
  eeeeeeeeeee: {
    title: "Translated",
    durationSeconds: 30,
    tracks: [
      { lang: "en", name: "English", kind: "manual" as const },
      { lang: "de", name: "German", kind: "translated" as const },
      { lang: "de", name: "German", kind: "auto" as const },
      { lang: "es", name: "Spanish", kind: "translated" as const },
    ],
  },
};

function deps(provider: StaticCaptionProvider): TranscriptDeps {
  return { outbound: createOutbound(), providerFor: (p) => (p === "youtube" ? provider : null), cacheHours: 24 };
}

const req = (url: string, extra: Record<string, unknown> = {}) => transcriptRequestSchema.parse({ url, ...extra });
const yt = (id: string) => `https://www.youtube.com/watch?v=${id}`;

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeAll(async () => {
  // A server without speech recognition (auto would pick the local whisper.cpp where it is installed).
  process.env.ASR_PROVIDER = "off";
  ctx = await useTestDatabase();
  const real = (await import("@/lib/transcripts/request-transcript")).requestTranscript;
  // These tests are about the captions path: the answer must be a transcript, not a job.
  requestTranscript = async (...args) => {
    const outcome = await real(...args);
    if (outcome.kind !== "transcript") throw new Error(`expected a transcript, got job ${outcome.job.jobId}`);
    return outcome.transcript;
  };
  ({ listTranscriptions } = await import("@/lib/transcripts/list-transcriptions"));
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
});
afterAll(async () => ctx?.teardown());

describe("POST /v1/transcript from captions", () => {
  it("returns the transcript in the requested format, records history and charges once", async () => {
    const provider = new StaticCaptionProvider(videos);
    const user = await createUser(ctx.db);
    const json = await requestTranscript(user.id, req(`https://youtu.be/aaaaaaaaaaa`), deps(provider));
    expect(json).toMatchObject({
      platform: "youtube",
      video_id: "aaaaaaaaaaa",
      lang: "en",
      source: "captions",
      caption_kind: "manual",
      duration_seconds: 120,
      format: "json",
      content: null,
      title: "Short talk",
    });
    expect(json.segments).toHaveLength(24);
    expect(json.segments![0]).toEqual({ start: 0, end: 4.5, text: "en line 1 of Short talk." });

    const srt = await requestTranscript(user.id, req(yt("aaaaaaaaaaa"), { format: "srt" }), deps(provider));
    expect(srt.content).toMatch(/^1\n00:00:00,000 --> 00:00:04,500\nen line 1 of Short talk\.\n/);
    expect(srt.segments).toBeNull();

    const usage = await getSubscription(user.id);
    expect(usage).toMatchObject({ tier: "free", limit_seconds: 900, used_seconds: 120 });
    const history = await listTranscriptions(user.id, transcriptionListQuerySchema.parse({}));
    expect(history.total).toBe(1);
    expect(history.transcriptions[0]).toMatchObject({
      video_id: "aaaaaaaaaaa",
      lang: "en",
      source: "youtube",
      complete: true,
      status: "done",
      duration_seconds: 120,
      total_seconds: 120,
    });
  });

  it("serves a repeat request from the store with no upstream call", async () => {
    const provider = new StaticCaptionProvider(videos);
    const user = await createUser(ctx.db);
    await requestTranscript(user.id, req(yt("ddddddddddd")), deps(provider));
    const calls = provider.infoCalls + provider.trackCalls;
    const other = await createUser(ctx.db);
    await requestTranscript(other.id, req(yt("ddddddddddd"), { format: "vtt" }), deps(provider));
    expect(provider.infoCalls + provider.trackCalls).toBe(calls);
    // A different user pays for it once; the shared cache does not make it free for them.
    expect((await getSubscription(other.id)).used_seconds).toBe(40);
  });

  it("coalesces concurrent requests for the same new video into one upstream fetch", async () => {
    const provider = new StaticCaptionProvider(videos, 150);
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser(ctx.db)));
    const results = await Promise.all(
      users.map((u) => requestTranscript(u.id, req(yt("aaaaaaaaaaa"), { lang: "de" }), deps(provider))),
    );
    expect(provider.infoCalls).toBe(1);
    expect(provider.trackCalls).toBe(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results[0].caption_kind).toBe("auto");
  });

  it("serves the original track over a machine translation, and labels a translation as one", async () => {
    const user = await createUser(ctx.db);
    const provider = new StaticCaptionProvider(videos);
    expect(
      (await requestTranscript(user.id, req(yt("eeeeeeeeeee"), { lang: "de" }), deps(provider))).caption_kind,
    ).toBe("auto");
    expect(
      (await requestTranscript(user.id, req(yt("eeeeeeeeeee"), { lang: "es" }), deps(provider))).caption_kind,
    ).toBe("translated");
  });

  it("matches the primary language subtag", async () => {
    const user = await createUser(ctx.db);
    const result = await requestTranscript(user.id, req(yt("bbbbbbbbbbb")), deps(new StaticCaptionProvider(videos)));
    expect(result.lang).toBe("en");
    expect(result.segments![0].text).toContain("en-US line 1");
  });

  it("answers 503 asr_not_configured when there are no captions in the language, and charges nothing", async () => {
    const user = await createUser(ctx.db);
    const error = await rejection(
      requestTranscript(user.id, req(yt("ccccccccccc")), deps(new StaticCaptionProvider(videos))),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe("asr_not_configured");
    expect((await getSubscription(user.id)).used_seconds).toBe(0);
    expect((await listTranscriptions(user.id, transcriptionListQuerySchema.parse({}))).total).toBe(0);
  });

  it("402 when the allowance is short: nothing charged, nothing created; asking again for a known one is free", async () => {
    const provider = new StaticCaptionProvider(videos);
    const user = await createUser(ctx.db);
    await requestTranscript(user.id, req(yt("bbbbbbbbbbb")), deps(provider)); // 800 of 900
    const error = await rejection(requestTranscript(user.id, req(yt("aaaaaaaaaaa")), deps(provider))); // 120 more
    expect(error.status).toBe(402);
    expect(error.code).toBe("allowance_exhausted");
    // The length as people say it, and the operator's setting rather than an upgrade (billing is off here).
    expect(error.detail).toBe(
      "This transcript is 2 min long, which is more than what is left of your monthly allowance. This server's operator set the free allowance (FREE_ALLOWANCE_SECONDS); it renews at the start of the next period.",
    );
    expect((await getSubscription(user.id)).used_seconds).toBe(800);
    expect((await listTranscriptions(user.id, transcriptionListQuerySchema.parse({}))).total).toBe(1);
    await requestTranscript(user.id, req(yt("bbbbbbbbbbb"), { format: "text" }), deps(provider));
    expect((await getSubscription(user.id)).used_seconds).toBe(800);
  });

  it("20 parallel requests near the limit never take used_seconds past limit_seconds", async () => {
    const ids = Array.from({ length: 20 }, (_, i) => `par${String(i).padStart(8, "0")}`);
    const many = Object.fromEntries(
      ids.map((id) => [
        id,
        { title: id, durationSeconds: 100, tracks: [{ lang: "en", name: "English", kind: "manual" as const }] },
      ]),
    );
    const provider = new StaticCaptionProvider(many);
    const user = await createUser(ctx.db);
    await ctx.db.usagePeriod.create({
      data: {
        userId: user.id,
        periodStart: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)),
        periodEnd: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)),
        usedSeconds: 450,
      },
    });
    const outcomes = await Promise.allSettled(ids.map((id) => requestTranscript(user.id, req(yt(id)), deps(provider))));
    const ok = outcomes.filter((o) => o.status === "fulfilled").length;
    const refused = outcomes.filter((o) => o.status === "rejected" && (o.reason as ApiError).status === 402).length;
    expect(ok + refused).toBe(20);
    expect(ok).toBe(4); // 450 + 4 × 100 = 850; a fifth would be 950 > 900
    const usage = await getSubscription(user.id);
    expect(usage.used_seconds).toBe(850);
    expect(usage.used_seconds).toBeLessThanOrEqual(usage.limit_seconds);
    expect((await listTranscriptions(user.id, transcriptionListQuerySchema.parse({}))).total).toBe(4);
  });

  it("refuses unsupported links with a 422 naming the platforms, a caption-less source with 503 and an unknown upload with 404", async () => {
    const user = await createUser(ctx.db);
    const provider = new StaticCaptionProvider(videos);
    for (const url of [
      "https://example.com/video",
      "https://youtube.com.evil.example/watch?v=aaaaaaaaaaa",
      "ftp://youtube.com/x",
    ]) {
      const error = await requestTranscript(user.id, req(url), deps(provider)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, url).toMatchObject({ items: [{ type: "value_error", loc: ["body", "url"] }] });
      expect((error as { items: { msg: string }[] }).items[0].msg).toContain("YouTube");
    }
    // A word is not a link at all, and is told so.
    const word = await requestTranscript(user.id, req("hello"), deps(provider)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(word).toMatchObject({
      items: [
        {
          type: "value_error",
          loc: ["body", "url"],
          msg: expect.stringMatching(/^Value error, this is not a link\. /),
        },
      ],
    });
    // Without speech recognition configured, sources without captions cannot be transcribed; the answer says so
    // in the user's words, and the settings are the operator's (the log line).
    const noCaptions = await rejection(requestTranscript(user.id, req(yt("ccccccccccc")), deps(provider)));
    expect(noCaptions.code).toBe("asr_not_configured");
    expect(noCaptions.message).not.toMatch(/ASSEMBLYAI_API_KEY|operator/);
    const { operatorNote } = await import("@/lib/observability/failure-cause");
    expect(operatorNote(noCaptions).detail).toContain("ASSEMBLYAI_API_KEY");
    expect(operatorNote(noCaptions).detail).toContain("ASR_OPENAI_BASE_URL");
    // Someone else's (or a made-up) upload is a 404, whatever is configured.
    const upload = await rejection(
      requestTranscript(user.id, transcriptRequestSchema.parse({ upload: "uploads/x/abc/x.wav" }), deps(provider)),
    );
    expect(upload.status).toBe(404);
  });
});

describe("GET /v1/languages", () => {
  it("lists caption languages with their kind", async () => {
    const { listLanguages } = await import("@/lib/transcripts/list-languages");
    const result = await listLanguages(yt("aaaaaaaaaaa"), deps(new StaticCaptionProvider(videos)));
    expect(result).toEqual({
      platform: "youtube",
      video_id: "aaaaaaaaaaa",
      title: "Short talk",
      duration_seconds: 120,
      languages: [
        { code: "en", name: "English", kind: "manual" },
        { code: "de", name: "German", kind: "auto" },
      ],
    });
    const error = await listLanguages("https://example.com/nope", deps(new StaticCaptionProvider(videos))).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ items: [{ loc: ["query", "url"], type: "value_error" }] });
  });
});

describe("GET /v1/me/transcriptions", () => {
  it("filters, searches, sorts and pages", async () => {
    const user = await createUser(ctx.db);
    const base = { userId: user.id, lang: "en", state: "done" };
    const rows = [
      { platform: "youtube", videoId: "AbCdEf12345", durationSeconds: 30, totalSeconds: 30 },
      { platform: "tiktok", videoId: "7300000000000000001", durationSeconds: 90, totalSeconds: 90 },
      { platform: "x", videoId: "1800000000000000000", durationSeconds: 10, totalSeconds: 60, state: "in_progress" },
      { platform: "youtube", videoId: "zzzabcdzzzz", durationSeconds: 0, totalSeconds: 0, state: "error" },
    ];
    for (const [i, row] of rows.entries()) {
      await ctx.db.transcription.create({ data: { ...base, ...row, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) } });
    }
    const list = (q: Record<string, string>) => listTranscriptions(user.id, transcriptionListQuerySchema.parse(q));
    expect((await list({})).transcriptions.map((t) => t.video_id)).toEqual([
      "zzzabcdzzzz",
      "1800000000000000000",
      "7300000000000000001",
      "AbCdEf12345",
    ]);
    expect((await list({ order: "asc" })).transcriptions[0].video_id).toBe("AbCdEf12345");
    expect((await list({ q: "ABCD" })).transcriptions.map((t) => t.video_id).sort()).toEqual([
      "AbCdEf12345",
      "zzzabcdzzzz",
    ]);
    expect((await list({ platform: "youtube", state: "done" })).transcriptions.map((t) => t.video_id)).toEqual([
      "AbCdEf12345",
    ]);
    expect((await list({ state: "in_progress" })).transcriptions[0]).toMatchObject({
      complete: false,
      status: "in_progress",
      duration_seconds: 10,
      total_seconds: 60,
    });
    expect((await list({ sort: "total_seconds", order: "desc" })).transcriptions[0].video_id).toBe(
      "7300000000000000001",
    );
    expect(await list({ sort: "duration_seconds", order: "asc", limit: "2", offset: "1" })).toMatchObject({
      total: 4,
      limit: 2,
      offset: 1,
    });
    const page = await list({ sort: "duration_seconds", order: "asc", limit: "2", offset: "1" });
    expect(page.transcriptions.map((t) => t.duration_seconds)).toEqual([10, 30]);
    expect((await list({ offset: "10" })).transcriptions).toEqual([]);
    // Another user's history is invisible.
    const other = await createUser(ctx.db);
    expect((await listTranscriptions(other.id, transcriptionListQuerySchema.parse({}))).total).toBe(0);
  });
});
