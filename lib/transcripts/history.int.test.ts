import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, createUser, useTestDatabase } from "@/test/app-db";
import { StaticCaptionProvider } from "@/test/fakes/static-captions";
import { createOutbound } from "@/lib/http/outbound";
import { ApiError, errors } from "@/lib/http/errors";
import { transcriptRequestSchema, transcriptionListQuerySchema } from "@/lib/transcripts/schemas";
import type { TranscriptDeps } from "@/lib/transcripts/deps";
import { insertDoneEntries } from "@/lib/transcripts/history-queries";

// The history page's server side: titles, failed link requests (stored, bounded, never charged) and delete.
let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let requestTranscript: typeof import("@/lib/transcripts/request-transcript").requestTranscript;
let recordFailedRequest: typeof import("@/lib/transcripts/record-failed-request").recordFailedRequest;
let FAILED_REQUESTS_KEPT: number;
let listTranscriptions: typeof import("@/lib/transcripts/list-transcriptions").listTranscriptions;
let getSubscription: typeof import("@/lib/usage/get-subscription").getSubscription;
let deleteRoute: typeof import("@/app/v1/me/transcriptions/[id]/route").DELETE;

type Video = {
  title: string;
  durationSeconds: number;
  tracks: { lang: string; name: string; kind: "manual" | "auto" }[];
};
const videos: Record<string, Video> = {
  aaaaaaaaaaa: { title: "Short talk", durationSeconds: 120, tracks: [{ lang: "en", name: "English", kind: "manual" }] },
  ccccccccccc: { title: "No English", durationSeconds: 60, tracks: [{ lang: "fr", name: "French", kind: "manual" }] },
};
const provider = new StaticCaptionProvider(videos);
const deps: TranscriptDeps = {
  outbound: createOutbound(),
  providerFor: (p) => (p === "youtube" ? provider : null),
  cacheHours: 24,
};
const yt = (id: string) => `https://www.youtube.com/watch?v=${id}`;
const req = (url: string) => transcriptRequestSchema.parse({ url });

/** What POST /v1/transcript does (app/v1/transcript/route.ts): a failure is recorded, then rethrown. */
async function attempt(userId: string, url: string) {
  const request = req(url);
  return requestTranscript(userId, request, deps).catch((error: unknown) =>
    recordFailedRequest(userId, request, error),
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const history = (userId: string, query: Record<string, string> = {}) =>
  listTranscriptions(userId, transcriptionListQuerySchema.parse(query));

beforeAll(async () => {
  // A server without speech recognition (auto would pick the local whisper.cpp where it is installed).
  process.env.ASR_PROVIDER = "off";
  ctx = await useTestDatabase();
  ({ requestTranscript } = await import("@/lib/transcripts/request-transcript"));
  ({ recordFailedRequest, FAILED_REQUESTS_KEPT } = await import("@/lib/transcripts/record-failed-request"));
  ({ listTranscriptions } = await import("@/lib/transcripts/list-transcriptions"));
  ({ getSubscription } = await import("@/lib/usage/get-subscription"));
  deleteRoute = (await import("@/app/v1/me/transcriptions/[id]/route")).DELETE;
});
afterAll(async () => ctx?.teardown());

describe("history entries", () => {
  it("carry the title, a YouTube thumbnail and the transcript id; search matches titles", async () => {
    const user = await createUser(ctx.db);
    const transcript = await requestTranscript(user.id, req(yt("aaaaaaaaaaa")), deps);
    if (transcript.kind !== "transcript") throw new Error("expected captions");
    const [entry] = (await history(user.id)).transcriptions;
    expect(entry).toMatchObject({
      video_id: "aaaaaaaaaaa",
      title: "Short talk",
      thumbnail_url: "https://i.ytimg.com/vi/aaaaaaaaaaa/mqdefault.jpg",
      transcript_id: transcript.transcript.id,
      error: null,
    });
    expect((await history(user.id, { q: "short TALK" })).total).toBe(1);
    expect((await history(user.id, { q: "lecture" })).total).toBe(0);
  });

  it("written by a seed through a plain driver (insertDoneEntries) are done entries of their transcripts, found by title", async () => {
    const user = await createUser(ctx.db);
    const ids = ["seeda", "seedb"];
    for (const id of ids)
      await ctx.db.transcript.create({
        data: {
          id,
          platform: "youtube",
          videoId: `${id}xxxxxx`,
          lang: "en",
          origin: "captions",
          title: `Seeded talk ${id}`,
          durationSeconds: 90,
          sourceUrl: `https://www.youtube.com/watch?v=${id}xxxxxx`,
          segments: [{ start: 0, end: 90, text: "seeded" }],
        },
      });
    const client = new pg.Client({ connectionString: ctx.url });
    await client.connect();
    try {
      await insertDoneEntries(
        (text, values) => client.query(text, values),
        ids.map((id) => ({
          id: `${id}-h`,
          userId: user.id,
          platform: "youtube",
          videoId: `${id}xxxxxx`,
          lang: "en",
          origin: "captions",
          transcriptId: id,
          durationSeconds: 90,
        })),
      );
    } finally {
      await client.end();
    }
    const list = await history(user.id, { sort: "created_at", order: "asc" });
    expect(list.total).toBe(2);
    expect(list.transcriptions.map((entry) => [entry.transcript_id, entry.status, entry.duration_seconds])).toEqual(
      expect.arrayContaining([
        ["seeda", "done", 90],
        ["seedb", "done", 90],
      ]),
    );
    expect((await history(user.id, { q: "talk seedb" })).transcriptions.map((entry) => entry.id)).toEqual(["seedb-h"]);
  });
});

describe("failed link requests", () => {
  it("are listed as errors with the API's reason, charge nothing, and turn into a normal entry when the link works later", async () => {
    const user = await createUser(ctx.db);
    const missing = await failure(attempt(user.id, yt("zzzzzzzzzzz")));
    const noCaptions = await failure(attempt(user.id, yt("ccccccccccc")));
    expect(missing.status).toBe(404);
    expect(noCaptions.status).toBe(503);

    const list = await history(user.id, { state: "error" });
    expect(list.total).toBe(2);
    const byId = Object.fromEntries(list.transcriptions.map((entry) => [entry.video_id, entry]));
    expect(byId.zzzzzzzzzzz).toMatchObject({
      status: "error",
      complete: false,
      duration_seconds: 0,
      transcript_id: null,
      error: { code: missing.code, message: missing.detail },
    });
    expect(byId.ccccccccccc.error).toEqual({ code: noCaptions.code, message: noCaptions.detail });
    expect((await getSubscription(user.id)).used_seconds).toBe(0);

    // Asking again refreshes the one entry instead of adding another.
    await failure(attempt(user.id, yt("zzzzzzzzzzz")));
    expect((await history(user.id)).total).toBe(2);

    // The video gets English captions: the failed entry becomes the transcript, charged once.
    videos.zzzzzzzzzzz = {
      title: "Back online",
      durationSeconds: 30,
      tracks: [{ lang: "en", name: "English", kind: "manual" }],
    };
    await attempt(user.id, yt("zzzzzzzzzzz"));
    const [revived] = (await history(user.id, { q: "zzzzzzzzzzz" })).transcriptions;
    expect(revived).toMatchObject({
      status: "done",
      complete: true,
      duration_seconds: 30,
      title: "Back online",
      error: null,
    });
    expect((await getSubscription(user.id)).used_seconds).toBe(30);
    await attempt(user.id, yt("zzzzzzzzzzz"));
    expect((await getSubscription(user.id)).used_seconds).toBe(30);
  });

  it("keep only the newest few per user, and never touch a finished entry", async () => {
    const user = await createUser(ctx.db);
    await attempt(user.id, yt("aaaaaaaaaaa"));
    for (let i = 0; i < FAILED_REQUESTS_KEPT + 3; i++)
      await failure(attempt(user.id, yt(`missing${String(i).padStart(4, "0")}`)));
    const failed = await history(user.id, { state: "error", limit: "100" });
    expect(failed.total).toBe(FAILED_REQUESTS_KEPT);
    expect(failed.transcriptions.map((entry) => entry.video_id)).not.toContain("missing0000");
    expect(failed.transcriptions.map((entry) => entry.video_id)).toContain(
      `missing${String(FAILED_REQUESTS_KEPT + 2).padStart(4, "0")}`,
    );

    // An error for a link that is already done (say the platform is down now) leaves the entry as it was.
    await failure(
      recordFailedRequest(user.id, req(yt("aaaaaaaaaaa")), errors.upstream("The platform could not be reached.")),
    );
    const [done] = (await history(user.id, { q: "aaaaaaaaaaa" })).transcriptions;
    expect(done).toMatchObject({ status: "done", error: null });
  });

  it("are not recorded for credential or rate-limit failures, or for links that do not parse", async () => {
    const user = await createUser(ctx.db);
    await failure(recordFailedRequest(user.id, req(yt("aaaaaaaaaaa")), errors.rateLimited(3)));
    await failure(recordFailedRequest(user.id, req(yt("aaaaaaaaaaa")), errors.unauthorized()));
    await failure(recordFailedRequest(user.id, req("https://example.com/page"), errors.upstream("x")));
    expect((await history(user.id)).total).toBe(0);
  });
});

describe("DELETE /v1/me/transcriptions/{id}", () => {
  it("removes the caller's entry (204), keeps the shared transcript, takes its public page down; 404 for anyone else", async () => {
    const owner = await createCaller(ctx.db);
    const other = await createCaller(ctx.db);
    await requestTranscript(owner.userId, req(yt("aaaaaaaaaaa")), deps);
    await requestTranscript(other.userId, req(yt("aaaaaaaaaaa")), deps);
    const [entry] = (await history(owner.userId)).transcriptions;
    await ctx.db.publication.create({
      data: {
        slug: `s-${entry.id}`,
        userId: owner.userId,
        transcriptId: entry.transcript_id!,
        publishedAt: new Date(),
      },
    });
    const del = (id: string, headers: Record<string, string>) =>
      callRoute(deleteRoute, `/v1/me/transcriptions/${id}`, { method: "DELETE", headers, params: { id } });

    const foreign = await del(entry.id, other.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toMatchObject({ code: "not_found" });
    expect((await del(entry.id, {})).status).toBe(401);

    const gone = await del(entry.id, owner.headers);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe("");
    expect((await history(owner.userId)).total).toBe(0);
    expect((await history(other.userId)).total).toBe(1);
    expect(await ctx.db.transcript.count({ where: { id: entry.transcript_id! } })).toBe(1);
    expect((await ctx.db.publication.findFirstOrThrow({ where: { userId: owner.userId } })).publishedAt).toBeNull();
    expect((await del(entry.id, owner.headers)).status).toBe(404);
  });

  it("refuses a running transcription with 409 and deletes it once its job has failed", async () => {
    const caller = await createCaller(ctx.db);
    const job = await ctx.db.job.create({ data: { userId: caller.userId, input: {}, status: "running" } });
    const entry = await ctx.db.transcription.create({
      data: {
        userId: caller.userId,
        platform: "upload",
        videoId: "obj1",
        lang: "en",
        origin: "asr",
        jobId: job.id,
        state: "in_progress",
        title: "talk.mp3",
      },
    });
    expect((await history(caller.userId)).transcriptions[0]).toMatchObject({ title: "talk.mp3", thumbnail_url: null });
    const params = { id: entry.id };
    const running = await callRoute(deleteRoute, `/v1/me/transcriptions/${entry.id}`, {
      method: "DELETE",
      headers: caller.headers,
      params,
    });
    expect(running.status).toBe(409);
    expect(running.json).toMatchObject({ code: "transcription_in_progress" });

    await ctx.db.job.update({
      where: { id: job.id },
      data: { status: "error", errorCode: "asr_failed", errorMessage: "The audio could not be decoded." },
    });
    await ctx.db.transcription.update({ where: { id: entry.id }, data: { state: "error" } });
    expect((await history(caller.userId)).transcriptions[0].error).toEqual({
      code: "asr_failed",
      message: "The audio could not be decoded.",
    });
    const deleted = await callRoute(deleteRoute, `/v1/me/transcriptions/${entry.id}`, {
      method: "DELETE",
      headers: caller.headers,
      params,
    });
    expect(deleted.status).toBe(204);
  });
});
