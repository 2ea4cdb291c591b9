import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute } from "@/test/request";
import { createCaller, useTestDatabase } from "@/test/app-db";
import { gritSegments, seedTranscript, videoIds } from "@/test/publishing";
import { renderTranscript, type Segment } from "@/lib/formats";

// Corrections through the route handlers, against PostgreSQL: the real TED "Grit" captions (test/publishing.ts).

let ctx: Awaited<ReturnType<typeof useTestDatabase>>;
let transcriptRoute: typeof import("@/app/v1/transcripts/[id]/route");
let downloadRoute: typeof import("@/app/v1/transcripts/[id]/download/route").GET;
let revisionsRoute: typeof import("@/app/v1/transcripts/[id]/revisions/route").GET;
let diffRoute: typeof import("@/app/v1/transcripts/[id]/revisions/[revision_id]/diff/route").GET;
let editsRoute: typeof import("@/app/v1/transcripts/[id]/edits/route").DELETE;
let publishRoute: typeof import("@/app/v1/publish/route").POST;
let publicRoute: typeof import("@/app/v1/public/[slug]/route").GET;
let publicDownloadRoute: typeof import("@/app/v1/public/[slug]/download/route").GET;
let librarySearchRoute: typeof import("@/app/v1/me/search/route").GET;
let publicSearchRoute: typeof import("@/app/v1/public/search/route").GET;
let getJob: typeof import("@/lib/transcripts/get-job").getJob;

const KEPT = 3;

beforeAll(async () => {
  process.env.APP_URL = "https://verbatim.example";
  process.env.RATE_LIMIT_MULTIPLIER = "0";
  process.env.EDIT_REVISIONS_KEPT = String(KEPT);
  process.env.EDIT_STORAGE_BYTES = "300000";
  ctx = await useTestDatabase();
  transcriptRoute = await import("@/app/v1/transcripts/[id]/route");
  downloadRoute = (await import("@/app/v1/transcripts/[id]/download/route")).GET;
  revisionsRoute = (await import("@/app/v1/transcripts/[id]/revisions/route")).GET;
  diffRoute = (await import("@/app/v1/transcripts/[id]/revisions/[revision_id]/diff/route")).GET;
  editsRoute = (await import("@/app/v1/transcripts/[id]/edits/route")).DELETE;
  publishRoute = (await import("@/app/v1/publish/route")).POST;
  publicRoute = (await import("@/app/v1/public/[slug]/route")).GET;
  publicDownloadRoute = (await import("@/app/v1/public/[slug]/download/route")).GET;
  librarySearchRoute = (await import("@/app/v1/me/search/route")).GET;
  publicSearchRoute = (await import("@/app/v1/public/search/route")).GET;
  getJob = (await import("@/lib/transcripts/get-job")).getJob;
});
afterAll(async () => ctx?.teardown());

const newCaller = () => createCaller(ctx.db);

const newVideoId = videoIds("edit");

type TranscriptJson = { id: string; segments: Segment[]; edited?: true; content: string | null };

const patch = (caller: { headers: Record<string, string> }, id: string, body: unknown) =>
  callRoute(transcriptRoute.PATCH, `/v1/transcripts/${id}`, {
    method: "PATCH",
    headers: caller.headers,
    body,
    params: { id },
  });
const get = (caller: { headers: Record<string, string> }, id: string, query = "") =>
  callRoute(transcriptRoute.GET, `/v1/transcripts/${id}${query}`, { headers: caller.headers, params: { id } });

/** Every "that" (case-insensitive) replaced by "THAT-WORD": a find-and-replace across the whole transcript. */
function replaceAll(segments: Segment[], from: RegExp, to: string): Segment[] {
  return segments.map((s) => ({ start: s.start, end: s.end, text: s.text.replace(from, to) }));
}

describe("PATCH /v1/transcripts/{id}", () => {
  it("answers the author's new version as GET answers it, in json and in another format", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const edited = replaceAll(gritSegments(), /\bpassion\b/gi, 'PASSION "ardeur"');
    for (const format of ["json", "srt"]) {
      const res = await callRoute(transcriptRoute.PATCH, `/v1/transcripts/${transcript.id}?format=${format}`, {
        method: "PATCH",
        headers: author.headers,
        body: { segments: edited },
        params: { id: transcript.id },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      const now = await get(author, transcript.id, `?format=${format}`);
      expect(res.json, format).toEqual(now.json);
      expect((res.json as { edited?: true }).edited).toBe(true);
    }
  });

  it("saves the author's correction: they see it, the original stays, nobody else sees it", async () => {
    const author = await newCaller();
    const other = await newCaller();
    const videoId = newVideoId();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId });
    await seedTranscript(ctx.db, other.userId, { videoId });
    const original = gritSegments();
    const edited = replaceAll(original, /\bgrit\b/gi, "GRITTINESS");
    const res = await patch(author, transcript.id, { segments: edited });
    expect(res.status).toBe(200);
    const body = res.json as TranscriptJson;
    expect(body.edited).toBe(true);
    expect(body.segments.map((s) => s.text)).toEqual(edited.map((s) => s.text));
    expect(body.segments.map((s) => [s.start, s.end])).toEqual(original.map((s) => [s.start, s.end]));

    const mine = (await get(author, transcript.id)).json as TranscriptJson;
    expect(mine.edited).toBe(true);
    expect(mine.segments.some((s) => s.text.includes("GRITTINESS"))).toBe(true);
    expect(((await get(author, transcript.id, "?revision=current")).json as TranscriptJson).segments).toEqual(
      mine.segments,
    );
    const asGiven = (await get(author, transcript.id, "?revision=original")).json as TranscriptJson;
    expect(asGiven.edited).toBeUndefined();
    expect(asGiven.segments).toEqual(original);
    const theirs = (await get(other, transcript.id)).json as TranscriptJson;
    expect(theirs.edited).toBeUndefined();
    expect(theirs.segments).toEqual(original);
    // The shared cached row is untouched.
    const row = await ctx.db.transcript.findUniqueOrThrow({ where: { id: transcript.id } });
    expect(row.segments).toEqual(original);

    // Every format and the download read the author's version.
    const srt = await callRoute(downloadRoute, `/v1/transcripts/${transcript.id}/download?format=srt`, {
      headers: author.headers,
      params: { id: transcript.id },
    });
    expect(srt.text).toContain("GRITTINESS");
    const theirSrt = await callRoute(downloadRoute, `/v1/transcripts/${transcript.id}/download?format=srt`, {
      headers: other.headers,
      params: { id: transcript.id },
    });
    expect(theirSrt.text).not.toContain("GRITTINESS");
  });

  it("a corrected subtitle file (format srt): the one caption parser reads it; times survive the round trip", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const original = gritSegments();
    const file = renderTranscript("srt", original, {
      title: null,
      sourceUrl: "",
      platform: "youtube",
      videoId: "x",
      lang: "en",
    }).content;
    const fixed = file.replace(/\bpassion\b/g, "PASSION");
    expect(fixed).not.toBe(file);
    const res = await patch(author, transcript.id, { format: "srt", content: fixed });
    expect(res.status).toBe(200);
    const segments = (res.json as TranscriptJson).segments;
    expect(segments.map((s) => [s.start, s.end])).toEqual(original.map((s) => [s.start, s.end]));
    expect(segments.map((s) => s.text)).toEqual(original.map((s) => s.text.replace(/\bpassion\b/g, "PASSION")));
  });

  it("unchanged words keep their word times; new words get times inside their segment", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const withWords: Segment[] = [
      {
        start: 1,
        end: 3,
        text: "we met doctor smith",
        words: [
          { start: 1, end: 1.5, text: "we" },
          { start: 1.5, end: 2, text: "met" },
          { start: 2, end: 2.5, text: "doctor" },
          { start: 2.5, end: 3, text: "smith" },
        ],
      },
    ];
    expect((await patch(author, transcript.id, { segments: withWords })).status).toBe(200);
    const res = await patch(author, transcript.id, {
      segments: [{ start: 1, end: 3, text: "we met doctor Anna Smyth" }],
    });
    expect(res.status).toBe(200);
    expect((res.json as TranscriptJson).segments[0]!.words).toEqual([
      { start: 1, end: 1.5, text: "we" },
      { start: 1.5, end: 2, text: "met" },
      { start: 2, end: 2.5, text: "doctor" },
      { start: 2.5, end: 2.75, text: "Anna" },
      { start: 2.75, end: 3, text: "Smyth" },
    ]);
  });

  it("refuses bad corrections with 422 in the contract's shape, and a transcript not in the caller's history with 404", async () => {
    const author = await newCaller();
    const stranger = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const overlap = await patch(author, transcript.id, {
      segments: [
        { start: 0, end: 5, text: "a" },
        { start: 4, end: 6, text: "b" },
      ],
    });
    expect(overlap.status).toBe(422);
    expect((overlap.json as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(["body", "segments", 1, "start"]);
    const past = await patch(author, transcript.id, { segments: [{ start: 0, end: 99_999, text: "a" }] });
    expect(past.status).toBe(422);
    const nul = await patch(author, transcript.id, { segments: [{ start: 0, end: 1, text: "a\u0000" }] });
    expect(nul.status).toBe(422);
    const both = await patch(author, transcript.id, {
      segments: [{ start: 0, end: 1, text: "a" }],
      format: "srt",
      content: "x",
    });
    expect(both.status).toBe(422);
    const notSrt = await patch(author, transcript.id, { format: "srt", content: "not a subtitle file" });
    expect(notSrt.status).toBe(422);
    expect((notSrt.json as { detail: { loc: unknown[] }[] }).detail[0]!.loc).toEqual(["body", "content"]);
    const notMine = await patch(stranger, transcript.id, { segments: [{ start: 0, end: 1, text: "a" }] });
    expect(notMine.status).toBe(404);
    expect((await get(stranger, transcript.id)).status).toBe(404);
    expect(await ctx.db.transcriptRevision.count({ where: { transcriptId: transcript.id } })).toBe(0);
  });

  it("costs no allowance", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const now = new Date();
    await ctx.db.usagePeriod.create({
      data: {
        userId: author.userId,
        periodStart: new Date(now.getTime() - 86_400_000),
        periodEnd: new Date(now.getTime() + 86_400_000),
        usedSeconds: 123,
      },
    });
    const before = await ctx.db.usagePeriod.findMany({ where: { userId: author.userId } });
    expect((await patch(author, transcript.id, { segments: replaceAll(gritSegments(), /the/g, "THE") })).status).toBe(
      200,
    );
    const after = await ctx.db.usagePeriod.findMany({ where: { userId: author.userId } });
    expect(after.map((p) => p.usedSeconds)).toEqual(before.map((p) => p.usedSeconds));
    expect(after).toHaveLength(1);
  });
});

describe("revisions", () => {
  it("lists saved revisions newest first with the original, keeps at most EDIT_REVISIONS_KEPT, diffs and restores", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const original = gritSegments();
    for (let i = 1; i <= KEPT + 2; i++)
      expect(
        (await patch(author, transcript.id, { segments: replaceAll(original, /\bgrit\b/gi, `GRIT${i}`) })).status,
      ).toBe(200);
    const list = await callRoute(revisionsRoute, `/v1/transcripts/${transcript.id}/revisions`, {
      headers: author.headers,
      params: { id: transcript.id },
    });
    expect(list.status).toBe(200);
    const { revisions, storage_used_bytes } = list.json as {
      revisions: {
        id: string;
        current: boolean;
        size_bytes: number;
        segment_count: number;
        created_at: string | null;
      }[];
      storage_used_bytes: number;
    };
    expect(revisions).toHaveLength(KEPT + 1);
    expect(revisions.map((r) => r.segment_count)).toEqual(revisions.map(() => original.length));
    const stored = await ctx.db.transcriptRevision.findMany({
      where: { userId: author.userId, transcriptId: transcript.id },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
    expect(revisions.slice(0, KEPT).map((r) => [r.id, r.created_at])).toEqual(
      stored.map((r) => [r.id, r.createdAt.toISOString()]),
    );
    expect(revisions.map((r) => r.current)).toEqual([true, false, false, false]);
    expect(revisions.at(-1)!.id).toBe("original");
    expect(storage_used_bytes).toBe(revisions.slice(0, KEPT).reduce((sum, r) => sum + r.size_bytes, 0));

    // An older kept revision reads as it was saved.
    const older = (await get(author, transcript.id, `?revision=${revisions[1]!.id}`)).json as TranscriptJson;
    expect(older.segments.some((s) => s.text.includes(`GRIT${KEPT + 1}`))).toBe(true);

    const diff = await callRoute(diffRoute, `/v1/transcripts/${transcript.id}/revisions/current/diff`, {
      headers: author.headers,
      params: { id: transcript.id, revision_id: "current" },
    });
    expect(diff.status).toBe(200);
    const changes = (diff.json as { changes: { op: string; original: string; revision: string }[] }).changes;
    const grits = original.flatMap((s) => s.text.match(/\bgrit\b/gi) ?? []).length;
    expect(grits).toBeGreaterThan(3);
    expect(changes.length).toBeGreaterThan(0);
    expect(
      changes.every((c) => c.op === "replace" && /grit/i.test(c.original) && c.revision.includes(`GRIT${KEPT + 2}`)),
    ).toBe(true);

    const restored = await callRoute(editsRoute, `/v1/transcripts/${transcript.id}/edits`, {
      method: "DELETE",
      headers: author.headers,
      params: { id: transcript.id },
    });
    expect(restored.status).toBe(200);
    expect((restored.json as TranscriptJson).segments).toEqual(original);
    const now = (await get(author, transcript.id)).json as TranscriptJson;
    expect(now.edited).toBeUndefined();
    expect(now.segments).toEqual(original);
  });

  it("deleting the history entry deletes the author's corrections of it", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    await patch(author, transcript.id, { segments: replaceAll(gritSegments(), /\bgrit\b/gi, "GONE") });
    expect(await ctx.db.transcriptRevision.count({ where: { userId: author.userId } })).toBe(1);
    const entry = await ctx.db.transcription.findFirstOrThrow({ where: { userId: author.userId } });
    const { deleteTranscription } = await import("@/lib/transcripts/delete-transcription");
    await deleteTranscription(author.userId, entry.id);
    expect(await ctx.db.transcriptRevision.count({ where: { userId: author.userId } })).toBe(0);
    expect(await ctx.db.transcript.count({ where: { id: transcript.id } })).toBe(1);
  });

  it("a save past the caller's storage bound is a 413 and stores nothing", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    // Long media, so that the text is within what it can hold (density.ts) and only the storage bound is passed.
    await ctx.db.transcript.update({ where: { id: transcript.id }, data: { durationSeconds: 100_000 } });
    const long = gritSegments().map((s) => ({ start: s.start, end: s.end, text: "x".repeat(4000) }));
    const res = await patch(author, transcript.id, { segments: long });
    expect(res.status).toBe(413);
    expect(await ctx.db.transcriptRevision.count({ where: { userId: author.userId } })).toBe(0);
  });
});

describe("the author's version everywhere", () => {
  it("a repeated POST /v1/transcript for the same video: the author's correction, no charge; another user's: the original", async () => {
    const { StaticCaptionProvider } = await import("@/test/fakes/static-captions");
    const { createOutbound } = await import("@/lib/http/outbound");
    const { requestTranscript } = await import("@/lib/transcripts/request-transcript");
    const { transcriptRequestSchema } = await import("@/lib/transcripts/schemas");
    const { getSubscription } = await import("@/lib/usage/get-subscription");
    const provider = new StaticCaptionProvider({
      rrrrrrrrrrr: { title: "Repeat", durationSeconds: 60, tracks: [{ lang: "en", name: "English", kind: "manual" }] },
    });
    const deps = { outbound: createOutbound(), providerFor: () => provider, cacheHours: 24 };
    const request = transcriptRequestSchema.parse({ url: "https://www.youtube.com/watch?v=rrrrrrrrrrr" });
    const author = await newCaller();
    const first = await requestTranscript(author.userId, request, deps);
    if (first.kind !== "transcript") throw new Error("expected a transcript");
    const segments = first.transcript.segments!;
    const edited = segments.map((s, i) => ({ ...s, text: i === 0 ? "Corrected first line." : s.text }));
    expect((await patch(author, first.transcript.id, { segments: edited })).status).toBe(200);
    const used = (await getSubscription(author.userId)).used_seconds;
    const again = await requestTranscript(author.userId, request, deps);
    if (again.kind !== "transcript") throw new Error("expected a transcript");
    expect(again.transcript.edited).toBe(true);
    expect(again.transcript.segments![0]!.text).toBe("Corrected first line.");
    expect((await getSubscription(author.userId)).used_seconds).toBe(used);
    const other = await newCaller();
    const theirs = await requestTranscript(other.userId, request, deps);
    if (theirs.kind !== "transcript") throw new Error("expected a transcript");
    expect(theirs.transcript.edited).toBeUndefined();
    expect(theirs.transcript.segments![0]!.text).toBe(segments[0]!.text);
  });

  it("a finished job's transcript", async () => {
    const author = await newCaller();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId: newVideoId() });
    const job = await ctx.db.job.create({
      data: { userId: author.userId, status: "done", input: {}, transcriptId: transcript.id },
    });
    await patch(author, transcript.id, { segments: replaceAll(gritSegments(), /\bgrit\b/gi, "JOBGRIT") });
    const answer = await getJob(author.userId, job.id, "json");
    expect(answer.transcript?.edited).toBe(true);
    expect(answer.transcript?.segments?.some((s) => s.text.includes("JOBGRIT"))).toBe(true);
  });

  it("their public page (JSON and download) shows the correction at once; a new ETag", async () => {
    const author = await newCaller();
    const videoId = newVideoId();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId });
    const published = await callRoute(publishRoute, "/v1/publish", {
      method: "POST",
      headers: author.headers,
      body: { url: `https://www.youtube.com/watch?v=${videoId}`, lang: "en" },
    });
    expect(published.status).toBe(200);
    const slug = (published.json as { slug: string }).slug;
    const before = await callRoute(publicRoute, `/v1/public/${slug}`, { params: { slug } });
    expect(before.status).toBe(200);
    await patch(author, transcript.id, { segments: replaceAll(gritSegments(), /\bgrit\b/gi, "PUBLICGRIT") });
    const after = await callRoute(publicRoute, `/v1/public/${slug}`, { params: { slug } });
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
    expect((after.json as TranscriptJson).segments.some((s) => s.text.includes("PUBLICGRIT"))).toBe(true);
    const file = await callRoute(publicDownloadRoute, `/v1/public/${slug}/download?format=text`, { params: { slug } });
    expect(file.text).toContain("PUBLICGRIT");
  });
});

describe("search finds the corrected words", () => {
  it("in the author's library and on their public page; not in anyone else's library", async () => {
    const author = await newCaller();
    const other = await newCaller();
    const videoId = newVideoId();
    const transcript = await seedTranscript(ctx.db, author.userId, { videoId });
    await seedTranscript(ctx.db, other.userId, { videoId });
    await patch(author, transcript.id, { segments: replaceAll(gritSegments(), /\bgrit\b/gi, "zorblax") });
    const search = (caller: { headers: Record<string, string> }) =>
      callRoute(librarySearchRoute, "/v1/me/search?q=zorblax", { headers: caller.headers });
    const mine = (await search(author)).json as { results: { transcript_id?: string }[] };
    expect(mine.results.length).toBeGreaterThan(0);
    const theirs = (await search(other)).json as { results: unknown[] };
    expect(theirs.results).toHaveLength(0);
    // The original words are no longer the author's.
    const old = (await callRoute(librarySearchRoute, "/v1/me/search?q=grit", { headers: author.headers })).json as {
      results: unknown[];
    };
    expect(old.results).toHaveLength(0);

    const publicBefore = (await callRoute(publicSearchRoute, "/v1/public/search?q=zorblax")).json as {
      results: unknown[];
    };
    expect(publicBefore.results).toHaveLength(0);
    const published = await callRoute(publishRoute, "/v1/publish", {
      method: "POST",
      headers: author.headers,
      body: { url: `https://www.youtube.com/watch?v=${videoId}`, lang: "en" },
    });
    expect(published.status).toBe(200);
    const publicAfter = (await callRoute(publicSearchRoute, "/v1/public/search?q=zorblax")).json as {
      results: unknown[];
    };
    expect(publicAfter.results.length).toBeGreaterThan(0);
  });
});
